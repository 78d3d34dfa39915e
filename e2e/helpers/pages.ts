import type { Locator, Page } from "playwright-core";

/** What every journey reads and does on a page, by role and label as a visitor would. */

export const heading = (page: Page) => page.getByRole("heading", { level: 1 });

export const isFocused = (page: Page, locator: Locator) => locator.evaluate((element) => element === document.activeElement);

/** The trimmed text of an element, once it is there. */
export async function text(locator: Locator): Promise<string> {
  await locator.waitFor();
  return (await locator.textContent())?.trim() ?? "";
}

/** Waits until the page's h1 reads `expected` (pages change their heading as a flow moves on). */
export async function headingIs(page: Page, expected: string): Promise<void> {
  await page.getByRole("heading", { level: 1, name: expected, exact: true }).waitFor();
}

/** The text of the elements an input's aria-describedby points at. */
export async function description(input: Locator): Promise<string> {
  const ids = (await input.getAttribute("aria-describedby")) ?? "";
  const page = input.page();
  const parts = await Promise.all(ids.split(" ").filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()));
  return parts.join(" ");
}

/**
 * Creates an account through the API, as another device would, without touching any browser's cookies.
 * The `origin` header is the one a browser on the service's page sends.
 */
export async function signUpByApi(serviceUrl: string, user: { name: string; email: string; password: string }): Promise<void> {
  const response = await fetch(`${serviceUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: serviceUrl },
    body: JSON.stringify(user),
  });
  if (!response.ok) throw new Error(`sign-up of ${user.email} failed: ${response.status} ${await response.text()}`);
}

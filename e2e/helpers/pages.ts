import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import type { ReceivedMail } from "../../server/test/helpers/smtp.js";
import { en, type Messages } from "../../web/src/i18n/en.js";
import { expectNoAxeViolations } from "./axe.js";
import { ARTIFACTS, nextFrames, screenshotBothSizes, VIEWPORTS } from "./browser.js";

/**
 * What every journey reads and does on a page, by role and label as a visitor would: the steps the journeys
 * share (signing in and up, opening the account or an organization, choosing a language, photographing a page),
 * and the readings and mail links they check. A journey file keeps only what is its own.
 */

export const heading = (page: Page) => page.getByRole("heading", { level: 1 });

/**
 * Whether the element has the focus, once it is given: a page moves the focus in an effect or the next frame (a
 * dialog that closes hands it back after it is hidden), so this waits up to 2 s for it before answering.
 */
export async function isFocused(page: Page, locator: Locator): Promise<boolean> {
  const handle = await locator.elementHandle();
  if (!handle) return false;
  try {
    await page.waitForFunction((element) => element === document.activeElement, handle, { timeout: 2_000 });
    return true;
  } catch {
    return false;
  } finally {
    await handle.dispose();
  }
}

/** Checks the page's title, once it reads `expected` (a page sets it in an effect, after its heading shows; up to 5 s). */
export async function titleIs(page: Page, expected: string): Promise<void> {
  await page.waitForFunction((title) => document.title === title, expected, { timeout: 5_000 }).catch(() => undefined);
  expect(await page.title()).toBe(expected);
}

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

/** A translation with its {{placeholders}} filled, as the app shows it. */
export const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ""));

/** Screenshots at both sizes, then axe-core on what the page shows. */
export async function look(page: Page, name: string): Promise<void> {
  await screenshotBothSizes(page, name);
  await expectNoAxeViolations(page, name);
}

/**
 * One part of the page alone (the header, a card) at desktop and phone widths, as e2e/artifacts/<name>-desktop.png
 * and -phone.png, running `check` at each width; the page is left at desktop size.
 */
export async function photograph(part: Locator, name: string, check?: () => Promise<void>): Promise<void> {
  const page = part.page();
  const isHeader = await part.evaluate((element) => element.tagName === "HEADER");
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.bringToFront();
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await nextFrames(page);
    // The sticky header would otherwise cover the top of a part scrolled up to it.
    const style = isHeader ? undefined : "header:has(~ main) { position: static !important; }";
    await part.screenshot({ path: join(ARTIFACTS, `${name}-${size}.png`), animations: "disabled", style });
    await check?.();
  }
  await page.setViewportSize(VIEWPORTS.desktop);
}

export interface SignInOptions {
  /** The language the page shows (its labels); English unless given. */
  messages?: Messages;
  /** false: the page is on the sign-in page already (another page sent the visitor there). */
  open?: boolean;
  /** Clears the browser's cookies first: someone else signs in on this browser. */
  clearCookies?: boolean;
  /** false: the sign-in is expected to be refused, so the step does not wait to leave the sign-in page. */
  wait?: boolean;
}

/**
 * Signs in with an email address or username and its password, and waits to leave the sign-in page (for the
 * home page, or the page that sent the visitor there).
 */
export async function signIn(page: Page, identifier: string, password: string, options: SignInOptions = {}): Promise<void> {
  const { messages = en, open = true, clearCookies = false, wait = true } = options;
  if (clearCookies) await page.context().clearCookies();
  if (open) await page.goto("/sign-in");
  await page.getByLabel(messages.username.identifier).fill(identifier);
  await page.getByLabel(messages.signIn.password, { exact: true }).fill(password);
  await page.getByRole("button", { name: messages.signIn.submit, exact: true }).click();
  if (wait) await page.waitForURL((url) => url.pathname !== "/sign-in");
}

/** Signs up on the sign-up page and waits for the home page. */
export async function signUp(page: Page, user: { name: string; email: string; password: string }, messages: Messages = en): Promise<void> {
  await page.goto("/sign-up");
  await page.getByLabel(messages.signUp.name, { exact: true }).fill(user.name);
  await page.getByLabel(messages.signUp.email).fill(user.email);
  await page.getByLabel(messages.signUp.password, { exact: true }).fill(user.password);
  await page.getByRole("button", { name: messages.signUp.submit }).click();
  await page.waitForURL((url) => url.pathname === "/");
}

/** Opens the account page and waits for its sessions list (the page has read what it shows). */
export async function openAccount(page: Page): Promise<void> {
  await page.goto("/account");
  await page.getByRole("list", { name: en.account.sessions.listLabel }).waitFor();
}

/**
 * Makes an organization the active one for the page's session, as another tab would (a new session starts
 * without one), and opens its page.
 */
export async function openOrganization(page: Page, organization: { id: string; name: string }): Promise<void> {
  const response = await page.request.post("/api/auth/organization/set-active", {
    data: { organizationId: organization.id },
    headers: { origin: new URL(page.url()).origin },
  });
  if (response.status() !== 200) throw new Error(`set-active answered ${response.status()}: ${await response.text()}`);
  await page.goto("/organization");
  await headingIs(page, organization.name);
}

/** Chooses a language with the header's switcher (labelled in the language shown now) and waits for the page to follow. */
export async function chooseLanguage(page: Page, from: Messages, code: string): Promise<void> {
  await page.getByLabel(from.language.label).selectOption(code);
  await page.locator(`html[lang="${code}"]`).waitFor();
}

/** The first link in a mail whose path starts with `path` ("/api/auth/verify-email", "/invitation/"). */
export function linkTo(mail: ReceivedMail, path: string): string {
  const found = mail.links.find((l) => new URL(l).pathname.startsWith(path));
  if (!found) throw new Error(`no ${path} link in "${mail.subject}": ${mail.links.join(", ")}`);
  return found;
}

/** Whether a mail has a link whose path starts with `path`: for waiting for one mail among several. */
export const withLink = (path: string) => (mail: ReceivedMail) => mail.links.some((l) => new URL(l).pathname.startsWith(path));

let people = 0;
/** Someone new for a journey: the name, an address made from it (`tag` tells the journey files apart) and `password`. */
export function person(name: string, password: string, tag = "") {
  people += 1;
  return { name, email: `${name.toLowerCase().split(" ")[0]}${tag}-${people}@example.com`, password };
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

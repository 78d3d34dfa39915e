import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { de } from "../web/src/i18n/de.js";
import { en } from "../web/src/i18n/en.js";
import { ru } from "../web/src/i18n/ru.js";
import { launchBrowser, pageOpener, screenshotBothSizes } from "./helpers/browser.js";
import { description, fill, heading, isFocused, photograph, signIn, text } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";

/**
 * Usernames through the built web app against the real service: sign up with one (checked while typing), sign
 * out and back in with it, be told when another sign-up wants the same one, and change it on the account page.
 * Then the header of an administrator with an organization, at desktop and phone widths. Pages are
 * photographed into e2e/artifacts/.
 */

const JOURNEY_TIMEOUT = 120_000;
const GRACE = { name: "Grace Hopper", email: "grace-username@example.com", password: "compiler-pioneer-1952", username: "Grace_H" };
const u = en.username;

let service: RunningService;
let browser: Browser;
const { newPage, closeAll } = pageOpener(
  () => browser,
  () => service.url,
);

const usernameField = (page: Page) => page.getByLabel(u.label);

/** Nothing sticks out sideways: the page does not scroll horizontally, and every header item lies inside it. */
async function expectHeaderFits(page: Page): Promise<void> {
  const overflow = await page.getByRole("banner").evaluate((banner) => {
    const header = banner.getBoundingClientRect();
    const items = Array.from(banner.querySelectorAll("a, button, select, span"))
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0);
    const outside = items
      .filter(({ box }) => box.left < header.left - 0.5 || box.right > header.right + 0.5)
      .map(({ element }) => element.textContent?.trim() || element.tagName);
    return { scrolls: document.documentElement.scrollWidth > window.innerWidth, outside };
  });
  expect(overflow).toEqual({ scrolls: false, outside: [] });
}

beforeAll(async () => {
  [service, browser] = await Promise.all([startService(), launchBrowser()]);
});

afterAll(async () => {
  await closeAll();
  await browser?.close();
  await service?.close();
});

describe("username journeys", () => {
  it(
    "signs up with a username, signs in with it, keeps it from a second sign-up and changes it on the account page",
    async () => {
      // Sign-up: the username is optional, explained with the service's bounds and checked as it is typed.
      const grace = await newPage();
      await grace.goto("/sign-up");
      await heading(grace).waitFor();
      const field = usernameField(grace);
      expect(await description(field)).toContain(fill(u.hint, { min: 3, max: 30 }));
      await grace.getByLabel(en.signUp.name, { exact: true }).fill(GRACE.name);
      await grace.getByLabel(en.signUp.email).fill(GRACE.email);
      await field.fill("grace hopper");
      expect(await description(field)).toContain(u.invalid);
      expect(await field.getAttribute("aria-invalid")).toBe("true");
      await field.fill(GRACE.username);
      await grace.getByText(u.available).waitFor();
      expect(await field.getAttribute("aria-invalid")).toBeNull();
      await grace.getByLabel(en.signUp.password, { exact: true }).fill(GRACE.password);
      await screenshotBothSizes(grace, "username-sign-up");
      await grace.getByRole("button", { name: en.signUp.submit }).click();
      await grace.waitForURL((url) => url.pathname === "/");

      // Signed out, then back in with the username, typed in another case; a wrong password says "username".
      await grace.getByRole("banner").getByRole("button", { name: en.nav.signOut }).click();
      await grace.waitForURL((url) => url.pathname === "/sign-in");
      const identifier = grace.getByLabel(u.identifier);
      await identifier.fill("grace_h");
      await grace.getByLabel(en.signIn.password, { exact: true }).fill("not-the-password");
      await grace.getByRole("button", { name: en.signIn.submit, exact: true }).click();
      const alert = grace.getByRole("alert");
      expect(await text(alert)).toBe(en.serverErrors.INVALID_USERNAME_OR_PASSWORD);
      expect(await isFocused(grace, alert)).toBe(true);
      await grace.getByLabel(en.signIn.password, { exact: true }).fill(GRACE.password);
      await screenshotBothSizes(grace, "username-sign-in");
      await grace.getByRole("button", { name: en.signIn.submit, exact: true }).click();
      await grace.waitForURL((url) => url.pathname === "/");
      expect(await text(heading(grace))).toBe(`Welcome, ${GRACE.name}`);

      // A second visitor wants the same name, in other letter case: told while typing, and the form holds back.
      const visitor = await newPage();
      await visitor.goto("/sign-up");
      await visitor.getByLabel(en.signUp.name, { exact: true }).fill("Grace Impostor");
      await visitor.getByLabel(en.signUp.email).fill("impostor@example.com");
      await visitor.getByLabel(en.signUp.password, { exact: true }).fill("another-long-password");
      const taken = usernameField(visitor);
      await taken.fill("GRACE_h");
      await visitor.locator('input[aria-invalid="true"]').waitFor();
      expect(await description(taken)).toContain(u.taken);
      await screenshotBothSizes(visitor, "username-sign-up-taken");
      await visitor.getByRole("button", { name: en.signUp.submit }).click();
      expect(await isFocused(visitor, taken)).toBe(true);
      expect(visitor.url()).toBe(`${service.url}/sign-up`);

      // Had the check said "free" (someone else took the name meanwhile), the service's refusal lands on the field.
      await visitor.route("**/api/auth/is-username-available", (route) =>
        route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ available: true }) }),
      );
      await taken.fill("grace_H");
      await visitor.getByText(u.available).waitFor();
      await visitor.getByRole("button", { name: en.signUp.submit }).click();
      await visitor.getByText(en.serverErrors.USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER).waitFor();
      expect(await taken.getAttribute("aria-invalid")).toBe("true");
      expect(await isFocused(visitor, taken)).toBe(true);
      await visitor.unrouteAll();

      // The account page shows the username as it was typed, and changes it after checking it.
      await grace.getByRole("link", { name: en.nav.account, exact: true }).click();
      await grace.waitForURL((url) => url.pathname === "/account");
      const profile = grace.getByRole("region", { name: en.account.profile.heading });
      const own = profile.getByLabel(u.label);
      expect(await own.inputValue()).toBe(GRACE.username);
      expect(await description(own)).toContain(fill(u.profileHint, { min: 3, max: 30 }));
      await screenshotBothSizes(grace, "username-account");
      await photograph(profile, "username-profile-card");

      await own.fill("grace_h"); // her own, in other case: not "taken"
      await grace.waitForTimeout(600);
      expect(await own.getAttribute("aria-invalid")).toBeNull();
      await own.fill("");
      await profile.getByRole("button", { name: en.account.profile.save }).click();
      expect(await description(own)).toContain(u.required);
      expect(await isFocused(grace, own)).toBe(true);

      await own.fill("Amazing.Grace");
      await profile.getByText(u.available).waitFor();
      await profile.getByRole("button", { name: en.account.profile.save }).click();
      await profile.getByText(en.account.profile.saved).waitFor();
      await screenshotBothSizes(grace, "username-account-saved");
      await photograph(profile, "username-profile-card-saved");

      // The new name signs in; the old one is free again.
      await grace.getByRole("banner").getByRole("button", { name: en.nav.signOut }).click();
      await grace.waitForURL((url) => url.pathname === "/sign-in");
      await signIn(grace, "amazing.grace", GRACE.password);
      expect(await text(heading(grace))).toBe(`Welcome, ${GRACE.name}`);
      await taken.fill("Grace_H");
      await visitor.getByText(u.available).waitFor();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "fits the header of an administrator with an organization at desktop and phone widths",
    async () => {
      const margaret = { name: "Margaret Hamilton-Whitfield", email: "margaret-header@example.com", password: "apollo-guidance-1969" };
      const page = await newPage();
      await page.goto("/sign-up");
      await page.getByLabel(en.signUp.name, { exact: true }).fill(margaret.name);
      await page.getByLabel(en.signUp.email).fill(margaret.email);
      await page.getByLabel(en.signUp.password, { exact: true }).fill(margaret.password);
      await page.getByRole("button", { name: en.signUp.submit }).click();
      await page.waitForURL((url) => url.pathname === "/");

      // An administrator (as `gatehouse create-admin` would make one) with an active organization.
      const { users } = service.gatehouse.runtime.stores;
      const found = await users.findUserByEmail(margaret.email);
      await users.updateUser(found!.id, { role: "admin", updatedAt: new Date() });
      const created = await page.evaluate(async () => {
        const response = await fetch("/api/auth/organization/create", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: "Apollo Guidance Computer Laboratory", slug: "apollo-guidance" }),
        });
        return response.status;
      });
      expect(created).toBe(200);
      await page.goto("/account");
      await page.getByRole("link", { name: en.nav.admin }).waitFor();
      await page.getByRole("link", { name: en.organization.nav }).waitFor();
      await page.getByRole("button", { name: `${en.organization.switcher.label}: Apollo Guidance Computer Laboratory` }).waitFor();
      await photograph(page.getByRole("banner"), "header-organization", () => expectHeaderFits(page));
      await screenshotBothSizes(page, "header-organization-page");

      // German and Russian have some of the longest labels.
      await page.getByLabel(en.language.label).selectOption("de");
      await page.getByRole("link", { name: de.nav.account, exact: true }).waitFor();
      await photograph(page.getByRole("banner"), "header-organization-de", () => expectHeaderFits(page));
      await page.getByLabel(de.language.label).selectOption("ru");
      await page.getByRole("link", { name: ru.nav.account, exact: true }).waitFor();
      await photograph(page.getByRole("banner"), "header-organization-ru", () => expectHeaderFits(page));
      await page.getByLabel(ru.language.label).selectOption("en");
    },
    JOURNEY_TIMEOUT,
  );
});

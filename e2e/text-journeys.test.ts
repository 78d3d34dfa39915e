import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_PAGE_MESSAGES } from "../server/src/http/error-page-messages.js";
import { en } from "../web/src/i18n/en.js";
import { pl } from "../web/src/i18n/pl.js";
import { ru } from "../web/src/i18n/ru.js";
import { signUpWithSession } from "./helpers/api.js";
import { launchBrowser, VIEWPORTS } from "./helpers/browser.js";
import { look, photograph, signIn, titleIs } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";

/**
 * Issue #14, "Text": what a Polish or Russian visitor reads where English used to leak through. A banned user's
 * refusal, the service's own /api/auth/error page, the connected-accounts card of a service without social
 * providers (users: no card; administrators: a note), and the header's organization switcher beside the language
 * switcher. Each page is photographed at 1280 and 390 px into e2e/artifacts/ and checked with axe-core.
 */

const JOURNEY_TIMEOUT = 90_000;
const PASSWORD = "lantern-harbour-1907";
const ORGANIZATION = "Apollo Guidance Computer Laboratory";

let service: RunningService;
let browser: Browser;
const contexts: { close(): Promise<void> }[] = [];

/** A page in a browser whose language is `locale` (navigator.language and Accept-Language), at desktop size. */
async function pageIn(locale: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: service.url, viewport: VIEWPORTS.desktop, locale });
  contexts.push(context);
  return context.newPage();
}

async function makeUser(name: string, email: string, role?: string) {
  const session = await signUpWithSession(service.url, { name, email, password: PASSWORD });
  if (role) await service.gatehouse.runtime.stores.users.updateUser(session.userId, { role, updatedAt: new Date() });
  return session;
}

const box = (locator: Locator) =>
  locator.evaluate((element) => {
    const { top, bottom, left, right, height } = element.getBoundingClientRect();
    return { top, bottom, left, right, height };
  });

/** The look of a switcher's visible box: what the two switchers must share. */
const lookOf = (locator: Locator) =>
  locator.evaluate((element) => {
    const style = getComputedStyle(element);
    return {
      borderColor: style.borderTopColor,
      borderWidth: style.borderTopWidth,
      borderRadius: style.borderTopLeftRadius,
      background: style.backgroundColor,
      color: style.color,
      fontFamily: style.fontFamily,
      fontSize: style.fontSize,
      fontWeight: style.fontWeight,
      minHeight: style.minHeight,
    };
  });

beforeAll(async () => {
  [service, browser] = await Promise.all([startService(), launchBrowser()]);
});

afterAll(async () => {
  await Promise.allSettled(contexts.map((context) => context.close()));
  await browser?.close();
  await service?.close();
});

describe("#14 Text journeys", () => {
  it(
    "#14 Text: a banned user is told in Polish (and in English), not in the service's English default",
    async () => {
      const banned = await makeUser("Zofia Banowana", "zofia-banned@example.com");
      await service.gatehouse.runtime.stores.users.updateUser(banned.userId, {
        banned: true,
        banReason: "spam",
        updatedAt: new Date(),
      });

      const polish = await pageIn("pl-PL");
      await signIn(polish, "zofia-banned@example.com", PASSWORD, { messages: pl, wait: false });
      const alert = polish.getByRole("alert").filter({ hasText: pl.serverErrors.BANNED_USER });
      await alert.waitFor();
      await expect.poll(() => polish.getByText("You have been banned", { exact: false }).count(), { timeout: 10_000 }).toBe(0);
      expect(new URL(polish.url()).pathname).toBe("/sign-in");
      await look(polish, "sign-in-banned-pl");

      const english = await pageIn("en-GB");
      await signIn(english, "zofia-banned@example.com", PASSWORD, { messages: en, wait: false });
      await english.getByRole("alert").filter({ hasText: en.serverErrors.BANNED_USER }).waitFor();
      await look(english, "sign-in-banned-en");
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "#14 Text: a ban message the operator wrote is shown as written, in Polish too",
    async () => {
      const own = "Konto zablokowane przez operatora. Napisz do: pomoc@example.com";
      const custom = await startService({ options: { admin: { bannedUserMessage: own } } });
      try {
        const response = await fetch(`${custom.url}/api/auth/sign-up/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: custom.url },
          body: JSON.stringify({ name: "Piotr", email: "piotr-banned@example.com", password: PASSWORD }),
        });
        const { user } = (await response.json()) as { user: { id: string } };
        await custom.gatehouse.runtime.stores.users.updateUser(user.id, { banned: true, updatedAt: new Date() });
        const context = await browser.newContext({ baseURL: custom.url, viewport: VIEWPORTS.desktop, locale: "pl-PL" });
        contexts.push(context);
        const page = await context.newPage();
        await signIn(page, "piotr-banned@example.com", PASSWORD, { messages: pl, wait: false });
        await page.getByRole("alert").filter({ hasText: own }).waitFor();
        await expect.poll(() => page.getByText(pl.serverErrors.BANNED_USER).count(), { timeout: 10_000 }).toBe(0);
        await context.close();
      } finally {
        await custom.close();
      }
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "#14 Text: the service's /api/auth/error page is in the browser's language, says what the code means and marks lang",
    async () => {
      for (const [locale, language] of [
        ["pl-PL", "pl"],
        ["en-US", "en"],
      ] as const) {
        const page = await pageIn(locale);
        await page.goto("/api/auth/error?error=state_not_found");
        const messages = ERROR_PAGE_MESSAGES[language];
        expect(await page.locator("html").getAttribute("lang")).toBe(language);
        await titleIs(page, messages.title);
        await page.getByRole("heading", { level: 1, name: messages.title }).waitFor();
        await page.getByText(messages.codes.state_not_found).waitFor();
        await page.getByText(`${messages.codeLabel}:`).waitFor();
        await page.getByRole("link", { name: messages.back }).waitFor();
        await look(page, `auth-error-page-${language}`);
      }
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "#14 Text: without social providers a user sees no connected-accounts card; an administrator sees it say social sign-in is not set up",
    async () => {
      await makeUser("Jan Kowalski", "jan-user@example.com");
      await makeUser("Rita Administratorka", "rita-admin@example.com", "admin");

      for (const [locale, t, suffix] of [
        ["pl-PL", pl, "-pl"],
        ["en-US", en, ""],
      ] as const) {
        const user = await pageIn(locale);
        await signIn(user, "jan-user@example.com", PASSWORD, { messages: t, wait: false });
        await user.waitForURL((url) => url.pathname === "/");
        await user.goto("/account");
        // The cards after it are there, so the page has settled; the connected-accounts card is not.
        await user.getByRole("heading", { name: t.account.sessions.heading }).waitFor();
        await user.getByRole("heading", { name: t.account.password.heading, exact: true }).waitFor();
        await user.waitForTimeout(300);
        await expect.poll(() => user.getByRole("heading", { name: t.account.linked.heading }).count(), { timeout: 10_000 }).toBe(0);
        await expect.poll(() => user.getByText(t.account.linked.notSetUpTitle).count(), { timeout: 10_000 }).toBe(0);
        await look(user, `account-no-social-user${suffix}`);

        const admin = await pageIn(locale);
        await signIn(admin, "rita-admin@example.com", PASSWORD, { messages: t, wait: false });
        await admin.waitForURL((url) => url.pathname === "/");
        await admin.goto("/account#connected-accounts");
        const card = admin.getByRole("region", { name: t.account.linked.heading });
        await card.getByText(t.account.linked.notSetUpTitle).waitFor();
        await card.getByText(t.account.linked.notSetUp).waitFor();
        // The password is still listed: the note explains why there is nothing else.
        await card.getByRole("list", { name: t.account.linked.listLabel }).getByText(t.account.linked.password, { exact: true }).waitFor();
        await expect.poll(() => card.getByRole("heading", { name: t.account.linked.connectHeading }).count(), { timeout: 10_000 }).toBe(0);
        await look(admin, `account-no-social-admin${suffix}`);
      }
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "#14 Text: the organization switcher looks like the language switcher and shows a long name whole, at 1280 and 390 px",
    async () => {
      const owner = await makeUser("Margaret Hamilton-Whitfield", "margaret-text@example.com", "admin");
      const created = await owner.call<{ id: string }>("/organization/create", { name: ORGANIZATION, slug: "apollo-guidance-text" });

      for (const [locale, t, suffix] of [
        ["ru-RU", ru, "-ru"],
        ["pl-PL", pl, "-pl"],
        ["en-US", en, ""],
      ] as const) {
        const page = await pageIn(locale);
        await signIn(page, "margaret-text@example.com", PASSWORD, { messages: t, wait: false });
        await page.waitForURL((url) => url.pathname === "/");
        // This browser's session makes the organization active, as the switcher would.
        const status = await page.evaluate(async (organizationId) => {
          const response = await fetch("/api/auth/organization/set-active", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ organizationId }),
          });
          return response.status;
        }, created.id);
        expect(status).toBe(200);
        await page.goto("/account");
        const header = page.getByRole("banner");
        const organization = header.getByRole("button", { name: `${t.organization.switcher.label}: ${ORGANIZATION}` });
        await organization.waitFor();
        const language = header.locator("div:has(> select)");
        const name = organization.getByText(ORGANIZATION, { exact: true });

        await photograph(page.getByRole("banner"), `header-switchers${suffix}`, async () => {
          const width = page.viewportSize()!.width;
          // The same box: border, radius, background, text, height.
          expect(await lookOf(organization), `${locale} ${width}`).toEqual(await lookOf(language));
          const [org, lang] = [await box(organization), await box(language)];
          expect(org.height, `${locale} ${width}: height`).toBeGreaterThanOrEqual(lang.height - 0.5);
          // Side by side on one line, or (a phone, a long name) on a line of its own below: never overlapping.
          const sideBySide = org.right <= lang.left && Math.abs((org.top + org.bottom) / 2 - (lang.top + lang.bottom) / 2) < 1;
          expect(sideBySide || org.top >= lang.bottom, `${locale} ${width}: placed ${JSON.stringify({ org, lang })}`).toBe(true);
          if (width >= 1280) expect(sideBySide, `${locale} ${width}: one line`).toBe(true);
          // The whole name is drawn: nothing cut off at the side or below.
          const cut = await name.evaluate((element) => element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1);
          expect(cut, `${locale} ${width}: name cut`).toBe(false);
          expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
        });
        await look(page, `header-switchers-page${suffix}`);

        // The panel opens from it as before.
        await organization.click();
        await header.getByRole("link", { name: t.organization.switcher.create, exact: false }).waitFor();
        await page.keyboard.press("Escape");
      }
    },
    JOURNEY_TIMEOUT,
  );
});

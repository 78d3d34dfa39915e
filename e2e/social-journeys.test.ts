import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSmtp, type TestSmtp } from "../server/test/helpers/smtp.js";
import {
  startTestIdentityProvider,
  type IdentityAccount,
  type TestIdentityProvider,
} from "../server/test/helpers/test-identity-provider.js";
import { en } from "../web/src/i18n/en.js";
import { launchBrowser, pageOpener, screenshotBothSizes } from "./helpers/browser.js";
import { fill, headingIs, linkTo, openAccount, signUpByApi, text } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";

/**
 * Social sign-in in a real browser: the service is configured with a generic OpenID Connect provider ("Acme
 * ID") that is a real OpenID provider (oidc-provider) on 127.0.0.1, so every redirect of the flow happens in
 * Chromium. The provider signs in as whoever the test names, without a login form.
 */

const PASSWORD = "correct-horse-battery";
const PROVIDER = { id: "acme", name: "Acme ID", clientId: "acme-e2e", clientSecret: "acme-e2e-secret" };
const JOURNEY_TIMEOUT = 90_000;

let idp: TestIdentityProvider;
let smtp: TestSmtp;
let service: RunningService;
let browser: Browser;
const { newPage, closeAll } = pageOpener(
  () => browser,
  () => service.url,
);

let counter = 0;
/** A person known to the provider, who is the one signing in there next. */
function providerPerson(name: string, overrides: Partial<IdentityAccount> = {}): IdentityAccount {
  counter += 1;
  const account: IdentityAccount = {
    sub: `acme-${counter}-${Math.random().toString(36).slice(2, 8)}`,
    email: `${name.toLowerCase().split(" ")[0]}-social-${counter}@example.com`,
    email_verified: true,
    name,
    ...overrides,
  };
  idp.addAccount(account);
  idp.loginAs(account.sub);
  return account;
}

const connectedList = (page: Page) => page.getByRole("list", { name: en.account.linked.listLabel });
const connectedCard = (page: Page) => page.getByRole("region", { name: en.account.linked.heading });

/** The names shown in the connected-accounts list, in order. */
async function connectedNames(page: Page): Promise<string[]> {
  const rows = connectedList(page).getByRole("listitem");
  // After a navigation the accounts arrive a moment after the page: wait for the first row.
  await rows.first().waitFor();
  const names: string[] = [];
  for (const row of await rows.all()) names.push(await text(row.locator("p").first()));
  return names;
}

beforeAll(async () => {
  [idp, smtp, browser] = await Promise.all([startTestIdentityProvider(), startTestSmtp(), launchBrowser()]);
  service = await startService({
    smtpUrl: smtp.url,
    options: {
      socialProviders: {
        oidc: [{ id: PROVIDER.id, name: PROVIDER.name, issuer: idp.issuer, clientId: PROVIDER.clientId, clientSecret: PROVIDER.clientSecret }],
      },
    },
  });
  idp.start([
    {
      client_id: PROVIDER.clientId,
      client_secret: PROVIDER.clientSecret,
      redirect_uris: [`${service.url}/api/auth/callback/${PROVIDER.id}`],
      token_endpoint_auth_method: "client_secret_basic",
    },
  ]);
});

afterAll(async () => {
  await closeAll();
  await browser?.close();
  await service?.close();
  await Promise.allSettled([idp?.close(), smtp?.close()]);
});

describe("social sign-in journeys", () => {
  it(
    "signs in with the OpenID provider, sees the connected account, sets a password by mail and disconnects the provider",
    async () => {
      const page = await newPage();
      const oscar = providerPerson("Oscar Wilde");

      await page.goto("/sign-in");
      const continueWith = page.getByRole("button", { name: fill(en.social.continueWith, { provider: PROVIDER.name }) });
      await continueWith.waitFor();
      await screenshotBothSizes(page, "sign-in-social");
      await continueWith.click();
      // Out to the provider and back through the service's callback, landing on the app's home page.
      await page.waitForURL((url) => url.origin === service.url && url.pathname === "/");
      await page.getByText(oscar.email).first().waitFor();

      await openAccount(page);
      expect(await connectedNames(page)).toEqual([PROVIDER.name]);
      // The only way in: no button to disconnect it, and the rule said in words.
      await connectedCard(page).getByText(en.account.linked.onlyWayIn).waitFor();
      await expect.poll(() => connectedCard(page).getByRole("button", { name: /Disconnect/ }).count(), { timeout: 10_000 }).toBe(0);
      // No password yet: the password card offers to set one by mail instead of asking for the current one.
      await expect.poll(() => page.getByLabel(en.account.password.current).count(), { timeout: 10_000 }).toBe(0);
      await screenshotBothSizes(page, "account-connected-social-only");

      await page.getByRole("button", { name: en.account.setPassword.send }).click();
      await page.getByRole("status").filter({ hasText: fill(en.account.setPassword.sent, { email: oscar.email }) }).waitFor();
      const mail = await smtp.waitFor(oscar.email, (m) => m.links.some((l) => l.includes("/reset-password/")));
      await page.goto(linkTo(mail, "/api/auth/reset-password/"));
      await headingIs(page, en.resetPassword.heading);
      await page.getByLabel(en.resetPassword.newPassword, { exact: true }).fill(PASSWORD);
      await page.getByLabel(en.resetPassword.confirmPassword).fill(PASSWORD);
      await page.getByRole("button", { name: en.resetPassword.submit }).click();
      await headingIs(page, en.resetPassword.doneHeading);

      // A reset ends every session of the account (revokeSessionsOnPasswordReset is on by default), this one too:
      // Oscar signs in again, with the password he just chose.
      await page.goto("/account");
      await page.waitForURL((url) => url.pathname === "/sign-in");
      await page.getByLabel(en.signIn.email).fill(oscar.email);
      await page.getByLabel(en.signIn.password, { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: en.signIn.submit, exact: true }).click();
      await page.waitForURL((url) => url.pathname !== "/sign-in");

      await openAccount(page);
      expect(await connectedNames(page)).toEqual([en.account.linked.password, PROVIDER.name]);
      await page.getByLabel(en.account.password.current).waitFor();
      await screenshotBothSizes(page, "account-connected-two");
      await connectedCard(page)
        .getByRole("button", { name: fill(en.account.linked.disconnectLabel, { provider: PROVIDER.name }) })
        .click();
      await connectedCard(page).getByText(fill(en.account.linked.disconnected, { provider: PROVIDER.name })).waitFor();
      expect(await connectedNames(page)).toEqual([en.account.linked.password]);

      // The password set by mail is now how Oscar signs in; the provider no longer signs in to this account.
      const fresh = await newPage();
      await fresh.goto("/sign-in");
      await fresh.getByLabel(en.signIn.email).fill(oscar.email);
      await fresh.getByLabel(en.signIn.password, { exact: true }).fill(PASSWORD);
      await fresh.getByRole("button", { name: en.signIn.submit, exact: true }).click();
      await fresh.waitForURL((url) => url.pathname === "/");
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "connects the provider to a password account, and shows why a connection was refused",
    async () => {
      const page = await newPage();
      const user = { name: "Ada Lovelace", email: `ada-social-${Date.now()}@example.com`, password: PASSWORD };
      await signUpByApi(service.url, user);
      await page.goto("/sign-in");
      await page.getByLabel(en.signIn.email).fill(user.email);
      await page.getByLabel(en.signIn.password, { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: en.signIn.submit, exact: true }).click();
      await page.waitForURL((url) => url.pathname === "/");

      // A provider account under another email address is refused, and the reason comes back to the page.
      providerPerson("Ada Elsewhere");
      await openAccount(page);
      expect(await connectedNames(page)).toEqual([en.account.linked.password]);
      const connect = page.getByRole("button", { name: fill(en.account.linked.connect, { provider: PROVIDER.name }) });
      await connect.click();
      await page.waitForURL((url) => url.pathname === "/account" && url.searchParams.get("error") === "email_does_not_match");
      await connectedCard(page).getByText(en.errorPage.codes.email_does_not_match).waitFor();
      expect(await connectedNames(page)).toEqual([en.account.linked.password]);
      await screenshotBothSizes(page, "account-connect-refused");

      // The same person at the provider, under this account's address: connected. (Signed out at the provider
      // first, or it would answer at once for the person still signed in there.)
      await page.context().clearCookies({ name: /^_session/ });
      providerPerson("Ada Lovelace", { email: user.email });
      await page.getByRole("button", { name: fill(en.account.linked.connect, { provider: PROVIDER.name }) }).click();
      await page.waitForURL((url) => url.pathname === "/account" && url.searchParams.get("linked") === PROVIDER.id);
      await connectedCard(page).getByText(fill(en.account.linked.connected, { provider: PROVIDER.name })).waitFor();
      await connectedList(page).waitFor();
      expect(await connectedNames(page)).toEqual([en.account.linked.password, PROVIDER.name]);
      await screenshotBothSizes(page, "account-connected-linked");
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "comes back to the sign-in page with the reason when the visitor cancels at the provider",
    async () => {
      const page = await newPage();
      providerPerson("Cancelling Visitor");
      idp.denyNext();
      await page.goto("/sign-in");
      await page.getByRole("button", { name: fill(en.social.continueWith, { provider: PROVIDER.name }) }).click();
      await page.waitForURL((url) => url.pathname === "/sign-in" && url.searchParams.get("error") === "access_denied");
      const alert = page.getByRole("alert").filter({ hasText: en.social.failedTitle });
      expect(await text(alert)).toContain(en.errorPage.codes.access_denied);
      await screenshotBothSizes(page, "sign-in-social-cancelled");
    },
    JOURNEY_TIMEOUT,
  );
});

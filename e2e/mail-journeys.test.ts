import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSmtp, type TestSmtp } from "../server/test/helpers/smtp.js";
import { de } from "../web/src/i18n/de.js";
import { en } from "../web/src/i18n/en.js";
import { ru } from "../web/src/i18n/ru.js";
import { launchBrowser, pageOpener, screenshotBothSizes } from "./helpers/browser.js";
import { description, heading, headingIs, isFocused, linkTo, openAccount, person, signIn, signUp, signUpByApi, text, titleIs, withLink } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";

/**
 * Journeys that go through mail: the service sends to a real SMTP server started here, and each mailed link
 * is opened in the browser. Verification, password reset and change, email change, account deletion, the
 * language switcher (whose choice the service also writes mail in), and, on a second service without SMTP,
 * the development outbox. New pages are photographed at desktop and phone sizes into e2e/artifacts/.
 */

const PASSWORD = "correct-horse-battery";
/** A slow machine can take a while over password hashing and mail; these journeys have many steps. */
const JOURNEY_TIMEOUT = 90_000;

let smtp: TestSmtp;
/** The service under test, mailing through `smtp`. */
let service: RunningService;
/** A second service, as in development: no mail server (so an outbox), and verification required to sign in. */
let devService: RunningService;
let browser: Browser;
const { newPage, closeAll } = pageOpener(
  () => browser,
  () => service.url,
);


const banner = (page: Page) => page.getByRole("region", { name: en.verifyBanner.title });

beforeAll(async () => {
  smtp = await startTestSmtp();
  [service, devService, browser] = await Promise.all([
    startService({ smtpUrl: smtp.url }),
    startService({ options: { emailAndPassword: { requireEmailVerification: true } } }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await closeAll();
  await browser?.close();
  await Promise.allSettled([service?.close(), devService?.close()]);
  await smtp?.close();
});

describe("mailed journeys", () => {
  const grace = person("Grace Hopper", PASSWORD);

  it(
    "signs up, asks for a new link from the banner, and verifies the address from the mail",
    async () => {
      const page = await newPage();
      await signUp(page, grace);
      await banner(page).waitFor();
      expect(await text(banner(page))).toContain(grace.email);
      await smtp.waitFor(grace.email, withLink("/api/auth/verify-email"));

      await banner(page).getByRole("button", { name: en.verifyBanner.resend }).click();
      await banner(page).getByRole("status").filter({ hasText: en.verifyBanner.resent.replace("{{email}}", grace.email) }).waitFor();
      await screenshotBothSizes(page, "home-unverified");
      const mail = await smtp.waitFor(grace.email, withLink("/api/auth/verify-email"));
      expect(mail.subject).toBe("Verify your email address");

      await page.goto(linkTo(mail, "/api/auth/verify-email"));
      await page.waitForURL((url) => url.pathname === "/verify-email" && url.search === "?verified=true");
      await headingIs(page, en.verifyEmail.verifiedHeading);
      await screenshotBothSizes(page, "verify-email");

      await page.getByRole("link", { name: en.verifyEmail.continue }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await heading(page).waitFor();
      await expect.poll(() => banner(page).count(), { timeout: 10_000 }).toBe(0);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "offers a new link from an expired or invalid one, asking a signed-out visitor for the address",
    async () => {
      const pending = person("Pending Person", PASSWORD);
      await signUpByApi(service.url, pending);
      await smtp.waitFor(pending.email, withLink("/api/auth/verify-email"));

      const page = await newPage();
      await page.goto("/verify-email?error=token_expired");
      await headingIs(page, en.verifyEmail.expiredHeading);
      await screenshotBothSizes(page, "verify-email-expired");
      await page.getByLabel(en.verifyEmail.email).fill(pending.email);
      await page.getByRole("button", { name: en.verifyEmail.resend }).click();
      await page.getByRole("status").filter({ hasText: en.verifyEmail.resent.replace("{{email}}", pending.email) }).waitFor();
      const mail = await smtp.waitFor(pending.email, withLink("/api/auth/verify-email"));

      await page.goto("/verify-email?error=invalid_token");
      await headingIs(page, en.verifyEmail.invalidHeading);
      await screenshotBothSizes(page, "verify-email-invalid");

      // The new link works. Opened in a browser that did not sign up (it could be the real owner's, proving an
      // address someone else registered), it also removed the password set before: the page says how to choose one.
      await page.goto(linkTo(mail, "/api/auth/verify-email"));
      await headingIs(page, en.verifyEmail.verifiedHeading);
      await page.getByRole("status").filter({ hasText: en.verifyEmail.passwordRemovedTitle }).waitFor();
      expect(await page.getByRole("link", { name: en.verifyEmail.choosePassword }).getAttribute("href")).toBe("/forgot-password");
      await expect.poll(() => page.getByRole("link", { name: en.common.signIn }).count(), { timeout: 10_000 }).toBe(1);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "resets a forgotten password from the mailed link and signs in with the new one",
    async () => {
      const heidi = person("Heidi Lamarr", PASSWORD);
      await signUpByApi(service.url, heidi);
      const page = await newPage();

      await page.goto("/sign-in");
      await page.getByLabel(en.signIn.email).fill(heidi.email);
      await page.getByRole("link", { name: en.signIn.forgotPassword }).click();
      await page.waitForURL((url) => url.pathname === "/forgot-password");
      expect(await page.getByLabel(en.forgotPassword.email).inputValue()).toBe(heidi.email);
      await screenshotBothSizes(page, "forgot-password");
      await page.getByRole("button", { name: en.forgotPassword.submit }).click();
      await headingIs(page, en.forgotPassword.sentHeading);
      expect(await text(page.getByText(en.forgotPassword.sent.replace("{{email}}", heidi.email)))).toBeTruthy();
      await screenshotBothSizes(page, "forgot-password-sent");

      const resetLink = linkTo(await smtp.waitFor(heidi.email, withLink("/api/auth/reset-password/")), "/api/auth/reset-password/");
      await page.goto(resetLink);
      await page.waitForURL((url) => url.pathname === "/reset-password" && url.searchParams.has("token"));
      await headingIs(page, en.resetPassword.heading);
      await screenshotBothSizes(page, "reset-password");

      const newPassword = "a-much-better-password";
      await page.getByLabel(en.resetPassword.newPassword, { exact: true }).fill(newPassword);
      const confirm = page.getByLabel(en.resetPassword.confirmPassword);
      await confirm.fill("something else");
      await page.getByRole("button", { name: en.resetPassword.submit }).click();
      await page.locator('input[aria-invalid="true"]').waitFor();
      expect(await description(confirm)).toContain(en.validation.passwordsDontMatch);
      expect(await isFocused(page, confirm)).toBe(true);
      await confirm.fill(newPassword);
      await page.getByRole("button", { name: en.resetPassword.submit }).click();
      await headingIs(page, en.resetPassword.doneHeading);
      await screenshotBothSizes(page, "reset-password-done");

      // The link works once: the service now sends it to the "invalid link" state.
      await page.goto(resetLink);
      await page.waitForURL((url) => url.searchParams.get("error") === "INVALID_TOKEN");
      await headingIs(page, en.resetPassword.invalidHeading);
      expect(await page.getByRole("link", { name: en.resetPassword.requestNew }).getAttribute("href")).toBe("/forgot-password");
      await screenshotBothSizes(page, "reset-password-invalid");

      await page.goto("/sign-in");
      await page.getByLabel(en.signIn.email).fill(heidi.email);
      await page.getByLabel(en.signIn.password, { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: en.signIn.submit, exact: true }).click();
      expect(await text(page.getByRole("alert"))).toBe(en.serverErrors.INVALID_EMAIL_OR_PASSWORD);
      await signIn(page, heidi.email, newPassword);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "changes the password on the account page, refusing a wrong current one",
    async () => {
      const ivan = person("Ivan Sutherland", PASSWORD);
      await signUpByApi(service.url, ivan);
      const page = await newPage();
      await signIn(page, ivan.email, ivan.password);
      await openAccount(page);

      const card = page.getByRole("region", { name: en.account.password.heading, exact: true });
      const current = card.getByLabel(en.account.password.current);
      await current.fill("not-my-password");
      await card.getByLabel(en.account.password.new, { exact: true }).fill("brand-new-password");
      await card.getByLabel(en.account.password.confirm).fill("brand-new-password");
      await card.getByRole("button", { name: en.account.password.submit }).click();
      await card.locator('input[aria-invalid="true"]').waitFor();
      expect(await description(current)).toContain(en.account.password.wrongCurrent);
      expect(await isFocused(page, current)).toBe(true);
      await screenshotBothSizes(page, "account-password-error");

      await current.fill(ivan.password);
      await card.getByRole("button", { name: en.account.password.submit }).click();
      await card.getByRole("status").filter({ hasText: en.account.password.changedAndSignedOut }).waitFor();
      // This device kept a (new) session. Signing out from the account page says so on the sign-in page
      // (RequireSession must not redirect first), and the new password signs in, to the home page.
      await page.getByRole("button", { name: en.nav.signOut }).first().click();
      await page.waitForURL((url) => url.pathname === "/sign-in");
      await page.getByRole("status").filter({ hasText: en.signIn.signedOut }).waitFor();
      await page.getByLabel(en.signIn.email).fill(ivan.email);
      await page.getByLabel(en.signIn.password, { exact: true }).fill("brand-new-password");
      await page.getByRole("button", { name: en.signIn.submit, exact: true }).click();
      await page.waitForURL((url) => url.pathname === "/");
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "changes an unverified address at once and mails the new one a verification link",
    async () => {
      const judy = person("Judy Clapp", PASSWORD);
      const page = await newPage();
      await signUp(page, judy);
      await openAccount(page);
      const card = page.getByRole("region", { name: en.account.email.heading, exact: true });
      expect(await text(card)).toContain(en.account.email.howUnverified);

      const newEmail = judy.email.replace("judy-", "judy-new-");
      await card.getByLabel(en.account.email.newEmail).fill(newEmail);
      await card.getByRole("button", { name: en.account.email.submit }).click();
      await card.getByText(en.account.email.changed.replace("{{email}}", newEmail)).waitFor();
      // The session store re-read the user: the card and the banner show the new address.
      await banner(page).getByText(newEmail).waitFor();
      expect(await text(card)).toContain(newEmail);
      await screenshotBothSizes(page, "account-email-changed");
      await smtp.waitFor(newEmail, withLink("/api/auth/verify-email"));
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "changes a verified address after confirming from the current inbox, then verifies the new one",
    async () => {
      const page = await newPage();
      await signIn(page, grace.email, grace.password);
      await openAccount(page);
      const card = page.getByRole("region", { name: en.account.email.heading, exact: true });
      expect(await text(card)).toContain(en.account.email.howVerified.replace("{{email}}", grace.email));

      const newEmail = grace.email.replace("grace-", "grace-new-");
      await card.getByLabel(en.account.email.newEmail).fill(newEmail);
      await card.getByRole("button", { name: en.account.email.submit }).click();
      await card
        .getByText(en.account.email.confirmSent.replace("{{current}}", grace.email).replace("{{email}}", newEmail))
        .waitFor();
      await screenshotBothSizes(page, "account-email-confirm-sent");

      // Nothing changed yet; the confirmation goes to the current address.
      const confirmation = await smtp.waitFor(grace.email, withLink("/api/auth/verify-email"));
      await page.goto(linkTo(confirmation, "/api/auth/verify-email"));
      await page.waitForURL((url) => url.pathname === "/account" && url.searchParams.get("emailChanged") === "1");
      await page.getByRole("status").filter({ hasText: en.account.emailChanged.pendingTitle }).waitFor();
      expect(await text(card)).toContain(newEmail);
      await banner(page).waitFor();
      await screenshotBothSizes(page, "account-email-confirmed");

      const verification = await smtp.waitFor(newEmail, withLink("/api/auth/verify-email"));
      await page.goto(linkTo(verification, "/api/auth/verify-email"));
      await page.waitForURL((url) => url.pathname === "/account" && url.searchParams.get("emailChanged") === "1");
      await page.getByRole("status").filter({ hasText: en.account.emailChanged.verifiedTitle }).waitFor();
      await expect.poll(() => banner(page).count(), { timeout: 10_000 }).toBe(0);
      grace.email = newEmail;
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "deletes the account from the link mailed to confirm it, and the account is gone",
    async () => {
      const karl = person("Karl Zuse", PASSWORD);
      const page = await newPage();
      await signUp(page, karl);
      await openAccount(page);
      const card = page.getByRole("region", { name: en.account.delete.heading, exact: true });
      await card.getByRole("button", { name: en.account.delete.start }).click();
      await card.getByText(en.account.delete.warningTitle).waitFor();
      await screenshotBothSizes(page, "account-delete-confirm");

      // A wrong password is refused beside its field, and nothing is deleted.
      const password = card.getByLabel(en.account.delete.password, { exact: true });
      await password.fill("not-the-password");
      await card.getByRole("button", { name: en.account.delete.submitPassword }).click();
      await card.locator('input[aria-invalid="true"]').waitFor();
      expect(await description(password)).toContain(en.account.delete.wrongPassword);

      await card.getByLabel(en.account.delete.withEmail).check();
      await card.getByRole("button", { name: en.account.delete.submitEmail }).click();
      await card.getByText(en.account.delete.emailSent.replace("{{email}}", karl.email)).waitFor();
      await screenshotBothSizes(page, "account-delete-sent");

      const mail = await smtp.waitFor(karl.email, withLink("/api/auth/delete-user/callback"));
      await page.goto(linkTo(mail, "/api/auth/delete-user/callback"));
      await page.waitForURL((url) => url.pathname === "/account-deleted" && url.search === "?deleted=true");
      await headingIs(page, en.accountDeleted.heading);
      await screenshotBothSizes(page, "account-deleted");

      await page.goto("/sign-in");
      await page.getByLabel(en.signIn.email).fill(karl.email);
      await page.getByLabel(en.signIn.password, { exact: true }).fill(karl.password);
      await page.getByRole("button", { name: en.signIn.submit, exact: true }).click();
      expect(await text(page.getByRole("alert"))).toBe(en.serverErrors.INVALID_EMAIL_OR_PASSWORD);

      // The same link again: nothing to delete, and the page says so.
      await page.goto(linkTo(mail, "/api/auth/delete-user/callback"));
      await page.waitForURL((url) => url.pathname === "/account-deleted" && url.searchParams.has("error"));
      await headingIs(page, en.accountDeleted.unauthorizedHeading);
      await screenshotBothSizes(page, "account-deleted-unauthorized");
      await page.goto("/account-deleted?error=invalid_token");
      await headingIs(page, en.accountDeleted.invalidHeading);
      await screenshotBothSizes(page, "account-deleted-invalid");
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "deletes the account at once with the password",
    async () => {
      const lin = person("Lin Ada", PASSWORD);
      const page = await newPage();
      await signUp(page, lin);
      await openAccount(page);
      const card = page.getByRole("region", { name: en.account.delete.heading, exact: true });
      await card.getByRole("button", { name: en.account.delete.start }).click();
      await card.getByLabel(en.account.delete.password, { exact: true }).fill(lin.password);
      await card.getByRole("button", { name: en.account.delete.submitPassword }).click();
      await page.waitForURL((url) => url.pathname === "/account-deleted");
      await headingIs(page, en.accountDeleted.heading);
      const answer = await page.request.get("/api/auth/get-session");
      expect(await answer.json()).toBeNull();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "switches to German, keeps it after a reload, and saves a signed-in user's choice for their mail",
    async () => {
      const page = await newPage();
      await page.goto("/sign-in");
      await headingIs(page, en.signIn.heading);
      await page.getByLabel(en.language.label).selectOption("de");
      await headingIs(page, de.signIn.heading);
      expect(await page.locator("html").getAttribute("lang")).toBe("de");
      await titleIs(page, `${de.signIn.title} · Gatehouse`);

      await page.reload();
      await headingIs(page, de.signIn.heading);
      expect(await page.locator("html").getAttribute("lang")).toBe("de");
      await screenshotBothSizes(page, "sign-in-de");

      const max = person("Max Mustermann", PASSWORD);
      await signUp(page, max, de);
      await headingIs(page, de.home.heading.replace("{{name}}", max.name));
      await screenshotBothSizes(page, "home-de");
      await page.goto("/account");
      await headingIs(page, de.account.heading);
      await screenshotBothSizes(page, "account-de");

      // Signed in, the choice is saved on the account too, and the service writes this user's mail in it.
      await page.getByLabel(de.language.label).selectOption("ru");
      await headingIs(page, ru.account.heading);
      await expect.poll(async () => (await (await page.request.get("/api/auth/get-session")).json())?.user?.lang).toBe("ru");
      await page.reload();
      await headingIs(page, ru.account.heading);
      expect(await page.locator("html").getAttribute("lang")).toBe("ru");
      await screenshotBothSizes(page, "account-ru");

      await smtp.waitFor(max.email, withLink("/api/auth/verify-email"));
      await page.getByRole("region", { name: ru.verifyBanner.title }).getByRole("button", { name: ru.verifyBanner.resend }).click();
      const mail = await smtp.waitFor(max.email, withLink("/api/auth/verify-email"));
      expect(mail.subject).not.toBe("Verify your email address");
      expect(mail.subject).toMatch(/[а-яё]/i);
    },
    JOURNEY_TIMEOUT,
  );

  it("has no development outbox with a real mail server", async () => {
    const page = await newPage();
    await page.goto("/dev/outbox");
    await headingIs(page, en.notFound.heading);
  });
});

describe("development without a mail server", () => {
  it(
    "explains a refused unverified sign-in, and the outbox page shows the mailed link that fixes it",
    async () => {
      const nia = person("Nia Dev", PASSWORD);
      const page = await newPage({ baseURL: devService.url });
      await page.goto("/sign-up");
      await page.getByLabel(en.signUp.name, { exact: true }).fill(nia.name);
      await page.getByLabel(en.signUp.email).fill(nia.email);
      await page.getByLabel(en.signUp.password, { exact: true }).fill(nia.password);
      await page.getByRole("button", { name: en.signUp.submit }).click();
      await page.getByText(en.signUp.checkEmailTitle).waitFor();

      await page.goto("/sign-in");
      await page.getByLabel(en.signIn.email).fill(nia.email);
      await page.getByLabel(en.signIn.password, { exact: true }).fill(nia.password);
      await page.getByRole("button", { name: en.signIn.submit, exact: true }).click();
      const notice = page.getByText(en.signIn.notVerified.replace("{{email}}", nia.email));
      await notice.waitFor();
      await screenshotBothSizes(page, "sign-in-not-verified");

      await page.goto("/dev/outbox");
      await headingIs(page, en.devOutbox.heading);
      const mails = page.getByRole("list", { name: en.devOutbox.listLabel }).getByRole("article");
      // The sign-up's link and the one the refused sign-in sent.
      await expect.poll(() => mails.filter({ hasText: nia.email }).count()).toBe(2);
      await screenshotBothSizes(page, "dev-outbox");

      await mails.first().getByRole("link").filter({ hasText: "/verify-email" }).first().click();
      await page.waitForURL((url) => url.pathname === "/verify-email");
      await headingIs(page, en.verifyEmail.verifiedHeading);
      await page.getByRole("link", { name: en.common.signIn }).click();
      await page.getByLabel(en.signIn.email).fill(nia.email);
      await page.getByLabel(en.signIn.password, { exact: true }).fill(nia.password);
      await page.getByRole("button", { name: en.signIn.submit, exact: true }).click();
      await page.waitForURL((url) => url.pathname === "/");
    },
    JOURNEY_TIMEOUT,
  );
});

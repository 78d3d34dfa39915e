import type { Browser, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { de } from "../web/src/i18n/de.js";
import { en } from "../web/src/i18n/en.js";
import { ru } from "../web/src/i18n/ru.js";
import { launchBrowser, pageOpener } from "./helpers/browser.js";
import { latestOutboxId, outboxCode, outboxLink } from "./helpers/outbox.js";
import { chooseLanguage, fill, headingIs, look, person, signIn, signUpByApi } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";
import { authenticatorApp, freshCode } from "./helpers/totp.js";

/**
 * Issue #15 in Chromium: passkeys with the browser's own virtual authenticator (the DevTools protocol's WebAuthn
 * domain: a platform authenticator that keeps discoverable credentials and verifies its user), an authenticator
 * app (codes computed here from the setup key the page shows), backup codes, a trusted browser, and sign-in by a
 * mailed link or code (read from the development outbox). Every new page is photographed at 1280 and 390 px and
 * checked with axe-core.
 */

const PASSWORD = "correct-horse-battery";
const JOURNEY_TIMEOUT = 120_000;

let service: RunningService;
let browser: Browser;
const { newPage, closeAll } = pageOpener(
  () => browser,
  () => service.url,
);

beforeAll(async () => {
  // On "localhost": WebAuthn takes no IP address as the relying party's id.
  [service, browser] = await Promise.all([startService({ host: "localhost" }), launchBrowser()]);
});

afterAll(async () => {
  await closeAll();
  await browser?.close();
  await service?.close();
});

/** Chromium's virtual authenticator on this page: a phone's or laptop's own, holding passkeys and checking a PIN. */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** The page's browser says it has no passkey autofill (conditional mediation), as some browsers do. */
async function withoutPasskeyAutofill(page: Page): Promise<void> {
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
  });
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: en.nav.signOut }).first().click();
  await page.waitForURL((url) => url.pathname === "/sign-in");
}

/** Marks an address proved, as its verification link would (storage: no journey here is about verification). */
async function markVerified(email: string): Promise<void> {
  const { users } = service.gatehouse.runtime.stores;
  const user = await users.findUserByEmail(email);
  await users.updateUser(user!.id, { emailVerified: true, updatedAt: new Date() });
}

/** Waits for the home page of a signed-in user. */
async function atHome(page: Page, name: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === "/");
  await headingIs(page, fill(en.home.heading, { name }));
}

describe("passkeys", () => {
  it(
    "adds a passkey on the security page, renames it, signs in with it by the button and through autofill, deletes it",
    async () => {
      const ada = person("Ada Passkey", PASSWORD, "-pk");
      await signUpByApi(service.url, ada);
      const page = await newPage();
      await withoutPasskeyAutofill(page);
      const { cdp, authenticatorId } = await virtualAuthenticator(page);
      await signIn(page, ada.email, ada.password);

      await page.goto("/account/security");
      await headingIs(page, en.security.heading);
      await page.getByText(en.security.passkeys.none).waitFor();
      await look(page, "security");

      await page.getByRole("button", { name: en.security.passkeys.add }).click();
      await page.getByText(en.security.passkeys.added).waitFor();
      const list = page.getByRole("list", { name: en.security.passkeys.listLabel });
      await expect.poll(() => list.getByRole("listitem").count()).toBe(1);
      const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
      expect(credentials).toHaveLength(1);
      expect(credentials[0]!.isResidentCredential).toBe(true);

      // Renamed in place.
      await list.getByRole("button", { name: en.security.passkeys.rename, exact: false }).click();
      await list.getByLabel(en.security.passkeys.name).fill("Work laptop");
      await list.getByRole("button", { name: en.security.passkeys.save }).click();
      await page.getByText(fill(en.security.passkeys.renamed, { name: "Work laptop" })).waitFor();
      await list.getByText("Work laptop", { exact: true }).waitFor();
      await look(page, "security-with-passkey");

      // Signed out, in again with the button, on a browser without passkey autofill (this page's autofill would
      // otherwise answer first: Chromium's virtual authenticator picks the suggestion by itself).
      await signOut(page);
      await page.getByRole("button", { name: en.passkeys.signIn }).click();
      await atHome(page, ada.name);

      // Signed out again: the sign-in page marks the passkey as the way in this browser used last.
      await signOut(page);
      const ways = page.getByRole("list", { name: en.emailSignIn.waysLabel });
      await ways.getByRole("listitem").filter({ has: page.getByRole("button", { name: en.passkeys.signIn }) }).getByText(en.signIn.lastUsed).waitFor();
      await look(page, "sign-in-ways");

      // The same passkey on another browser (synced, as passkeys are): its autofill suggestion signs in untouched
      // (the virtual authenticator picks it at once). The copy is taken now, with the signature counter as it is.
      const { credentials: now } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
      const other = await newPage();
      const synced = await virtualAuthenticator(other);
      await synced.cdp.send("WebAuthn.addCredential", { authenticatorId: synced.authenticatorId, credential: now[0]! });
      await other.goto("/sign-in");
      await atHome(other, ada.name);

      // A password session deleting a passkey it did not make: the dialog asks for the password (step-up).
      await signIn(page, ada.email, ada.password, { open: false });
      await page.goto("/account/security");
      await list.getByRole("button", { name: fill(en.security.passkeys.deleteLabel, { name: "Work laptop" }) }).click();
      const dialog = page.getByRole("dialog", { name: fill(en.security.passkeys.deleteTitle, { name: "Work laptop" }) });
      await dialog.getByRole("button", { name: en.security.passkeys.delete }).click();
      await dialog.getByText(en.security.passkeys.deletePassword).waitFor();
      await look(page, "security-delete-passkey");
      await dialog.getByLabel(en.security.password, { exact: true }).fill("not-the-password");
      await dialog.getByRole("button", { name: en.security.passkeys.delete }).click();
      await dialog.getByText(en.security.wrongPassword).waitFor();
      // Enter in the password field deletes, as the button does.
      await dialog.getByLabel(en.security.password, { exact: true }).fill(ada.password);
      await dialog.getByLabel(en.security.password, { exact: true }).press("Enter");
      await page.getByText(fill(en.security.passkeys.deleted, { name: "Work laptop" })).waitFor();
      await page.getByText(en.security.passkeys.none).waitFor();
    },
    JOURNEY_TIMEOUT,
  );
});



describe("two-step sign-in", () => {
  it(
    "turns on an authenticator app (QR code, setup key, first code), then signs in with a code, a backup code, a trusted browser and a mailed link; turns it off",
    async () => {
      const bea = person("Bea Twostep", PASSWORD, "-2fa");
      await signUpByApi(service.url, bea);
      // Her address is proved: a mailed link to an unproved one would rightly wipe what its holder set up (#15.6).
      await markVerified(bea.email);
      const page = await newPage();
      await signIn(page, bea.email, bea.password);

      // The account page leads to the security page.
      await page.goto("/account");
      await page.getByRole("link", { name: en.security.accountLink }).click();
      await headingIs(page, en.security.heading);
      const card = page.getByRole("region", { name: en.security.twoFactor.heading });
      await card.getByRole("button", { name: en.security.twoFactor.setUpApp }).click();
      await card.getByText(en.security.twoFactor.confirmLead).waitFor();
      await card.getByLabel(en.security.password, { exact: true }).fill("wrong-password-here");
      await card.getByRole("button", { name: en.security.twoFactor.confirm }).click();
      await card.getByText(en.security.wrongPassword).waitFor();
      await card.getByLabel(en.security.password, { exact: true }).fill(bea.password);
      await card.getByRole("button", { name: en.security.twoFactor.confirm }).click();

      // The QR code and the same secret as text.
      await card.getByRole("img", { name: en.security.twoFactor.qrLabel }).waitFor();
      const setupKey = (await card.locator("[data-secret]").getAttribute("data-secret")) ?? "";
      expect(setupKey).toMatch(/^[A-Z2-7]{32,}$/);
      expect((await card.locator("[data-secret]").textContent())?.replace(/\s/g, "")).toBe(setupKey);
      await look(page, "security-totp-scan");
      const app = authenticatorApp(setupKey);
      const used = new Set<number>();

      // A wrong code is refused beside the field; the app's code turns two-step sign-in on.
      await card.getByLabel(en.security.twoFactor.code).fill("000000" === app.generate() ? "111111" : "000000");
      await card.getByRole("button", { name: en.security.twoFactor.turnOn }).click();
      await card.getByText(en.serverErrors.INVALID_CODE).waitFor();
      await card.getByLabel(en.security.twoFactor.code).fill(await freshCode(app, used));
      await card.getByRole("button", { name: en.security.twoFactor.turnOn }).click();
      await card.getByText(en.security.twoFactor.enabled).waitFor();
      await card.getByText(en.security.on, { exact: true }).first().waitFor();

      // Backup codes, shown once: copied, downloaded as a text file, then put away.
      const codes = await card.getByRole("list", { name: en.security.backupCodes.listLabel }).getByRole("listitem").allTextContents();
      expect(codes).toHaveLength(10);
      await look(page, "security-backup-codes");
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        card.getByRole("button", { name: en.security.backupCodes.download }).click(),
      ]);
      const file = await download.path().then((path) => import("node:fs").then((fs) => fs.readFileSync(path, "utf8")));
      for (const code of codes) expect(file).toContain(code);
      await card.getByRole("button", { name: en.security.backupCodes.done }).click();
      await expect.poll(() => card.getByRole("list", { name: en.security.backupCodes.listLabel }).count()).toBe(0);
      await card.getByText(en.security.twoFactor.onText).waitFor();
      await card.getByText(fill(en.security.backupCodes.remaining, { count: 10 })).waitFor();
      const trustedHere = page.getByRole("region", { name: en.security.trusted.heading });
      await trustedHere.getByText(en.security.trusted.none).waitFor();
      await look(page, "security-two-factor-on");

      // Signed out, in again: the password leads to the second step; the next code of the app, with "trust this
      // device", opens the session.
      await signOut(page);
      await signIn(page, bea.email, bea.password, { open: false });
      await page.waitForURL((url) => url.pathname === "/two-factor");
      await headingIs(page, en.twoFactor.heading);
      await look(page, "two-factor");
      await page.getByLabel(en.twoFactor.code, { exact: true }).fill(await freshCode(app, used));
      await page.getByLabel(en.twoFactor.trustDevice).check();
      await page.getByRole("button", { name: en.twoFactor.verify }).click();
      await atHome(page, bea.name);

      // Another browser: a backup code, once.
      const other = await newPage();
      await signIn(other, bea.email, bea.password, { wait: false });
      await other.waitForURL((url) => url.pathname === "/two-factor");
      await other.getByRole("button", { name: en.twoFactor.useBackup }).click();
      await other.getByText(en.twoFactor.backupLead).waitFor();
      await look(other, "two-factor-backup-code");
      await other.getByLabel(en.twoFactor.backupCode).fill(codes[0]!);
      await other.getByRole("button", { name: en.twoFactor.verify }).click();
      await atHome(other, bea.name);

      // The trusted browser skips the second step.
      await signOut(page);
      await signIn(page, bea.email, bea.password, { open: false });
      await atHome(page, bea.name);
      await page.goto("/account/security");
      const here = page.getByRole("list", { name: en.security.trusted.listLabel });
      await here.getByRole("listitem").getByText(en.security.trusted.current).waitFor();

      // A mailed link is a first factor too: it leads to the second step.
      await signOut(other);
      await other.getByRole("link", { name: en.emailSignIn.linkButton }).click();
      await headingIs(other, en.emailSignIn.link.heading);
      await other.getByLabel(en.emailSignIn.email).fill(bea.email);
      await other.getByRole("button", { name: en.emailSignIn.link.submit }).click();
      await headingIs(other, en.emailSignIn.link.sentHeading);
      await other.goto(await outboxLink(service, bea.email, "/magic-link"));
      await headingIs(other, en.emailSignIn.landing.heading);
      await other.getByRole("button", { name: en.emailSignIn.landing.submit }).click();
      await other.waitForURL((url) => url.pathname === "/two-factor");
      // The service sent the browser here itself, naming her methods: a backup code is offered, a code by email
      // (not one of her factors) is not.
      expect(new URL(other.url()).searchParams.get("methods")).toBe("totp");
      await other.getByRole("button", { name: en.twoFactor.useBackup }).waitFor();
      expect(await other.getByRole("button", { name: en.twoFactor.useEmail }).count()).toBe(0);
      await other.getByLabel(en.twoFactor.code, { exact: true }).fill(await freshCode(app, used));
      await other.getByRole("button", { name: en.twoFactor.verify }).click();
      await atHome(other, bea.name);

      // The security page says what she holds (one backup code spent) and lists the trusted browser, which is not
      // this one; forgotten, that browser meets the second step again.
      await other.goto("/account/security");
      const otherCard = other.getByRole("region", { name: en.security.twoFactor.heading });
      await otherCard.getByText(fill(en.security.backupCodes.remaining, { count: 9 })).waitFor();
      const trusted = other.getByRole("list", { name: en.security.trusted.listLabel });
      await expect.poll(() => trusted.getByRole("listitem").count()).toBe(1);
      expect(await trusted.getByText(en.security.trusted.current).count()).toBe(0);
      await look(other, "security-trusted");
      await trusted.getByRole("button", { name: en.security.trusted.forget }).click();
      await other.getByText(en.security.trusted.none).waitFor();
      await signOut(page);
      await signIn(page, bea.email, bea.password, { open: false, wait: false });
      await page.waitForURL((url) => url.pathname === "/two-factor");

      // Turned off with the password: the next sign-in asks for the password only.
      await otherCard.getByRole("button", { name: en.security.twoFactor.turnOff }).click();
      await otherCard.getByLabel(en.security.password, { exact: true }).fill(bea.password);
      await otherCard.getByRole("button", { name: en.security.twoFactor.turnOff }).click();
      await otherCard.getByText(en.security.twoFactor.disabled).waitFor();
      await otherCard.getByText(en.security.off, { exact: true }).waitFor();
      await signOut(other);
      await signIn(other, bea.email, bea.password, { open: false });
      await atHome(other, bea.name);
    },
    JOURNEY_TIMEOUT,
  );
});

describe("codes by email as the second factor", () => {
  it(
    "turns on email codes (a first code proves the mailbox), then signs in by a mailed code and meets the second step",
    async () => {
      const cid = person("Cid Mailcode", PASSWORD, "-otp");
      await signUpByApi(service.url, cid);
      await markVerified(cid.email);
      const page = await newPage();
      await signIn(page, cid.email, cid.password);

      await page.goto("/account/security");
      const card = page.getByRole("region", { name: en.security.twoFactor.heading });
      await card.getByRole("button", { name: en.security.twoFactor.setUpEmail }).click();
      let last = latestOutboxId(service);
      await card.getByLabel(en.security.password, { exact: true }).fill(cid.password);
      await card.getByRole("button", { name: en.security.twoFactor.confirm }).click();
      await card.getByText(fill(en.security.twoFactor.emailCodeLead, { email: cid.email })).waitFor();
      const enrolment = await outboxCode(service, cid.email, last);
      await look(page, "security-email-code");
      await card.getByLabel(en.security.twoFactor.emailCode).fill(enrolment.code);
      await card.getByRole("button", { name: en.security.twoFactor.turnOn }).click();
      await card.getByText(en.security.twoFactor.enabled).waitFor();
      await card.getByText(en.security.on, { exact: true }).first().waitFor();

      // Signed out; in again by a mailed code (the sign-in page hands the typed address on).
      await signOut(page);
      await page.getByLabel(en.username.identifier).fill(cid.email);
      await page.getByRole("link", { name: en.emailSignIn.codeButton }).click();
      await headingIs(page, en.emailSignIn.code.heading);
      expect(await page.getByLabel(en.emailSignIn.email).inputValue()).toBe(cid.email);
      await look(page, "sign-in-code");
      last = latestOutboxId(service);
      await page.getByRole("button", { name: en.emailSignIn.code.submit }).click();
      await headingIs(page, en.emailSignIn.code.enterHeading);
      const first = await outboxCode(service, cid.email, last);
      await page.getByLabel(en.emailSignIn.code.code).fill(first.code === "000000" ? "111111" : "000000");
      await page.getByRole("button", { name: en.emailSignIn.code.verify, exact: true }).click();
      await page.getByText(en.serverErrors.INVALID_OTP).waitFor();
      await look(page, "sign-in-code-enter");
      await page.getByLabel(en.emailSignIn.code.code).fill(first.code);
      await page.getByRole("button", { name: en.emailSignIn.code.verify, exact: true }).click();

      // The second step offers only what the account has: a code by email.
      await page.waitForURL((url) => url.pathname === "/two-factor");
      await page.getByText(en.twoFactor.otpLead).waitFor();
      expect(await page.getByRole("button", { name: en.twoFactor.useApp }).count()).toBe(0);
      await look(page, "two-factor-email");
      last = latestOutboxId(service);
      await page.getByRole("button", { name: en.twoFactor.sendCode }).click();
      const second = await outboxCode(service, cid.email, last);
      await page.getByLabel(en.twoFactor.emailCode).fill(second.code);
      await look(page, "two-factor-email-sent");
      await page.getByRole("button", { name: en.twoFactor.verify }).click();
      await atHome(page, cid.name);
    },
    JOURNEY_TIMEOUT,
  );
});

describe("sign-in by a mailed link or code", () => {
  it(
    "signs in by a link (its page asks for a click first), marks it as last used, then by a code; a spent link says so",
    async () => {
      const dee = person("Dee Linkson", PASSWORD, "-link");
      await signUpByApi(service.url, dee);
      await markVerified(dee.email);
      const page = await newPage();

      await page.goto("/sign-in");
      await page.getByRole("link", { name: en.emailSignIn.linkButton }).click();
      await headingIs(page, en.emailSignIn.link.heading);
      await page.getByRole("button", { name: en.emailSignIn.link.submit }).click();
      await page.getByText(en.validation.emailRequired).waitFor();
      await look(page, "sign-in-link");
      await page.getByLabel(en.emailSignIn.email).fill(dee.email);
      await page.getByRole("button", { name: en.emailSignIn.link.submit }).click();
      await headingIs(page, en.emailSignIn.link.sentHeading);
      await page.getByText(fill(en.emailSignIn.link.sent, { email: dee.email })).waitFor();
      await look(page, "sign-in-link-sent");

      // Opening the mailed link uses nothing: its page asks for the click.
      const link = await outboxLink(service, dee.email, "/magic-link");
      await page.goto(link);
      await headingIs(page, en.emailSignIn.landing.heading);
      await look(page, "magic-link");
      await page.getByRole("button", { name: en.emailSignIn.landing.submit }).click();
      await atHome(page, dee.name);

      // Signed out: the link is the way this browser used last. The same link again is spent.
      await signOut(page);
      const ways = page.getByRole("list", { name: en.emailSignIn.waysLabel });
      await ways.getByRole("listitem").filter({ has: page.getByRole("link", { name: en.emailSignIn.linkButton }) }).getByText(en.signIn.lastUsed).waitFor();
      await page.goto(link);
      await page.getByRole("button", { name: en.emailSignIn.landing.submit }).click();
      await page.waitForURL((url) => url.pathname === "/sign-in/link");
      await page.getByText(en.emailSignIn.link.failedTitle).waitFor();
      await page.getByText(en.errorPage.codes.INVALID_TOKEN).waitFor();
      await look(page, "sign-in-link-spent");

      // A link page without its token.
      await page.goto("/magic-link");
      await headingIs(page, en.emailSignIn.landing.invalidHeading);
      await look(page, "magic-link-incomplete");

      // By a code: no second factor here, so straight in.
      await page.goto("/sign-in/code");
      await page.getByLabel(en.emailSignIn.email).fill(dee.email);
      const last = latestOutboxId(service);
      await page.getByRole("button", { name: en.emailSignIn.code.submit }).click();
      const { code } = await outboxCode(service, dee.email, last);
      await page.getByLabel(en.emailSignIn.code.code).fill(code);
      await page.getByRole("button", { name: en.emailSignIn.code.verify, exact: true }).click();
      await atHome(page, dee.name);
      await signOut(page);
      await ways.getByRole("listitem").filter({ has: page.getByRole("link", { name: en.emailSignIn.codeButton }) }).getByText(en.signIn.lastUsed).waitFor();
    },
    JOURNEY_TIMEOUT,
  );
});

describe("in longer languages", () => {
  it(
    "fits the sign-in ways, the second step and the security page in Russian and German",
    async () => {
      const page = await newPage();
      await page.goto("/sign-in");
      await chooseLanguage(page, en, "ru");
      await page.getByRole("button", { name: ru.passkeys.signIn }).waitFor();
      await look(page, "sign-in-ways-ru");
      await page.goto("/two-factor");
      await headingIs(page, ru.twoFactor.heading);
      await look(page, "two-factor-ru");

      const eva = person("Eva Lang", PASSWORD, "-lang");
      await signUpByApi(service.url, eva);
      await chooseLanguage(page, ru, "de");
      await signIn(page, eva.email, eva.password, { messages: de });
      await page.goto("/account/security");
      await headingIs(page, de.security.heading);
      await page.getByText(de.security.passkeys.none).waitFor();
      await look(page, "security-de");
    },
    JOURNEY_TIMEOUT,
  );
});

import { passkeyClient } from "@better-auth/passkey/client";
import { emailOTPClient, magicLinkClient, twoFactorClient } from "better-auth/client/plugins";
import { URI } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../../server/test/helpers/clock.js";
import { DIALECTS } from "../../server/test/helpers/databases.js";
import { PASSWORD } from "../../server/test/helpers/http-client.js";
import { startTestServer, type TestServer } from "../../server/test/helpers/server.js";
import { startTestSmtp, type TestSmtp } from "../../server/test/helpers/smtp.js";
import { SoftAuthenticator } from "../../server/test/helpers/soft-authenticator.js";
import { betterAuthClient, browser, type Browser } from "./harness.js";
import { installWebAuthn, type WebAuthnShim } from "./webauthn.js";

/**
 * Issue #15 items 1-4: Better Auth 1.7's `twoFactorClient()`, unchanged, against Gatehouse's second factors
 * (server/src/two-factor): enrolment of an authenticator, the second step after a password sign-in (the client's
 * onTwoFactorRedirect), TOTP, backup and mailed codes, trusted devices, new backup codes, turning it off; and with
 * `passkeyClient()`, a passkey sign-in with and without user verification. Where Gatehouse behaves otherwise on
 * purpose (README "Second factors", "Better Auth's client"), the test asserts Gatehouse's documented behaviour.
 * Authenticator codes are computed with `otpauth` from the URI the service answers, on the service's clock.
 */

const STEP = 30_000;
const TRUST = "better-auth.trust_device";
const BACKUP_CODE = /^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/;
const isCodeMail = (mail: { text: string }) => /^\s*\d{6}\s*$/m.test(mail.text);

let n = 0;
const address = (p: string) => `${p}-${Date.now().toString(36)}-${++n}@example.com`;

describe.each(DIALECTS)("Better Auth 1.7's twoFactorClient against Gatehouse (%s)", (dialect) => {
  let server: TestServer;
  let smtp: TestSmtp;
  const clock = manualClock();
  beforeAll(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer(
      dialect,
      { email: { smtpUrl: smtp.url }, twoFactor: { issuer: "Gatehouse Compat" } },
      { now: clock.now },
    );
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  /** The code an authenticator app shows now (on the service's clock) for the URI; `offset` in time steps. */
  const codeOf = (totpURI: string, offset = 0) =>
    URI.parse(totpURI).generate({ timestamp: clock.now().getTime() + offset * STEP });
  /** A code that none of the accepted steps (the current one and one either side) produces. */
  const wrongCodeOf = (totpURI: string) => {
    const accepted = new Set([-1, 0, 1].map((offset) => codeOf(totpURI, offset)));
    return ["000000", "111111", "222222", "333333"].find((c) => !accepted.has(c))!;
  };
  /** The code just used is spent for the rest of its window: the authenticator's next one is new. */
  const nextStep = () => clock.advance(STEP);
  const mailedCode = async (email: string) => /^\s*(\d{6})\s*$/m.exec((await smtp.waitFor(email, isCodeMail)).text)![1]!;

  /** A browser running Better Auth's client with twoFactorClient; `redirects` records each onTwoFactorRedirect. */
  function clientFor(b: Browser = browser(server.url)) {
    const redirects: string[][] = [];
    const client = betterAuthClient(server.base, b, [
      twoFactorClient({
        onTwoFactorRedirect: ({ twoFactorMethods }: { twoFactorMethods?: string[] }) => {
          redirects.push(twoFactorMethods ?? []);
        },
      }),
      passkeyClient(),
      magicLinkClient(),
      emailOTPClient(),
    ]);
    return { client, redirects, browser: b };
  }
  type Client = ReturnType<typeof clientFor>["client"];

  async function signedUp(prefix: string) {
    const c = clientFor();
    const email = address(prefix);
    const up = await c.client.signUp.email({ email, password: PASSWORD, name: "Second Step" });
    expect(up.error).toBeNull();
    return { ...c, email };
  }

  /** Enables the authenticator and confirms it with its first code, as an app's security page would. */
  async function enrolTotp(client: Client) {
    const enabled = await client.twoFactor.enable({ password: PASSWORD });
    expect(enabled.error).toBeNull();
    const { totpURI, backupCodes } = enabled.data as { totpURI: string; backupCodes: string[] };
    const verified = await client.twoFactor.verifyTotp({ code: codeOf(totpURI) });
    expect(verified.error).toBeNull();
    nextStep();
    return { totpURI, backupCodes, token: verified.data!.token };
  }

  /** Signs out, then in with the password: the second step is met (onTwoFactorRedirect) and no session is open. */
  async function meetSecondStep(c: ReturnType<typeof clientFor>, email: string, methods = ["totp"]) {
    await c.client.signOut();
    const before = c.redirects.length;
    const signIn = await c.client.signIn.email({ email, password: PASSWORD });
    expect(signIn.error).toBeNull();
    expect(signIn.data).toEqual({ twoFactorRedirect: true, twoFactorMethods: methods });
    expect(c.redirects.slice(before)).toEqual([methods]);
    expect((await c.client.getSession()).data).toBeNull();
  }

  async function expectSignedInAs(client: Client, email: string, token?: string) {
    const session = (await client.getSession()).data;
    expect(session?.user).toMatchObject({ email, twoFactorEnabled: true });
    if (token) expect(session?.session.token).toBe(token);
  }

  it("enrols an authenticator, then finishes sign-ins with its code, with backup codes and from a trusted device", async () => {
    const c = await signedUp("totp");
    const { client, redirects, email } = c;

    const wrongPassword = await client.twoFactor.enable({ password: "not the password" });
    expect(wrongPassword.error).toMatchObject({ status: 400, code: "INVALID_PASSWORD" });

    const enabled = await client.twoFactor.enable({ password: PASSWORD });
    expect(enabled.error).toBeNull();
    const { totpURI, backupCodes } = enabled.data as { totpURI: string; backupCodes: string[] };
    const uri = new URL(totpURI);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe(`/Gatehouse Compat:${email}`);
    expect(uri.searchParams.get("issuer")).toBe("Gatehouse Compat");
    expect(backupCodes).toHaveLength(10);
    for (const code of backupCodes) expect(code).toMatch(BACKUP_CODE);
    // Not on until the authenticator's first code: enable alone changes nothing at sign-in.
    expect((await client.getSession()).data?.user.twoFactorEnabled).toBe(false);

    const wrong = await client.twoFactor.verifyTotp({ code: wrongCodeOf(totpURI) });
    expect(wrong.error).toMatchObject({ status: 401, code: "INVALID_CODE" });
    const verified = await client.twoFactor.verifyTotp({ code: codeOf(totpURI) });
    expect(verified.error).toBeNull();
    expect(verified.data?.user).toMatchObject({ email, twoFactorEnabled: true });
    // The answer names the session that replaced the enrolling one (Better Auth answers the deleted one's token).
    await expectSignedInAs(client, email, verified.data!.token);
    expect(redirects).toEqual([]);
    nextStep();

    // Password, then the authenticator's code.
    await meetSecondStep(c, email);
    const badStep = await client.twoFactor.verifyTotp({ code: wrongCodeOf(totpURI) });
    expect(badStep.error).toMatchObject({ status: 401, code: "INVALID_CODE" });
    const code = codeOf(totpURI);
    const step = await client.twoFactor.verifyTotp({ code });
    expect(step.error).toBeNull();
    expect(step.data?.user).toMatchObject({ email, twoFactorEnabled: true });
    await expectSignedInAs(client, email, step.data!.token);

    // The same code again, within its window, in another browser: spent.
    const other = clientFor();
    await meetSecondStep(other, email);
    const replay = await other.client.twoFactor.verifyTotp({ code });
    expect(replay.error).toMatchObject({ status: 401, code: "INVALID_CODE" });
    expect((await other.client.getSession()).data).toBeNull();
    // Five wrong codes end that pending step: the right code is refused after them.
    for (let i = 0; i < 3; i++) {
      const guess = await other.client.twoFactor.verifyTotp({ code: wrongCodeOf(totpURI) });
      expect(guess.error).toMatchObject({ status: 401, code: "INVALID_CODE" });
    }
    const fifth = await other.client.twoFactor.verifyTotp({ code: wrongCodeOf(totpURI) });
    expect(fifth.error).toMatchObject({ status: 400, code: "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE" });
    const ended = await other.client.twoFactor.verifyTotp({ code: codeOf(totpURI, 1) });
    expect(ended.error).toMatchObject({ status: 401, code: "INVALID_TWO_FACTOR_COOKIE" });
    nextStep();

    // Password, then a backup code; each works once.
    await meetSecondStep(c, email);
    const backup = await client.twoFactor.verifyBackupCode({ code: backupCodes[0]! });
    expect(backup.error).toBeNull();
    await expectSignedInAs(client, email, backup.data!.token);
    await meetSecondStep(c, email);
    const again = await client.twoFactor.verifyBackupCode({ code: backupCodes[0]! });
    expect(again.error).toMatchObject({ status: 401, code: "INVALID_BACKUP_CODE" });

    // Trust this browser: its next sign-in skips the step; another browser's does not.
    const trusted = await client.twoFactor.verifyTotp({ code: codeOf(totpURI), trustDevice: true });
    expect(trusted.error).toBeNull();
    expect(c.browser.jar.has(TRUST)).toBe(true);
    await expectSignedInAs(client, email, trusted.data!.token);
    nextStep();
    await client.signOut();
    const skipped = await client.signIn.email({ email, password: PASSWORD });
    expect(skipped.error).toBeNull();
    expect(skipped.data).toMatchObject({ token: expect.any(String), user: { email, twoFactorEnabled: true } });
    expect(skipped.data).not.toHaveProperty("twoFactorRedirect");
    await expectSignedInAs(client, email, (skipped.data as { token: string }).token);
    await meetSecondStep(clientFor(), email);
  });

  it("replaces the backup codes, shows the URI again and turns the second step off (generateBackupCodes, getTotpUri, disable)", async () => {
    const c = await signedUp("manage");
    const { client, email } = c;
    const { totpURI, backupCodes } = await enrolTotp(client);

    // A trusted browser first: new backup codes are a change of factors, which ends every trusted device.
    await meetSecondStep(c, email);
    expect((await client.twoFactor.verifyTotp({ code: codeOf(totpURI), trustDevice: true })).error).toBeNull();
    nextStep();

    const noPassword = await client.twoFactor.generateBackupCodes({ password: "not the password" });
    expect(noPassword.error).toMatchObject({ status: 400, code: "INVALID_PASSWORD" });
    const generated = await client.twoFactor.generateBackupCodes({ password: PASSWORD });
    expect(generated.error).toBeNull();
    expect(generated.data?.status).toBe(true);
    const fresh = generated.data!.backupCodes;
    expect(fresh).toHaveLength(10);
    for (const code of fresh) expect(code).toMatch(BACKUP_CODE);
    expect(fresh.filter((code: string) => backupCodes.includes(code))).toEqual([]);
    expect(c.browser.jar.has(TRUST)).toBe(false);

    await meetSecondStep(c, email);
    const old = await client.twoFactor.verifyBackupCode({ code: backupCodes[1]! });
    expect(old.error).toMatchObject({ status: 401, code: "INVALID_BACKUP_CODE" });
    const current = await client.twoFactor.verifyBackupCode({ code: fresh[0]! });
    expect(current.error).toBeNull();
    await expectSignedInAs(client, email, current.data!.token);

    const shown = await client.twoFactor.getTotpUri({ password: PASSWORD });
    expect(shown.error).toBeNull();
    expect(new URL(shown.data!.totpURI).searchParams.get("secret")).toBe(new URL(totpURI).searchParams.get("secret"));
    expect(new URL(shown.data!.totpURI).searchParams.get("issuer")).toBe("Gatehouse Compat");

    const refused = await client.twoFactor.disable({ password: "not the password" });
    expect(refused.error).toMatchObject({ status: 400, code: "INVALID_PASSWORD" });
    const disabled = await client.twoFactor.disable({ password: PASSWORD });
    expect(disabled.error).toBeNull();
    expect(disabled.data).toEqual({ status: true });
    const session = (await client.getSession()).data;
    expect(session?.user).toMatchObject({ email, twoFactorEnabled: false });

    await client.signOut();
    const plain = await client.signIn.email({ email, password: PASSWORD });
    expect(plain.data).toMatchObject({ user: { email, twoFactorEnabled: false } });
    expect(c.redirects).toHaveLength(2);
    const none = await client.twoFactor.generateBackupCodes({ password: PASSWORD });
    expect(none.error).toMatchObject({ status: 400, code: "TWO_FACTOR_NOT_ENABLED" });
  });

  it("turns the email code on only once the mailbox proves it (enable method otp, sendOtp, verifyOtp), then signs in with it", async () => {
    const c = await signedUp("otp");
    const { client, email } = c;

    const enabled = await client.twoFactor.enable({ password: PASSWORD, method: "otp" } as { password: string });
    expect(enabled.error).toBeNull();
    expect(enabled.data).toEqual({ method: "otp" });
    // Better Auth turns the second step on here, unproven; Gatehouse waits for the mailed code.
    expect((await client.getSession()).data?.user.twoFactorEnabled).toBe(false);
    const elsewhere = clientFor();
    const unguarded = await elsewhere.client.signIn.email({ email, password: PASSWORD });
    expect(unguarded.data).toMatchObject({ user: { email, twoFactorEnabled: false } });
    expect(elsewhere.redirects).toEqual([]);

    expect((await client.twoFactor.sendOtp()).data).toEqual({ status: true });
    const proof = await mailedCode(email);
    const wrong = await client.twoFactor.verifyOtp({ code: proof === "000000" ? "000001" : "000000" });
    expect(wrong.error).toMatchObject({ status: 401, code: "INVALID_CODE" });
    const proven = await client.twoFactor.verifyOtp({ code: proof });
    expect(proven.error).toBeNull();
    expect(proven.data?.user).toMatchObject({ email, twoFactorEnabled: true });
    await expectSignedInAs(client, email, proven.data!.token);

    // Password, then a mailed code. The methods name the email code only because the user has it.
    await meetSecondStep(c, email, ["otp"]);
    expect((await client.twoFactor.sendOtp()).data).toEqual({ status: true });
    const code = await mailedCode(email);
    const signedIn = await client.twoFactor.verifyOtp({ code });
    expect(signedIn.error).toBeNull();
    await expectSignedInAs(client, email, signedIn.data!.token);
    const reused = clientFor();
    await meetSecondStep(reused, email, ["otp"]);
    const spent = await reused.client.twoFactor.verifyOtp({ code });
    expect(spent.error).toMatchObject({ status: 400, code: "OTP_HAS_EXPIRED" });

    // With an authenticator too, both are offered.
    const { totpURI } = await enrolTotp(client);
    await meetSecondStep(c, email, ["totp", "otp"]);
    expect((await client.twoFactor.verifyTotp({ code: codeOf(totpURI) })).error).toBeNull();
    nextStep();
  });

  it("meets the second step on the other ways in too: signIn.emailOtp and magicLink.verify answer twoFactorRedirect", async () => {
    const c = await signedUp("ways");
    const { client, email } = c;
    // The owner proves the address from their own session (the password stays: no pre-registration to undo).
    expect((await client.emailOtp.sendVerificationOtp({ email, type: "email-verification" })).error).toBeNull();
    const verified = await client.emailOtp.verifyEmail({ email, otp: await mailedCode(email) });
    expect(verified.data?.user).toMatchObject({ email, emailVerified: true });
    const { totpURI } = await enrolTotp(client);

    const byCode = clientFor();
    expect((await byCode.client.emailOtp.sendVerificationOtp({ email, type: "sign-in" })).data).toEqual({ success: true });
    const codeSignIn = await byCode.client.signIn.emailOtp({ email, otp: await mailedCode(email) });
    expect(codeSignIn.error).toBeNull();
    expect(codeSignIn.data).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
    expect(byCode.redirects).toEqual([["totp"]]);
    expect((await byCode.client.getSession()).data).toBeNull();
    const finished = await byCode.client.twoFactor.verifyTotp({ code: codeOf(totpURI) });
    expect(finished.error).toBeNull();
    await expectSignedInAs(byCode.client, email, finished.data!.token);
    nextStep();

    const byLink = clientFor();
    expect((await byLink.client.signIn.magicLink({ email })).data).toEqual({ status: true });
    const isMagicLink = (l: string) => new URL(l).pathname.endsWith("/magic-link");
    const link = new URL((await smtp.waitFor(email, (m) => m.links.some(isMagicLink))).links.find(isMagicLink)!);
    const linkSignIn = await byLink.client.magicLink.verify({ query: { token: link.searchParams.get("token")! } });
    expect(linkSignIn.error).toBeNull();
    expect(linkSignIn.data).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
    expect(byLink.redirects).toEqual([["totp"]]);
    const linked = await byLink.client.twoFactor.verifyTotp({ code: codeOf(totpURI) });
    expect(linked.error).toBeNull();
    await expectSignedInAs(byLink.client, email, linked.data!.token);
    nextStep();
    // Still the same user with the same authenticator: nothing of the account was reset on the way.
    expect((await client.getSession()).data?.user).toMatchObject({ email, twoFactorEnabled: true });
  });

  it("goes to twoFactorPage when no onTwoFactorRedirect is given (a browser's window)", async () => {
    const { email, client: owner } = await signedUp("page");
    const { totpURI } = await enrolTotp(owner);
    const g = globalThis as Record<string, unknown>;
    const location = { href: "" };
    g.window = { location };
    try {
      const b = browser(server.url);
      const client = betterAuthClient(server.base, b, [twoFactorClient({ twoFactorPage: "/two-factor" })]);
      const signIn = await client.signIn.email({ email, password: PASSWORD });
      expect(signIn.data).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
      expect(location.href).toBe("/two-factor");
      // The page's form then answers the step with the same client.
      const step = await client.twoFactor.verifyTotp({ code: codeOf(totpURI) });
      expect(step.data?.user.email).toBe(email);
      nextStep();
    } finally {
      delete g.window;
    }
  });

  describe("with passkeyClient", () => {
    let webAuthn: WebAuthnShim;
    beforeAll(() => {
      webAuthn = installWebAuthn(new SoftAuthenticator(new URL(server.url).origin));
    });
    afterAll(() => webAuthn?.restore());

    it("a passkey with user verification is both factors; without it, the second step follows (onTwoFactorRedirect from signIn.passkey)", async () => {
      const { client, email } = await signedUp("pk2fa");
      const { totpURI } = await enrolTotp(client);
      // The enrolment replaced the session with a new, fresh one: registration needs no more.
      const added = await client.passkey.addPasskey({ name: "Laptop" });
      expect(added.error).toBeNull();

      const verifying = clientFor();
      const both = await verifying.client.signIn.passkey();
      expect(both.error).toBeNull();
      expect(both.data).toMatchObject({ user: { email, twoFactorEnabled: true } });
      expect(verifying.redirects).toEqual([]);
      await expectSignedInAs(verifying.client, email);

      webAuthn.settings.userVerified = false;
      try {
        const presenceOnly = clientFor();
        const step = await presenceOnly.client.signIn.passkey();
        expect(step.error).toBeNull();
        expect(step.data).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
        expect(presenceOnly.redirects).toEqual([["totp"]]);
        expect((await presenceOnly.client.getSession()).data).toBeNull();
        const finished = await presenceOnly.client.twoFactor.verifyTotp({ code: codeOf(totpURI) });
        expect(finished.error).toBeNull();
        await expectSignedInAs(presenceOnly.client, email, finished.data!.token);
        nextStep();
      } finally {
        webAuthn.settings.userVerified = true;
      }
    });
  });
});

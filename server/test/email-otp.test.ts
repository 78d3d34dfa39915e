import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderCodeMail } from "../src/email/templates.js";
import { LANGUAGES } from "../src/email/language.js";
import { totpCode } from "../src/two-factor/totp.js";
import { manualClock } from "./helpers/clock.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { startTestSmtp, type ReceivedMail, type TestSmtp } from "./helpers/smtp.js";

/**
 * Email one-time codes (issue #15 item 6; API-NOTES-PLUGINS.md section 5), over real HTTP and real SMTP, on both
 * databases: sign-in and sign-up, verification, password reset, email change, expiry, single use and attempts under
 * concurrency, the pre-registration takeover refused, limits per address and per client.
 */

const ORIGIN = "http://app.test";
const MINUTE = 60_000;

/** The code a mail carries: its line of digits. */
function codeOf(mail: ReceivedMail): string {
  const match = mail.text.match(/^\s+(\d{6,12})$/m);
  if (!match) throw new Error(`no code in ${mail.text}`);
  return match[1]!;
}

/** A six-digit code other than `code`. */
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe.each(DIALECTS)("email codes on %s", (dialect) => {
  let server: TestServer;
  let closed: TestServer;
  let changing: TestServer;
  let limited: TestServer;
  let smtp: TestSmtp;
  const clock = manualClock();

  beforeAll(async () => {
    smtp = await startTestSmtp();
    const email = { smtpUrl: smtp.url, from: "Gatehouse <auth@app.test>" };
    [server, closed, changing, limited] = await Promise.all([
      startTestServer(dialect, { baseURL: ORIGIN, email }, { now: clock.now }),
      startTestServer(dialect, {
        baseURL: ORIGIN,
        email,
        emailOTP: { disableSignUp: true, overrideDefaultEmailVerification: true },
      }),
      startTestServer(dialect, {
        baseURL: ORIGIN,
        email,
        emailOTP: { changeEmail: { enabled: true }, sendVerificationOnSignUp: true },
        emailVerification: { sendOnSignUp: false, autoSignInAfterVerification: true },
      }),
      startTestServer(dialect, { baseURL: ORIGIN, email, rateLimit: { enabled: true, account: { mailPerAddress: 2 } } }),
    ]);
  });
  afterAll(async () => {
    await Promise.allSettled([server?.close(), closed?.close(), changing?.close(), limited?.close()]);
    await smtp?.close();
  });

  const client = (on: TestServer = server) => new TestClient(on.base, ORIGIN);

  async function sendCode(email: string, type: string, on: TestServer = server, headers: Record<string, string> = {}) {
    const res = await client(on).request("POST", "/email-otp/send-verification-otp", { body: { email, type }, headers });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    return codeOf(await smtp.waitFor(email));
  }

  describe("sign-in", () => {
    it("mails a code (not in the subject) that signs the user in once", async () => {
      const { email } = await signUp(client());
      await smtp.waitFor(email); // verification link of the sign-up
      const res = await client().post("/email-otp/send-verification-otp", { email, type: "sign-in" });
      expect(res.body).toEqual({ success: true });
      const mail = await smtp.waitFor(email);
      const code = codeOf(mail);
      expect(code).toMatch(/^\d{6}$/);
      expect(mail.subject).toBe("Your sign-in code");
      expect(mail.subject).not.toContain(code);
      expect(mail.text).toContain("5 minutes");
      expect(mail.html).toContain(code);

      const browser = client();
      const signedIn = await browser.post("/sign-in/email-otp", { email, otp: code });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.user).toMatchObject({ email, emailVerified: true });
      expect(typeof signedIn.body.token).toBe("string");
      expect(signedIn.headers.get("cache-control")).toBe("no-store");
      expect((await browser.get("/get-session")).body.user.email).toBe(email);

      const again = await client().post("/sign-in/email-otp", { email, otp: code });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ code: "INVALID_OTP", message: "Invalid OTP" });
    });

    it("signs up an address without an account (verified, with the name given)", async () => {
      const email = uniqueEmail("otp-new");
      const code = await sendCode(email, "sign-in");
      const browser = client();
      const res = await browser.post("/sign-in/email-otp", { email, otp: code, name: "Code Person" });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ email, name: "Code Person", emailVerified: true });
      expect((await browser.get("/list-accounts")).body).toEqual([]);
    });

    it("with emailOTP.disableSignUp mails no code to an unknown address (same answer) and makes no account", async () => {
      const unknown = uniqueEmail("otp-nobody");
      const res = await client(closed).post("/email-otp/send-verification-otp", { email: unknown, type: "sign-in" });
      expect(res.body).toEqual({ success: true });
      const { email } = await signUp(client(closed));
      await smtp.waitFor(email);
      const code = await sendCode(email, "sign-in", closed);
      expect((await client(closed).post("/sign-in/email-otp", { email, otp: code })).status).toBe(200);
      expect(smtp.received.filter((m) => m.to === unknown)).toEqual([]);
      const guess = await client(closed).post("/sign-in/email-otp", { email: unknown, otp: "123456" });
      expect(guess.status).toBe(400);
      expect(guess.body.code).toBe("INVALID_OTP");
    });

    it("with overrideDefaultEmailVerification every verification mail is a code, never a link", async () => {
      const owner = client(closed);
      const { email } = await signUp(owner);
      const onSignUp = await smtp.waitFor(email);
      expect(onSignUp.subject).toBe("Your verification code");
      expect(onSignUp.links).toEqual([]);
      expect((await owner.post("/send-verification-email", { email })).body).toEqual({ status: true });
      const again = await smtp.waitFor(email);
      expect(again.links).toEqual([]);
      // The first code was replaced by the second.
      if (codeOf(onSignUp) !== codeOf(again)) {
        const stale = await owner.post("/email-otp/verify-email", { email, otp: codeOf(onSignUp) });
        expect(stale.body.code).toBe("INVALID_OTP");
      }
      const res = await owner.post("/email-otp/verify-email", { email, otp: codeOf(again) });
      expect(res.body.user).toMatchObject({ email, emailVerified: true });
      // The registrant's browser: the password stays.
      expect((await client(closed).post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    });

    it("refuses a code past its five minutes with OTP_EXPIRED (the clock moved, no sleeping)", async () => {
      const email = uniqueEmail("otp-late");
      const code = await sendCode(email, "sign-in");
      clock.advance(5 * MINUTE + 1000);
      try {
        const res = await client().post("/sign-in/email-otp", { email, otp: code });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: "OTP_EXPIRED", message: "OTP expired" });
      } finally {
        clock.reset();
      }
      // The expired row is gone: the same code is no code at all now.
      const after = await client().post("/sign-in/email-otp", { email, otp: code });
      expect(after.body.code).toBe("INVALID_OTP");
    });

    it("twenty concurrent sign-ins with one code: exactly one succeeds", async () => {
      const { email } = await signUp(client());
      await smtp.waitFor(email);
      const code = await sendCode(email, "sign-in");
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => client().post("/sign-in/email-otp", { email, otp: code })),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      for (const a of answers.filter((a) => a.status !== 200)) expect(["INVALID_OTP", "TOO_MANY_ATTEMPTS"]).toContain(a.body.code);
    });

    it("ends a code after three tries: the right one is refused after three wrong ones (403 TOO_MANY_ATTEMPTS)", async () => {
      const email = uniqueEmail("otp-guess");
      const code = await sendCode(email, "sign-in");
      for (let i = 0; i < 3; i++) {
        const wrong = await client().post("/sign-in/email-otp", { email, otp: wrongCode(code) });
        expect(wrong.status).toBe(400);
        expect(wrong.body.code).toBe("INVALID_OTP");
      }
      const right = await client().post("/sign-in/email-otp", { email, otp: code });
      expect(right.status).toBe(403);
      expect(right.body).toEqual({ code: "TOO_MANY_ATTEMPTS", message: "Too many attempts" });
    });

    it("counts guesses sent all at once before comparing them: ten at once leave the right code refused", async () => {
      const email = uniqueEmail("otp-burst");
      const code = await sendCode(email, "sign-in");
      const guesses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          client().post("/sign-in/email-otp", { email, otp: String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0") }),
        ),
      );
      expect(guesses.filter((g) => g.body.code === "INVALID_OTP")).toHaveLength(3);
      expect(guesses.filter((g) => g.body.code === "TOO_MANY_ATTEMPTS")).toHaveLength(7);
      expect((await client().post("/sign-in/email-otp", { email, otp: code })).status).toBe(403);
    });

    it("a new code replaces the old one, with its tries counted afresh", async () => {
      const email = uniqueEmail("otp-again");
      const first = await sendCode(email, "sign-in");
      const second = await sendCode(email, "sign-in");
      if (first !== second) {
        expect((await client().post("/sign-in/email-otp", { email, otp: first })).body.code).toBe("INVALID_OTP");
      }
      expect((await client().post("/sign-in/email-otp", { email, otp: second })).status).toBe(200);
    });

    it("a user with a second factor meets the second step (Better Auth's twoFactorRedirect), the code used", async () => {
      const owner = client();
      const { email } = await signUp(owner);
      // The address proven first (the verification link, in the registrant's browser): else the code would hand the
      // account over from whoever set up its factor.
      const link = new URL((await smtp.waitFor(email)).links.find((l) => l.includes("/verify-email"))!);
      expect((await owner.get(link.pathname.replace(/^\/api\/auth/, "") + link.search)).status).toBe(302);
      const enable = await owner.post("/two-factor/enable", { password: PASSWORD });
      const secret = new URL(enable.body.totpURI).searchParams.get("secret")!;
      const confirmed = await owner.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 6, period: 30 }, clock.now()) });
      expect(confirmed.status, confirmed.text).toBe(200);
      const code = await sendCode(email, "sign-in");
      const browser = client();
      const res = await browser.post("/sign-in/email-otp", { email, otp: code });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
      expect(browser.cookie("better-auth.session_token")).toBeUndefined();
      expect(browser.cookie("better-auth.two_factor")).toBeDefined();
      expect((await client().post("/sign-in/email-otp", { email, otp: code })).body.code).toBe("INVALID_OTP");
    });

    it("check-verification-otp checks without using the code, and gives the try back", async () => {
      const email = uniqueEmail("otp-check");
      const code = await sendCode(email, "sign-in");
      const wrong = await client().post("/email-otp/check-verification-otp", { email, type: "sign-in", otp: wrongCode(code) });
      expect(wrong.body.code).toBe("INVALID_OTP");
      for (let i = 0; i < 3; i++) {
        const checked = await client().post("/email-otp/check-verification-otp", { email, type: "sign-in", otp: code });
        expect(checked.body).toEqual({ success: true });
      }
      expect((await client().post("/sign-in/email-otp", { email, otp: code })).status).toBe(200);
      // An unknown address is answered from the code alone: no "user not found" oracle.
      const unknown = await client().post("/email-otp/check-verification-otp", {
        email: uniqueEmail("otp-ghost"),
        type: "forget-password",
        otp: "123456",
      });
      expect(unknown.body.code).toBe("INVALID_OTP");
    });

    it("stores codes hashed: the emailOtp row never holds the code", async () => {
      const email = uniqueEmail("otp-hash");
      const code = await sendCode(email, "sign-in");
      const db = server.gatehouse.database.db as any;
      const row = await db.selectFrom("emailOtp").selectAll().where("identifier", "=", `sign-in:${email}`).executeTakeFirst();
      expect(row.codeHash).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(JSON.stringify(row)).not.toContain(code);
    });

    it("refuses hostile bodies with a clear 4xx", async () => {
      const badType = await client().post("/email-otp/send-verification-otp", { email: uniqueEmail(), type: "nope" });
      expect(badType.status).toBe(400);
      expect(badType.body.code).toBe("VALIDATION_ERROR");
      const changeType = await client().post("/email-otp/send-verification-otp", { email: uniqueEmail(), type: "change-email" });
      expect(changeType.body).toEqual({ code: "INVALID_OTP_TYPE", message: "Invalid OTP type" });
      const badEmail = await client().post("/email-otp/send-verification-otp", { email: "nope", type: "sign-in" });
      expect(badEmail.body.code).toBe("INVALID_EMAIL");
      const long = await client().post("/sign-in/email-otp", { email: uniqueEmail(), otp: "1".repeat(100) });
      expect(long.status).toBe(400);
      const empty = await client().post("/sign-in/email-otp", { email: uniqueEmail(), otp: "" });
      expect(empty.body.code).toBe("INVALID_OTP");
    });

    it("writes the code mail in the recipient's language", async () => {
      const email = uniqueEmail("otp-pl");
      const code = await sendCode(email, "sign-in", server, { "accept-language": "pl" });
      const mail = smtp.received.find((m) => m.to === email)!;
      expect(mail.subject).toBe("Twój kod logowania");
      expect(mail.text).toContain("5 minut");
      expect(mail.text).toContain(code);
    });
  });

  describe("the pre-registration takeover", () => {
    async function squat() {
      const victim = uniqueEmail("otp-victim");
      const attacker = client();
      await signUp(attacker, { email: victim, password: "attacker's password" });
      await smtp.waitFor(victim); // the verification link, ignored
      expect((await attacker.get("/get-session")).body.user.emailVerified).toBe(false);
      return { victim, attacker };
    }

    async function expectSquatterGone(victim: string, attacker: TestClient) {
      expect((await attacker.get("/get-session")).body).toBeNull();
      const retry = await client().post("/sign-in/email", { email: victim, password: "attacker's password" });
      expect(retry.status).toBe(401);
      const user = await server.gatehouse.runtime.stores.users.findUserByEmail(victim);
      expect(user?.emailVerified).toBe(true);
    }

    it("signing in with a code removes the squatter's password and sessions", async () => {
      const { victim, attacker } = await squat();
      const code = await sendCode(victim, "sign-in");
      const owner = client();
      const res = await owner.post("/sign-in/email-otp", { email: victim, otp: code });
      expect(res.status).toBe(200);
      await expectSquatterGone(victim, attacker);
      expect((await owner.get("/list-accounts")).body).toEqual([]);
      const sessions = (await owner.get("/list-sessions")).body;
      expect(sessions.map((s: { token: string }) => s.token)).toEqual([res.body.token]);
    });

    it("verifying the address with a code from another browser removes them too", async () => {
      const { victim, attacker } = await squat();
      const code = await sendCode(victim, "email-verification");
      const res = await client().post("/email-otp/verify-email", { email: victim, otp: code });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: true, token: null, user: { email: victim, emailVerified: true } });
      await expectSquatterGone(victim, attacker);
    });

    it("resetting the password with a code leaves only the owner's new password", async () => {
      const { victim, attacker } = await squat();
      const code = await sendCode(victim, "forget-password");
      const res = await client().post("/email-otp/reset-password", { email: victim, otp: code, password: "owner's new password" });
      expect(res.body).toEqual({ success: true });
      await expectSquatterGone(victim, attacker);
      expect((await client().post("/sign-in/email", { email: victim, password: "owner's new password" })).status).toBe(200);
    });

    it("the registrant's own browser (a session of the user) verifying keeps the password", async () => {
      const owner = client();
      const { email } = await signUp(owner);
      await smtp.waitFor(email);
      const code = await sendCode(email, "email-verification");
      const res = await owner.post("/email-otp/verify-email", { email, otp: code });
      expect(res.body.user.emailVerified).toBe(true);
      expect((await owner.get("/get-session")).body.user.emailVerified).toBe(true);
      expect((await client().post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    });
  });

  describe("password reset", () => {
    it("sets a new password once, signs out everywhere, and answers the same for unknown addresses", async () => {
      const owner = client();
      const { email } = await signUp(owner);
      await smtp.waitFor(email);
      const unknown = await client().post("/email-otp/request-password-reset", { email: uniqueEmail("nobody") });
      expect(unknown.body).toEqual({ success: true });
      const res = await client().post("/forget-password/email-otp", { email });
      expect(res.body).toEqual({ success: true });
      const mail = await smtp.waitFor(email);
      expect(mail.subject).toBe("Your password reset code");
      const code = codeOf(mail);

      const short = await client().post("/email-otp/reset-password", { email, otp: code, password: "short" });
      expect(short.body.code).toBe("PASSWORD_TOO_SHORT");
      const done = await client().post("/email-otp/reset-password", { email, otp: code, password: "a brand new password" });
      expect(done.body).toEqual({ success: true });
      expect((await owner.get("/get-session")).body).toBeNull();
      expect((await client().post("/sign-in/email", { email, password: PASSWORD })).status).toBe(401);
      expect((await client().post("/sign-in/email", { email, password: "a brand new password" })).status).toBe(200);
      const again = await client().post("/email-otp/reset-password", { email, otp: code, password: "another new password" });
      expect(again.body.code).toBe("INVALID_OTP");
      // The password-changed notice went out.
      await smtp.waitFor(email, (m) => m.subject === "Your password was changed");
    });

    it("twenty concurrent resets with one code: exactly one succeeds", async () => {
      const { email } = await signUp(client());
      await smtp.waitFor(email);
      const code = await sendCode(email, "forget-password");
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          client().post("/email-otp/reset-password", { email, otp: code, password: `new password number ${i}` }),
        ),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    });
  });

  describe("email change", () => {
    it("is refused (400) unless emailOTP.changeEmail.enabled", async () => {
      const owner = client();
      await signUp(owner);
      const res = await owner.post("/email-otp/request-email-change", { newEmail: uniqueEmail() });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "CHANGE_EMAIL_WITH_OTP_IS_DISABLED", message: "Change email with OTP is disabled" });
      const change = await owner.post("/email-otp/change-email", { newEmail: uniqueEmail(), otp: "123456" });
      expect(change.body.code).toBe("CHANGE_EMAIL_WITH_OTP_IS_DISABLED");
      expect((await client().post("/email-otp/change-email", { newEmail: uniqueEmail(), otp: "1" })).status).toBe(401);
    });

    it("a verified address proves itself first, then the new one takes over with its code", async () => {
      const owner = client(changing);
      const { email } = await signUp(owner);
      // sendVerificationOnSignUp: the sign-up mailed a code; with it (and autoSignInAfterVerification) the address is verified.
      const signUpCode = codeOf(await smtp.waitFor(email, (m) => m.subject === "Your verification code"));
      const verified = await owner.post("/email-otp/verify-email", { email, otp: signUpCode });
      expect(verified.body.user.emailVerified).toBe(true);

      const newEmail = uniqueEmail("moved");
      const withoutProof = await owner.post("/email-otp/request-email-change", { newEmail });
      expect(withoutProof.body.code).toBe("OTP_IS_REQUIRED_TO_VERIFY_CURRENT_EMAIL");
      const currentCode = await sendCode(email, "email-verification", changing);
      const requested = await owner.post("/email-otp/request-email-change", { newEmail, otp: currentCode });
      expect(requested.body).toEqual({ success: true });
      const mail = await smtp.waitFor(newEmail);
      expect(mail.subject).toBe("Confirm your new email address");
      const wrong = await owner.post("/email-otp/change-email", { newEmail, otp: wrongCode(codeOf(mail)) });
      expect(wrong.body.code).toBe("INVALID_OTP");
      const changed = await owner.post("/email-otp/change-email", { newEmail, otp: codeOf(mail) });
      expect(changed.body).toEqual({ success: true });
      expect((await owner.get("/get-session")).body.user).toMatchObject({ email: newEmail, emailVerified: true });
      await smtp.waitFor(email, (m) => m.subject === "Your email address was changed");
    });

    it("an address that has an account gets no code, and the answer does not say so", async () => {
      const owner = client(changing);
      const { email } = await signUp(owner);
      const taken = (await signUp(client(changing))).email;
      const res = await owner.post("/email-otp/request-email-change", { newEmail: taken });
      // The owner's address is unverified: no proof of it is asked for.
      expect(res.body).toEqual({ success: true });
      const guess = await owner.post("/email-otp/change-email", { newEmail: taken, otp: "123456" });
      expect(guess.body.code).toBe("INVALID_OTP");
      const same = await owner.post("/email-otp/request-email-change", { newEmail: email });
      expect(same.body.code).toBe("EMAIL_IS_THE_SAME");
    });
  });

  describe("limits", () => {
    it("limits codes per address, whatever client asks", async () => {
      const email = uniqueEmail("otp-flood");
      const answers = [];
      for (let i = 0; i < 3; i++) {
        answers.push((await client(limited).post("/email-otp/send-verification-otp", { email, type: "sign-in" })).status);
      }
      expect(answers).toEqual([200, 200, 429]);
    });

    it("limits code checks per client (three in ten seconds)", async () => {
      const email = uniqueEmail("otp-client");
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push((await client(limited).post("/sign-in/email-otp", { email, otp: "123456" })).status);
      expect(answers).toEqual([400, 400, 400, 429]);
    });
  });
});

describe("code mail", () => {
  it("is written in all eight languages, with the code and without a placeholder left", () => {
    const subjects = new Set<string>();
    for (const language of LANGUAGES) {
      for (const kind of ["signIn", "emailVerification", "forgetPassword", "changeEmail"] as const) {
        const mail = renderCodeMail(kind, language, { name: "Ada", email: "ada@example.com", code: "042917", expiresIn: 300 });
        expect(mail.text).toContain("042917");
        expect(mail.html).toContain("042917");
        expect(mail.subject).not.toContain("042917");
        expect(`${mail.subject}${mail.text}`).not.toMatch(/\{\w+\}/);
        subjects.add(`${language}:${mail.subject}`);
      }
    }
    expect(subjects.size).toBe(32);
  });
});

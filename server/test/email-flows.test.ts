import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { startTestSmtp, type TestSmtp } from "./helpers/smtp.js";
import { manualClock } from "./helpers/clock.js";

const HOUR = 3_600_000;
const ORIGIN = "http://app.test";

/** The path and query of a mailed link, to request on the test server (links are built on BASE_URL). */
const pathOf = (link: string) => {
  const url = new URL(link);
  return url.pathname.replace(/^\/api\/auth/, "") + url.search;
};

describe.each(DIALECTS)("mailed flows on %s", (dialect) => {
  let server: TestServer;
  let smtp: TestSmtp;
  const clock = manualClock();

  beforeAll(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer(
      dialect,
      {
        baseURL: ORIGIN,
        email: { smtpUrl: smtp.url, from: "Gatehouse <auth@app.test>" },
        user: { deleteUser: { enabled: true } },
        emailAndPassword: { resetPassword: { revokeSessionsOnPasswordReset: true } },
      },
      { now: clock.now },
    );
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });
  const client = () => new TestClient(server.base, ORIGIN);

  describe("email verification", () => {
    it("mails a link on sign-up that verifies the address and lands on the callback", async () => {
      const c = client();
      const { email } = await signUp(c);
      const mail = await smtp.waitFor(email);
      expect(mail.subject).toBe("Verify your email address");
      expect(mail.html).toContain("Verify email");
      const link = mail.links.find((l) => l.includes("/api/auth/verify-email"))!;
      expect(new URL(link).origin).toBe(ORIGIN);
      const res = await c.get(pathOf(link));
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/verify-email?verified=true");
      expect((await c.get("/get-session")).body.user.emailVerified).toBe(true);
    });

    it("answers { status, user } as JSON when the link has no callbackURL", async () => {
      const c = client();
      const { email } = await signUp(c);
      const mail = await smtp.waitFor(email);
      const url = new URL(mail.links[0]!);
      const res = await client().get(`/verify-email?token=${url.searchParams.get("token")}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: true, user: { email, emailVerified: true } });
    });

    it("refuses a forged token and an expired one, by redirect or JSON", async () => {
      const bad = await client().get("/verify-email?token=not.a.jwt");
      expect(bad.status).toBe(401);
      expect(bad.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
      const redirected = await client().get("/verify-email?token=nope&callbackURL=/verify-email");
      expect(redirected.status).toBe(302);
      expect(redirected.headers.get("location")).toBe("/verify-email?error=invalid_token");

      const { email } = await signUp(client());
      const mail = await smtp.waitFor(email);
      clock.advance(HOUR + 60_000);
      try {
        const expired = await client().get(pathOf(mail.links[0]!));
        expect(expired.status).toBe(302);
        expect(expired.headers.get("location")).toBe("/verify-email?error=token_expired");
        const token = new URL(mail.links[0]!).searchParams.get("token");
        const json = await client().get(`/verify-email?token=${token}`);
        expect(json.body).toEqual({ code: "TOKEN_EXPIRED", message: "Token expired" });
      } finally {
        clock.reset();
      }
    });

    it("refuses an untrusted callbackURL on the GET link too", async () => {
      const res = await client().get("/verify-email?token=x&callbackURL=https://evil.example/");
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("INVALID_CALLBACKURL");
    });

    it("POST /send-verification-email: mismatch and already-verified for the signed-in user", async () => {
      const c = client();
      const { email } = await signUp(c);
      await smtp.waitFor(email);
      const mismatch = await c.post("/send-verification-email", { email: "other@example.com" });
      expect(mismatch.body).toEqual({ code: "EMAIL_MISMATCH", message: "Email mismatch" });
      const again = await c.post("/send-verification-email", { email });
      expect(again.body).toEqual({ status: true });
      const mail = await smtp.waitFor(email);
      await c.get(pathOf(mail.links[0]!));
      const verified = await c.post("/send-verification-email", { email });
      expect(verified.status).toBe(400);
      expect(verified.body.code).toBe("EMAIL_IS_ALREADY_VERIFIED");
    });

    it("POST /send-verification-email without a session answers true for any address and mails only real ones", async () => {
      const { email } = await signUp(client());
      await smtp.waitFor(email);
      const known = await client().post("/send-verification-email", { email });
      const unknown = await client().post("/send-verification-email", { email: uniqueEmail("ghost") });
      expect(known.body).toEqual({ status: true });
      expect(unknown.body).toEqual({ status: true });
      await smtp.waitFor(email);
      const invalid = await client().post("/send-verification-email", { email: "nope" });
      expect(invalid.body.code).toBe("INVALID_EMAIL");
    });
  });

  describe("password reset", () => {
    async function requestReset(email: string, path = "/forget-password") {
      const res = await client().post(path, { email, redirectTo: "/reset-password" });
      expect(res.status).toBe(200);
      const mail = await smtp.waitFor(email, (m) => m.subject === "Reset your password");
      const link = mail.links.find((l) => l.includes("/api/auth/reset-password/"))!;
      const redirect = await client().get(pathOf(link));
      expect(redirect.status).toBe(302);
      const location = new URL(redirect.headers.get("location")!, ORIGIN);
      expect(location.pathname).toBe("/reset-password");
      return location.searchParams.get("token")!;
    }

    it("mails a link whose token sets a new password once, and signs the user out everywhere", async () => {
      const c = client();
      const { email } = await signUp(c);
      const token = await requestReset(email);
      expect(token).toMatch(/^[A-Za-z0-9]{24}$/);
      const res = await client().post("/reset-password", { token, newPassword: "a brand new password" });
      expect(res.body).toEqual({ status: true });
      expect((await c.get("/get-session")).body ?? null).toBeNull();
      const old = await client().post("/sign-in/email", { email, password: PASSWORD });
      expect(old.status).toBe(401);
      const fresh = await client().post("/sign-in/email", { email, password: "a brand new password" });
      expect(fresh.status).toBe(200);
      const twice = await client().post("/reset-password", { token, newPassword: "another password" });
      expect(twice.status).toBe(400);
      expect(twice.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    });

    it("accepts the token as a query parameter and through /request-password-reset", async () => {
      const { email } = await signUp(client());
      const answer = await client().post("/request-password-reset", { email });
      expect(answer.body).toMatchObject({ status: true, message: expect.any(String) });
      await smtp.waitFor(email, (m) => m.subject === "Reset your password");
      const token = await requestReset(email, "/request-password-reset");
      const res = await client().post(`/reset-password?token=${token}`, { newPassword: "query param password" });
      expect(res.body).toEqual({ status: true });
    });

    it("lets exactly one of two concurrent uses of a token win", async () => {
      const { email } = await signUp(client());
      const token = await requestReset(email);
      const results = await Promise.all([
        client().post("/reset-password", { token, newPassword: "first racer password" }),
        client().post("/reset-password", { token, newPassword: "second racer password" }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    });

    it("refuses an expired token and redirects an unknown one with error=INVALID_TOKEN", async () => {
      const { email } = await signUp(client());
      const token = await requestReset(email);
      clock.advance(HOUR + 1000);
      try {
        const res = await client().post("/reset-password", { token, newPassword: "too late password" });
        expect(res.body.code).toBe("INVALID_TOKEN");
        const link = await client().get(`/reset-password/${token}?callbackURL=/reset-password`);
        expect(link.headers.get("location")).toBe("/reset-password?error=INVALID_TOKEN");
      } finally {
        clock.reset();
      }
      const missing = await client().get(`/reset-password/${token}`);
      expect(missing.body).toEqual({ code: "CALLBACKURL_IS_REQUIRED", message: "callbackURL is required" });
      const evil = await client().get(`/reset-password/${token}?callbackURL=//evil.example`);
      expect(evil.status).toBe(403);
    });

    it("checks the new password's length before using the token", async () => {
      const { email } = await signUp(client());
      const token = await requestReset(email);
      const short = await client().post("/reset-password", { token, newPassword: "short" });
      expect(short.body.code).toBe("PASSWORD_TOO_SHORT");
      const ok = await client().post("/reset-password", { token, newPassword: "long enough now" });
      expect(ok.body).toEqual({ status: true });
    });

    it("answers status true for an unknown address and mails nothing", async () => {
      const ghost = uniqueEmail("ghost");
      const res = await client().post("/forget-password", { email: ghost });
      expect(res.body).toEqual({ status: true });
      await expect(smtp.waitFor(ghost, () => true, 800)).rejects.toThrow();
    });

    it("creates a credential account for a user who had none", async () => {
      const { email, user } = await signUp(client());
      const { stores } = server.gatehouse.runtime;
      const account = await stores.accounts.findCredentialAccount(user.id);
      await stores.accounts.deleteUserAccounts(user.id);
      expect(account).not.toBeNull();
      const token = await requestReset(email);
      await client().post("/reset-password", { token, newPassword: "password from reset" });
      expect((await stores.accounts.findCredentialAccount(user.id))?.password).toMatch(/^[0-9a-f]{32}:/);
    });

    it("stores no token when the mail cannot be sent", async () => {
      const { email, user } = await signUp(client());
      await smtp.waitFor(email);
      smtp.refuse(true);
      try {
        const res = await client().post("/forget-password", { email });
        expect(res.body).toEqual({ status: true });
        await new Promise((r) => setTimeout(r, 500));
      } finally {
        smtp.refuse(false);
      }
      const rows = await server.gatehouse.database.db
        .selectFrom("verification")
        .select("identifier")
        .where("value", "=", user.id)
        .execute();
      expect(rows.filter((r) => r.identifier.startsWith("reset-password:"))).toEqual([]);
    });
  });

  describe("POST /change-password", () => {
    it("checks the current password and the new one's length", async () => {
      const c = client();
      await signUp(c);
      const wrong = await c.post("/change-password", { currentPassword: "nope nope", newPassword: "new password 1" });
      expect(wrong.body).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
      const short = await c.post("/change-password", { currentPassword: PASSWORD, newPassword: "x" });
      expect(short.body.code).toBe("PASSWORD_TOO_SHORT");
      const ok = await c.post("/change-password", { currentPassword: PASSWORD, newPassword: "new password 1" });
      expect(ok.status).toBe(200);
      expect(ok.body.token).toBeNull();
      expect(ok.body.user.id).toBeTruthy();
    });

    it("with revokeOtherSessions signs out the others and returns the new session's token", async () => {
      const c = client();
      const { email } = await signUp(c);
      const other = client();
      await other.post("/sign-in/email", { email, password: PASSWORD });
      const res = await c.post("/change-password", {
        currentPassword: PASSWORD,
        newPassword: "rotated password",
        revokeOtherSessions: true,
      });
      expect(res.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
      expect((await other.get("/get-session")).body ?? null).toBeNull();
      expect((await c.get("/get-session")).body.session.token).toBe(res.body.token);
    });

    it("answers two renewals of one session sent at once without a 500: at most one new session", async () => {
      const c = client();
      const { email } = await signUp(c);
      // Both carry the same session cookie; each renewal takes the session's id (README "Security events").
      const change = (password: string) =>
        c.post("/change-password", { currentPassword: PASSWORD, newPassword: password, revokeOtherSessions: true });
      const answers = await Promise.all([change("first new password"), change("second new password")]);
      for (const answer of answers) expect([200, 400, 401], answer.text).toContain(answer.status);
      expect(answers.some((a) => a.status === 200)).toBe(true);
      const renewed = answers.filter((a) => a.status === 200).map((a) => a.body.token as string);
      const { stores } = server.gatehouse.runtime;
      const sessions = await stores.sessions.listUserSessions((await stores.users.findUserByEmail(email))!.id, new Date());
      expect(sessions.length).toBe(1);
      expect(renewed).toContain(sessions[0]!.token);
    });
  });

  describe("set-password (server-side API)", () => {
    it("sets a password once, then refuses with user already has a password", async () => {
      const c = client();
      const { user } = await signUp(c);
      await server.gatehouse.runtime.stores.accounts.deleteUserAccounts(user.id);
      const headers = { cookie: c.cookieHeader() };
      await expect(server.gatehouse.api.setPassword({ body: { newPassword: "server set password" }, headers })).resolves.toEqual({
        status: true,
      });
      await expect(
        server.gatehouse.api.setPassword({ body: { newPassword: "again password" }, headers }),
      ).rejects.toMatchObject({ status: 400, message: "user already has a password" });
      const res = await client().post("/set-password", { newPassword: "over http" });
      expect(res.status).toBe(404);
    });
  });

  describe("POST /change-email", () => {
    it("changes an unverified address at once and mails a verification to the new one", async () => {
      const c = client();
      await signUp(c);
      const next = uniqueEmail("next");
      const res = await c.post("/change-email", { newEmail: next });
      expect(res.body).toEqual({ status: true });
      expect((await c.get("/get-session")).body.user).toMatchObject({ email: next, emailVerified: false });
      const mail = await smtp.waitFor(next);
      expect(mail.subject).toBe("Verify your email address");
    });

    it("refuses the same address, a taken one and a malformed one", async () => {
      const c = client();
      const { email } = await signUp(c);
      const { email: taken } = await signUp(client());
      expect((await c.post("/change-email", { newEmail: email.toUpperCase() })).body).toEqual({
        code: "EMAIL_IS_THE_SAME",
        message: "Email is the same",
      });
      expect((await c.post("/change-email", { newEmail: taken })).body).toEqual({
        code: "COULDNT_UPDATE_YOUR_EMAIL",
        message: "Couldn't update your email",
      });
      expect((await c.post("/change-email", { newEmail: "bad" })).body.code).toBe("INVALID_EMAIL");
    });

    it("for a verified address mails the current one first, then changes and asks to verify the new one", async () => {
      const c = client();
      const { email } = await signUp(c);
      const first = await smtp.waitFor(email);
      await c.get(pathOf(first.links[0]!));
      const next = uniqueEmail("moved");
      expect((await c.post("/change-email", { newEmail: next })).body).toEqual({ status: true });
      expect((await c.get("/get-session")).body.user.email).toBe(email);
      const confirm = await smtp.waitFor(email, (m) => m.subject === "Confirm the change of your email address");
      expect(confirm.text).toContain(next);
      const done = await c.get(pathOf(confirm.links[0]!));
      expect(done.status).toBe(302);
      expect((await c.get("/get-session")).body.user).toMatchObject({ email: next, emailVerified: false });
      const verify = await smtp.waitFor(next);
      await c.get(pathOf(verify.links[0]!));
      expect((await c.get("/get-session")).body.user).toMatchObject({ email: next, emailVerified: true });
    });

    it("answers 503 and changes nothing when the confirmation cannot be mailed", async () => {
      const c = client();
      const { email } = await signUp(c);
      const first = await smtp.waitFor(email);
      await c.get(pathOf(first.links[0]!));
      smtp.refuse(true);
      try {
        const res = await c.post("/change-email", { newEmail: uniqueEmail() });
        expect(res.status).toBe(503);
      } finally {
        smtp.refuse(false);
      }
      expect((await c.get("/get-session")).body.user.email).toBe(email);
    });
  });

  it("answers 400 Credential account not found to change-password and delete-user by password for a user without one", async () => {
    const c = client();
    const { user } = await signUp(c);
    // As after a social sign-up: the user has no password of their own.
    await server.gatehouse.runtime.stores.accounts.deleteUserAccounts(user.id);
    const change = await c.post("/change-password", { currentPassword: PASSWORD, newPassword: "new password 1" });
    expect(change.status).toBe(400);
    expect(change.body).toEqual({ code: "CREDENTIAL_ACCOUNT_NOT_FOUND", message: "Credential account not found" });
    const remove = await c.post("/delete-user", { password: PASSWORD });
    expect(remove.status).toBe(400);
    expect(remove.body).toEqual({ code: "CREDENTIAL_ACCOUNT_NOT_FOUND", message: "Credential account not found" });
    expect(await server.gatehouse.runtime.stores.users.findUserById(user.id)).not.toBeNull();
  });

  describe("POST /delete-user", () => {
    it("deletes with the right password, clears cookies, and removes sessions and accounts", async () => {
      const c = client();
      const { user } = await signUp(c);
      const wrong = await c.post("/delete-user", { password: "wrong password" });
      expect(wrong.body.code).toBe("INVALID_PASSWORD");
      const res = await c.post("/delete-user", { password: PASSWORD });
      expect(res.body).toEqual({ success: true, message: "User deleted" });
      expect(res.setCookies.some((x) => x.startsWith("better-auth.session_token=;"))).toBe(true);
      const { stores } = server.gatehouse.runtime;
      expect(await stores.users.findUserById(user.id)).toBeNull();
      expect(await stores.accounts.listUserAccounts(user.id)).toEqual([]);
    });

    it("in two steps: mails a 32-character token that deletes through the link", async () => {
      const c = client();
      const { email, user } = await signUp(c);
      await smtp.waitFor(email);
      const res = await c.post("/delete-user", { callbackURL: "/goodbye" });
      expect(res.body).toEqual({ success: true, message: "Verification email sent" });
      const mail = await smtp.waitFor(email, (m) => m.subject === "Confirm the deletion of your account");
      const link = mail.links.find((l) => l.includes("/delete-user/callback"))!;
      expect(new URL(link).searchParams.get("token")).toMatch(/^[a-z0-9]{32}$/);
      // Someone else's session cannot use it.
      const stranger = client();
      await signUp(stranger);
      const refused = await stranger.get(pathOf(link));
      expect(refused.headers.get("location")).toBe("/goodbye?error=invalid_token");
      const done = await c.get(pathOf(link));
      expect(done.status).toBe(302);
      expect(done.headers.get("location")).toBe("/goodbye?deleted=true");
      expect(await server.gatehouse.runtime.stores.users.findUserById(user.id)).toBeNull();
    });

    it("never accepts a token made for another purpose", async () => {
      const c = client();
      const { email } = await signUp(c);
      const verifyMail = await smtp.waitFor(email);
      const verifyToken = new URL(verifyMail.links[0]!).searchParams.get("token")!;
      await c.post("/delete-user", {});
      const mail = await smtp.waitFor(email, (m) => m.subject === "Confirm the deletion of your account");
      const deleteToken = new URL(mail.links.find((l) => l.includes("delete-user"))!).searchParams.get("token")!;
      const asReset = await client().post("/reset-password", { token: deleteToken, newPassword: "not allowed pw" });
      expect(asReset.body.code).toBe("INVALID_TOKEN");
      const asVerify = await client().get(`/verify-email?token=${deleteToken}`);
      expect(asVerify.body.code).toBe("INVALID_TOKEN");

      await client().post("/forget-password", { email });
      const reset = await smtp.waitFor(email, (m) => m.subject === "Reset your password");
      const resetToken = new URL(reset.links[0]!).pathname.split("/").pop()!;
      expect((await c.post("/delete-user", { token: resetToken })).body.code).toBe("INVALID_TOKEN");
      expect((await c.post("/delete-user", { token: verifyToken })).body.code).toBe("INVALID_TOKEN");
      expect((await client().post("/reset-password", { token: verifyToken, newPassword: "nope nope nope" })).body.code).toBe(
        "INVALID_TOKEN",
      );
      expect((await c.get("/get-session")).body.user.email).toBe(email);
      // The reset token still works for its own purpose.
      expect((await client().post("/reset-password", { token: resetToken, newPassword: "finally reset" })).body).toEqual({
        status: true,
      });
    });
  });

  describe("languages", () => {
    it("writes mail in the user's saved language, else the request's, else English", async () => {
      const german = uniqueEmail("de");
      await client().post("/sign-up/email", { name: "Jürgen", email: german, password: PASSWORD, lang: 6 });
      expect((await smtp.waitFor(german)).subject).toBe("Bestätige deine E-Mail-Adresse");

      const french = uniqueEmail("fr");
      await client().post(
        "/sign-up/email",
        { name: "Amélie", email: french, password: PASSWORD },
        { headers: { "accept-language": "fr-CA,fr;q=0.9,en;q=0.5" } },
      );
      const mail = await smtp.waitFor(french);
      expect(mail.subject).toBe("Vérifiez votre adresse e-mail");
      expect(mail.text.replace(/\s/g, " ")).toContain("1 heure");

      const fallback = uniqueEmail("xx");
      await client().post("/sign-up/email", { name: "X", email: fallback, password: PASSWORD }, { headers: { "accept-language": "ja" } });
      expect((await smtp.waitFor(fallback)).subject).toBe("Verify your email address");

      const c = client();
      const { email } = await signUp(c);
      await smtp.waitFor(email);
      expect((await c.post("/update-user", { lang: "tr" })).status).toBe(200);
      await c.post("/send-verification-email", { email });
      expect((await smtp.waitFor(email)).subject).toBe("E-posta adresinizi doğrulayın");
      expect((await c.post("/update-user", { lang: "xx" })).status).toBe(400);
    });
  });
});

describe("mail-dependent settings", () => {
  let server: TestServer;
  let smtp: TestSmtp;
  const clock = manualClock();
  beforeAll(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer(
      "sqlite",
      {
        email: { smtpUrl: smtp.url },
        emailAndPassword: { requireEmailVerification: true },
        emailVerification: { autoSignInAfterVerification: true },
        user: { deleteUser: { enabled: true, sendDeleteAccountVerification: false } },
      },
      { now: clock.now },
    );
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it("refuses an unverified sign-in with 403 and mails a new link; the link then signs the user in", async () => {
    const email = uniqueEmail();
    const signUpRes = await new TestClient(server.base).post("/sign-up/email", { name: "V", email, password: PASSWORD });
    expect(signUpRes.body.token).toBeNull();
    await smtp.waitFor(email);
    const res = await new TestClient(server.base).post("/sign-in/email", { email, password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "EMAIL_NOT_VERIFIED", message: "Email not verified" });
    const mail = await smtp.waitFor(email);
    const c = new TestClient(server.base);
    const verified = await c.get(pathOf(mail.links[0]!));
    expect(verified.status).toBe(302);
    expect((await c.get("/get-session")).body.user).toMatchObject({ email, emailVerified: true });
  });

  it("deletes with a fresh session, and refuses a stale one with Session expired", async () => {
    const email = uniqueEmail();
    // Signed up and verified in the same browser (the registrant's), so the password stays.
    const c = new TestClient(server.base);
    await c.post("/sign-up/email", { name: "D", email, password: PASSWORD });
    const mail = await smtp.waitFor(email);
    await c.get(pathOf(mail.links[0]!));
    clock.advance(2 * 86_400_000);
    try {
      const stale = await c.post("/delete-user", {});
      expect(stale.status).toBe(400);
      expect(stale.body.message).toBe("Session expired. Re-authenticate to perform this action.");
    } finally {
      clock.reset();
    }
    const fresh = new TestClient(server.base);
    await fresh.post("/sign-in/email", { email, password: PASSWORD });
    expect((await fresh.post("/delete-user", {})).body).toEqual({ success: true, message: "User deleted" });
  });

  it("answers 404 for deletion when it is not enabled", async () => {
    const other = await startTestServer("sqlite", { email: { smtpUrl: smtp.url } });
    try {
      const c = new TestClient(other.base);
      await signUp(c);
      const res = await c.post("/delete-user", { password: PASSWORD });
      expect(res.status).toBe(404);
    } finally {
      await other.close();
    }
  });
});

import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, resolveConfig } from "../src/config/index.js";
import { renderCodeMail } from "../src/email/templates.js";
import { LANGUAGES } from "../src/email/language.js";
import { tokenHash, twoFactorKeys } from "../src/two-factor/secrets.js";
import { matchTotpStep, newTotpSecret, totpCode } from "../src/two-factor/totp.js";
import { manualClock } from "./helpers/clock.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, type TestResponse } from "./helpers/http-client.js";
import { startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";
import { startTestSmtp, type TestSmtp } from "./helpers/smtp.js";

/**
 * Issue #15 items 1, 2, 3 and 7 (second factors): TOTP (RFC 6238), backup codes, the email code, trusted devices,
 * step-up, through the real HTTP API with a real SMTP catcher, on SQLite and PostgreSQL. The ways in that meet the
 * second step are in two-factor-ways-in.test.ts.
 */
const PARAMS = { digits: 6, period: 30 };
const STEP = 30_000;
const PENDING = "better-auth.two_factor";
const SESSION = "better-auth.session_token";
const TRUST = "better-auth.trust_device";
/** A mail carrying a code (sign-up also mails a verification link to the same address). */
const isCodeMail = (mail: { text: string }) => /^\s*\d{6}\s*$/m.test(mail.text);

describe("RFC 6238 test vectors (SHA-1, 8 digits, 30 s) through otpauth", () => {
  // RFC 6238 appendix B: the seed is the ASCII string "12345678901234567890".
  const secret = Secret.fromUTF8("12345678901234567890").base32;
  const vectors: [number, string][] = [
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ];

  it.each(vectors)("at %i s the code is %s", (seconds, expected) => {
    const at = new Date(seconds * 1000);
    expect(totpCode(secret, { digits: 8, period: 30 }, at)).toBe(expected);
    // And the check answers the RFC's time step (T = floor(t / 30)) for it, and none for a neighbour's digits.
    expect(matchTotpStep(secret, expected, { digits: 8, period: 30 }, at)).toBe(Math.floor(seconds / 30));
    expect(matchTotpStep(secret, String((Number(expected) + 1) % 1e8).padStart(8, "0"), { digits: 8, period: 30 }, at)).toBeNull();
  });

  it("accepts the previous and next step's code and nothing further (clock drift)", () => {
    const at = new Date(1_111_111_111_000);
    const step = Math.floor(at.getTime() / STEP);
    const codeAt = (offset: number) => TOTP.generate({ secret: Secret.fromBase32(secret), digits: 6, timestamp: at.getTime() + offset * STEP });
    expect(matchTotpStep(secret, codeAt(-1), PARAMS, at)).toBe(step - 1);
    expect(matchTotpStep(secret, codeAt(1), PARAMS, at)).toBe(step + 1);
    expect(matchTotpStep(secret, codeAt(2), PARAMS, at)).toBeNull();
    expect(matchTotpStep(secret, "12345", PARAMS, at)).toBeNull();
    expect(matchTotpStep(secret, "abcdef", PARAMS, at)).toBeNull();
  });
});

describe("twoFactor options", () => {
  it("default as documented and refuse a pending step shorter than 60 s", () => {
    const config = resolveConfig({ secret: "x".repeat(32) }, { nodeEnv: "test" });
    expect(config.twoFactor).toMatchObject({
      enabled: true,
      issuer: "Gatehouse",
      totpOptions: { digits: 6, period: 30 },
      otpOptions: { period: 3, digits: 6, allowedAttempts: 5 },
      backupCodeOptions: { amount: 10, length: 10 },
      twoFactorCookieMaxAge: 300,
      trustDeviceMaxAge: 2_592_000,
    });
    expect(config.cookieNames).toMatchObject({ twoFactor: "better-auth.two_factor", trustDevice: "better-auth.trust_device" });
    expect(() => resolveConfig({ secret: "x".repeat(32), twoFactor: { twoFactorCookieMaxAge: 59 } })).toThrow(ConfigError);
    expect(() => resolveConfig({ secret: "x".repeat(32), twoFactor: { twoFactorCookieMaxAge: 59 } })).toThrow(
      /options\.twoFactor\.twoFactorCookieMaxAge/,
    );
    expect(() => resolveConfig({ secret: "x".repeat(32), twoFactor: { totpOptions: { digits: 7 as 6 } } })).toThrow(ConfigError);
  });
});

describe("the second step's code mail", () => {
  it.each(LANGUAGES)("is written in %s, the code on a line of its own and never in the subject", (language) => {
    for (const kind of ["twoFactorSignIn", "twoFactorEnrol"] as const) {
      const mail = renderCodeMail(kind, language, { name: "Ada", email: "ada@example.com", code: "482913", expiresIn: 180 });
      expect(mail.text).toMatch(/^\s+482913$/m);
      expect(mail.html).toContain("482913");
      expect(mail.subject).not.toContain("482913");
      expect(mail.html).toContain(`lang="${language}"`);
      if (language !== "en") {
        const english = renderCodeMail(kind, "en", { name: "Ada", email: "ada@example.com", code: "482913", expiresIn: 180 });
        expect(mail.subject).not.toBe(english.subject);
      }
    }
  });
});

describe.each(DIALECTS)("second factors on %s", (dialect) => {
  let server: TestServer;
  let smtp: TestSmtp;
  const clock = manualClock();

  beforeAll(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer(
      dialect,
      { email: { smtpUrl: smtp.url }, twoFactor: { twoFactorCookieMaxAge: 60, issuer: "Gatehouse Test" } },
      { now: clock.now },
    );
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const stores = () => server.gatehouse.runtime.stores;
  const db = () => server.gatehouse.database.db as any;
  const client = () => new TestClient(server.base);
  const code = (secret: string) => totpCode(secret, PARAMS, clock.now());
  /** Moves past the current time step: the code just used is spent, the next one is new. */
  const nextStep = () => clock.advance(STEP);
  const secretOf = (uri: string) => new URL(uri).searchParams.get("secret")!;
  const mailedCode = async (email: string) => {
    const mail = await smtp.waitFor(email, isCodeMail);
    return /^\s*(\d{6})\s*$/m.exec(mail.text)![1]!;
  };
  const sessionOf = async (token: string) => (await stores().sessions.findSessionAndUser(token))?.session;
  const sessionCount = async (userId: string) => (await stores().sessions.listUserSessions(userId, clock.now())).length;
  /** The attempts counted against the pending step a client's cookie names. */
  const attemptsOf = async (c: TestClient) => {
    const token = decodeURIComponent(c.cookie(PENDING)!).split(".")[0]!;
    const row = await db().selectFrom("twoFactorChallenge").select("attempts").where("id", "=", tokenHash(token)).executeTakeFirst();
    return row ? Number(row.attempts) : null;
  };

  /** A user with a confirmed authenticator (the client holds their session); the step used is spent. */
  async function enrolled(overrides: Record<string, unknown> = {}) {
    const c = client();
    const { email, user } = await signUp(c, overrides);
    const enable = await c.post("/two-factor/enable", { password: PASSWORD });
    expect(enable.status, enable.text).toBe(200);
    const secret = secretOf(enable.body.totpURI);
    const confirmed = await c.post("/two-factor/verify-totp", { code: code(secret) });
    expect(confirmed.status, confirmed.text).toBe(200);
    nextStep();
    return { c, email, userId: user.id as string, secret, backupCodes: enable.body.backupCodes as string[] };
  }

  /** A password sign-in that meets the second step; the client then holds only the pending cookie. */
  async function pending(email: string, c = client(), methods: string[] = ["totp"]) {
    const res = await c.post("/sign-in/email", { email, password: PASSWORD });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: methods });
    return c;
  }

  const expectSignedIn = async (res: TestResponse, c: TestClient, email: string) => {
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ token: expect.any(String), user: { email, twoFactorEnabled: true } });
    expect(c.cookie(PENDING)).toBeUndefined();
    const current = await c.get("/get-session");
    expect(current.body?.session?.token).toBe(res.body.token);
    return res.body.token as string;
  };

  describe("enrolling an authenticator", () => {
    it("needs the password, answers the otpauth URI and ten backup codes, and keeps the secret sealed and the codes hashed", async () => {
      const c = client();
      const { email, user } = await signUp(c);
      for (const body of [{}, { password: "wrong password" }]) {
        const refused = await c.post("/two-factor/enable", body);
        expect(refused.status).toBe(400);
        expect(refused.body).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
      }
      const res = await c.post("/two-factor/enable", { password: PASSWORD });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.body.method).toBe("totp");
      const uri = new URL(res.body.totpURI);
      expect(uri.protocol).toBe("otpauth:");
      expect(uri.host + decodeURIComponent(uri.pathname)).toBe(`totp/Gatehouse Test:${email}`);
      expect(uri.searchParams.get("issuer")).toBe("Gatehouse Test");
      expect(uri.searchParams.get("digits")).toBe("6");
      expect(uri.searchParams.get("period")).toBe("30");
      const secret = secretOf(res.body.totpURI);
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(res.body.backupCodes).toHaveLength(10);
      for (const backup of res.body.backupCodes) expect(backup).toMatch(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/);
      expect(new Set(res.body.backupCodes).size).toBe(10);

      // Not on until a code confirms it.
      expect((await c.get("/get-session")).body.user.twoFactorEnabled).toBe(false);
      const row = await db().selectFrom("twoFactor").selectAll().where("userId", "=", user.id).executeTakeFirst();
      expect(row.secret).toMatch(/^gh2fa1:[A-Za-z0-9_-]+$/);
      expect(JSON.stringify(row)).not.toContain(secret);
      const stored = await db().selectFrom("twoFactorBackupCode").selectAll().where("userId", "=", user.id).execute();
      expect(stored).toHaveLength(10);
      const dump = JSON.stringify(stored);
      for (const backup of res.body.backupCodes as string[]) {
        expect(dump).not.toContain(backup);
        expect(dump).not.toContain(backup.replace("-", ""));
      }
    });

    it("confirms with a code: two-factor on, the session replaced (the answer carries the new token), factors recorded", async () => {
      const c = client();
      const { email, user } = await signUp(c);
      const before = c.cookie(SESSION)!;
      const oldToken = (await c.get("/get-session")).body.session.token;
      const enable = await c.post("/two-factor/enable", { password: PASSWORD });
      const secret = secretOf(enable.body.totpURI);
      const res = await c.post("/two-factor/verify-totp", { code: code(secret) });
      expect(res.status, res.text).toBe(200);
      expect(res.body.user).toMatchObject({ email, twoFactorEnabled: true });
      expect(res.body.token).not.toBe(oldToken);
      expect(c.cookie(SESSION)).not.toBe(before);
      expect(await sessionOf(oldToken)).toBeUndefined();
      const current = await c.get("/get-session");
      expect(current.body.session.token).toBe(res.body.token);
      expect(current.body.user.twoFactorEnabled).toBe(true);
      expect((await sessionOf(res.body.token))?.factors).toEqual(["password", "totp"]);
      expect(await sessionCount(user.id)).toBe(1);
      // Enabling again while confirmed: Better Auth's code.
      const again = await c.post("/two-factor/enable", { password: PASSWORD });
      expect(again.status).toBe(400);
      expect(again.body.code).toBe("TOTP_ALREADY_ENABLED");
    });

    it("caps the enrolment's codes: the fifth wrong one discards it and the right code is refused after it", async () => {
      const c = client();
      await signUp(c);
      const enable = await c.post("/two-factor/enable", { password: PASSWORD });
      const secret = secretOf(enable.body.totpURI);
      const wrong = String((Number(code(secret)) + 500_000) % 1_000_000).padStart(6, "0");
      for (let i = 1; i <= 4; i++) {
        const res = await c.post("/two-factor/verify-totp", { code: wrong });
        expect(res.status).toBe(401);
        expect(res.body.code).toBe("INVALID_CODE");
      }
      const fifth = await c.post("/two-factor/verify-totp", { code: wrong });
      expect(fifth.status).toBe(400);
      expect(fifth.body.code).toBe("TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE");
      const right = await c.post("/two-factor/verify-totp", { code: code(secret) });
      expect(right.status).toBe(400);
      expect(right.body.code).toBe("TOTP_NOT_ENABLED");
      expect((await c.get("/get-session")).body.user.twoFactorEnabled).toBe(false);
      // A new enrolment starts over with a new secret.
      const restart = await c.post("/two-factor/enable", { password: PASSWORD });
      expect(secretOf(restart.body.totpURI)).not.toBe(secret);
      expect((await c.post("/two-factor/verify-totp", { code: code(secretOf(restart.body.totpURI)) })).status).toBe(200);
    });

    it("answers get-totp-uri with the configured issuer, with the password only", async () => {
      const { c, secret, email } = await enrolled();
      expect((await c.post("/two-factor/get-totp-uri", {})).body.code).toBe("INVALID_PASSWORD");
      const res = await c.post("/two-factor/get-totp-uri", { password: PASSWORD });
      expect(res.status).toBe(200);
      expect(secretOf(res.body.totpURI)).toBe(secret);
      const uri = new URL(res.body.totpURI);
      expect(uri.host + decodeURIComponent(uri.pathname)).toBe(`totp/Gatehouse Test:${email}`);
    });
  });

  describe("the second step with an authenticator", () => {
    it("diverts a password sign-in: no session, the pending cookie for twoFactorCookieMaxAge, then a code opens the session", async () => {
      const { email, userId, secret } = await enrolled();
      const c = client();
      const before = await sessionCount(userId);
      const res = await c.post("/sign-in/email", { email, password: PASSWORD, rememberMe: false });
      expect(res.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
      const pendingLine = res.setCookies.find((line) => line.startsWith(`${PENDING}=`))!;
      expect(pendingLine).toMatch(/Max-Age=60; Path=\/; HttpOnly; SameSite=Lax/);
      expect(res.setCookies.some((line) => line.startsWith(`${SESSION}=;`) && /Max-Age=0/.test(line))).toBe(true);
      expect(res.setCookies.some((line) => line.startsWith("better-auth.last_used_login_method="))).toBe(false);
      expect(await sessionCount(userId)).toBe(before);
      expect((await c.get("/get-session")).body ?? null).toBeNull();
      // The challenge is stored under the hash of the cookie's token, never the token.
      const token = decodeURIComponent(c.cookie(PENDING)!).split(".")[0]!;
      expect(await db().selectFrom("twoFactorChallenge").select("id").where("id", "=", token).executeTakeFirst()).toBeUndefined();
      const stored = await db().selectFrom("twoFactorChallenge").selectAll().where("id", "=", tokenHash(token)).executeTakeFirst();
      expect(stored).toMatchObject({ kind: "sign-in", userId, method: "email", attempts: 0 });

      const verified = await c.post("/two-factor/verify-totp", { code: code(secret) });
      const sessionToken = await expectSignedIn(verified, c, email);
      const session = await sessionOf(sessionToken);
      expect(session?.loginMethod).toBe("email");
      expect(session?.factors).toEqual(["password", "totp"]);
      // remember-me off survives the second step: a browser-session cookie and a one-day session.
      const line = verified.setCookies.find((l) => l.startsWith(`${SESSION}=`))!;
      expect(line).not.toMatch(/Max-Age/);
      expect(session!.expiresAt.getTime() - clock.now().getTime()).toBeLessThanOrEqual(86_400_000);
      expect(verified.setCookies.some((l) => l.startsWith("better-auth.last_used_login_method=email"))).toBe(true);
    });

    it("refuses a code accepted once for the rest of its window (replay), on another challenge too", async () => {
      const { email, secret } = await enrolled();
      const first = await pending(email);
      const used = code(secret);
      await expectSignedIn(await first.post("/two-factor/verify-totp", { code: used }), first, email);
      const second = await pending(email);
      const replay = await second.post("/two-factor/verify-totp", { code: used });
      expect(replay.status).toBe(401);
      expect(replay.body).toEqual({ code: "INVALID_CODE", message: "Invalid code" });
      // Counted as an attempt, as any wrong code.
      expect(await attemptsOf(second)).toBe(1);
      // The code of the enrolment's step was spent by the enrolment too.
      nextStep();
      await expectSignedIn(await second.post("/two-factor/verify-totp", { code: code(secret) }), second, email);
    });

    it("ends the challenge at the fifth wrong code: the right code is refused after it", async () => {
      const { email, secret } = await enrolled();
      const c = await pending(email);
      const wrong = String((Number(code(secret)) + 1) % 1_000_000).padStart(6, "0");
      for (let i = 1; i <= 4; i++) expect((await c.post("/two-factor/verify-totp", { code: wrong })).body.code).toBe("INVALID_CODE");
      const fifth = await c.post("/two-factor/verify-totp", { code: wrong });
      expect(fifth.status).toBe(400);
      expect(fifth.body.code).toBe("TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE");
      expect(c.cookie(PENDING)).toBeUndefined();
      // Even with the cookie kept by a client that ignores the expiry, the challenge is gone.
      const kept = client();
      await pending(email, kept);
      const token = kept.cookie(PENDING)!;
      for (let i = 1; i <= 5; i++) await kept.post("/two-factor/verify-totp", { code: wrong });
      kept.jar.set(PENDING, token);
      const right = await kept.post("/two-factor/verify-totp", { code: code(secret) });
      expect(right.status).toBe(401);
      expect(right.body.code).toBe("INVALID_TWO_FACTOR_COOKIE");
      expect(kept.cookie(SESSION)).toBeUndefined();
    });

    it("refuses an expired challenge (twoFactorCookieMaxAge 60 s)", async () => {
      const { email, secret } = await enrolled();
      const c = await pending(email);
      const token = c.cookie(PENDING)!;
      clock.advance(61_000);
      c.jar.set(PENDING, token); // a browser would have dropped it; the service must refuse it anyway
      const res = await c.post("/two-factor/verify-totp", { code: code(secret) });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("INVALID_TWO_FACTOR_COOKIE");
      expect(res.setCookies.some((line) => line.startsWith(`${PENDING}=;`) && /Max-Age=0/.test(line))).toBe(true);
      expect(c.cookie(SESSION)).toBeUndefined();
    });

    it("sweeps the challenges that are over from later sign-ins (every read refuses them meanwhile)", async () => {
      const { email, userId, secret } = await enrolled();
      const c = await pending(email);
      const challenges = async () =>
        (await db().selectFrom("twoFactorChallenge").select("id").where("userId", "=", userId).execute()).map((r: { id: string }) => r.id);
      const first = await challenges();
      expect(first).toHaveLength(1);
      clock.advance(61_000);
      expect((await c.post("/two-factor/verify-totp", { code: code(secret) })).body.code).toBe("INVALID_TWO_FACTOR_COOKIE");
      // Another sign-in, a minute on: the expired challenge is gone, the new one is there.
      const d = await pending(email);
      const second = await challenges();
      expect(second).toHaveLength(1);
      expect(second).not.toEqual(first);
      await expectSignedIn(await d.post("/two-factor/verify-totp", { code: code(secret) }), d, email);
      expect(await challenges()).toEqual([]);
    });

    it("refuses a forged or missing pending cookie", async () => {
      const c = client();
      const missing = await c.post("/two-factor/verify-totp", { code: "123456" });
      expect(missing.status).toBe(401);
      expect(missing.body.code).toBe("INVALID_TWO_FACTOR_COOKIE");
      c.jar.set(PENDING, encodeURIComponent(`forged.${"A".repeat(43)}=`));
      expect((await c.post("/two-factor/verify-totp", { code: "123456" })).body.code).toBe("INVALID_TWO_FACTOR_COOKIE");
    });

    it("ends a pending second step when the browser signs out: its cookie expires, its row goes, and a kept cookie is refused", async () => {
      const { email, secret } = await enrolled();
      const c = await pending(email);
      const kept = c.cookie(PENDING)!;
      const id = tokenHash(decodeURIComponent(kept).split(".")[0]!);
      expect(await db().selectFrom("twoFactorChallenge").select("id").where("id", "=", id).executeTakeFirst()).toBeDefined();
      const out = await c.post("/sign-out", {});
      expect(out.status, out.text).toBe(200);
      expect(out.setCookies.some((line) => line.startsWith(`${PENDING}=;`) && /Max-Age=0/.test(line))).toBe(true);
      expect(c.cookie(PENDING)).toBeUndefined();
      expect(await db().selectFrom("twoFactorChallenge").select("id").where("id", "=", id).executeTakeFirst()).toBeUndefined();
      // A client that kept the cookie gets no session with the right code.
      c.jar.set(PENDING, kept);
      const late = await c.post("/two-factor/verify-totp", { code: code(secret) });
      expect(late.status).toBe(401);
      expect(late.body.code).toBe("INVALID_TWO_FACTOR_COOKIE");
      expect(c.cookie(SESSION)).toBeUndefined();
    });

    it("counts a right code with the wrong ones sent at the same moment: it gets through only within the attempts left", async () => {
      const { email, userId, secret } = await enrolled();
      const c = await pending(email);
      const right = code(secret);
      const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");
      for (let i = 1; i <= 4; i++) expect((await c.post("/two-factor/verify-totp", { code: wrong })).body.code).toBe("INVALID_CODE");
      // One attempt left, eleven codes at once: the right one passes only if it is the one counted.
      const answers = await Promise.all(
        [...Array.from({ length: 10 }, () => wrong), right].map((answer) => c.post("/two-factor/verify-totp", { code: answer })),
      );
      expect(answers.filter((r) => r.status >= 500)).toEqual([]);
      const passed = answers.filter((r) => r.status === 200);
      expect(passed.length).toBeLessThanOrEqual(1);
      if (passed.length === 1) expect(answers.some((r) => r.body.code === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE")).toBe(false);
      expect(await sessionCount(userId)).toBe(1 + passed.length);
    });

    it("checks at the answer the secret as it is then, not as the sign-in read it", async () => {
      const { email, userId, secret } = await enrolled();
      const c = await pending(email);
      // Another authenticator's secret written meanwhile (another tool, or an administrator's fix).
      const replaced = newTotpSecret();
      const sealed = twoFactorKeys(TEST_SECRET).sealSecret(userId, replaced);
      await db().updateTable("twoFactor").set({ secret: sealed }).where("userId", "=", userId).execute();
      const old = await c.post("/two-factor/verify-totp", { code: code(secret) });
      expect(old.status).toBe(401);
      expect(old.body.code).toBe("INVALID_CODE");
      await expectSignedIn(await c.post("/two-factor/verify-totp", { code: code(replaced) }), c, email);
    });

    it("refuses a user banned between the password and the code, and signs in the user as they are at the answer", async () => {
      const { email, userId, secret } = await enrolled();
      const c = await pending(email);
      await stores().users.updateUser(userId, { banned: true, updatedAt: clock.now() });
      const refused = await c.post("/two-factor/verify-totp", { code: code(secret) });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("BANNED_USER");
      expect(await sessionCount(userId)).toBe(1); // the enrolment's
      // Unbanned and renamed meanwhile: the session is the user's as they are now (the refused code spent nothing).
      await stores().users.updateUser(userId, { banned: false, name: "Renamed meanwhile", updatedAt: clock.now() });
      const res = await c.post("/two-factor/verify-totp", { code: code(secret) });
      await expectSignedIn(res, c, email);
      expect(res.body.user.name).toBe("Renamed meanwhile");
      expect((await c.get("/get-session")).body.user.name).toBe("Renamed meanwhile");
    });

    it("answers a pending sign-in another instance started (on the same database)", async () => {
      const other = await startTestServer(
        dialect,
        { email: { smtpUrl: smtp.url }, twoFactor: { twoFactorCookieMaxAge: 60, issuer: "Gatehouse Test" } },
        { now: clock.now, database: server.database },
      );
      try {
        const { email, userId, secret } = await enrolled();
        const c = await pending(email);
        const there = new TestClient(other.base);
        there.jar.set(PENDING, c.cookie(PENDING)!);
        const wrong = String((Number(code(secret)) + 1) % 1_000_000).padStart(6, "0");
        expect((await there.post("/two-factor/verify-totp", { code: wrong })).body.code).toBe("INVALID_CODE");
        expect(await attemptsOf(c)).toBe(1);
        await expectSignedIn(await there.post("/two-factor/verify-totp", { code: code(secret) }), there, email);
        // Ended there: the instance that started it finds it gone.
        expect((await c.post("/two-factor/verify-totp", { code: code(secret) })).body.code).toBe("INVALID_TWO_FACTOR_COOKIE");
        expect(await sessionCount(userId)).toBe(2);
      } finally {
        await other.close();
      }
    });

    it("gives exactly one success to twenty concurrent redemptions of one code on one challenge", async () => {
      const { email, userId, secret } = await enrolled();
      const c = await pending(email);
      const right = code(secret);
      const answers = await Promise.all(Array.from({ length: 20 }, () => c.post("/two-factor/verify-totp", { code: right })));
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      expect(answers.filter((r) => r.status >= 500)).toEqual([]);
      // The session is written with the step's acceptance: the answers that lost wrote none.
      expect(await sessionCount(userId)).toBe(2); // the enrolment's session and the one that got through
    });

    it("gives exactly one success to twenty concurrent redemptions of one code on twenty challenges", async () => {
      const { email, userId, secret } = await enrolled();
      const clients = await Promise.all(Array.from({ length: 20 }, () => pending(email)));
      const right = code(secret);
      const answers = await Promise.all(clients.map((c) => c.post("/two-factor/verify-totp", { code: right })));
      expect(answers.map((r) => r.status).filter((s) => s === 200)).toHaveLength(1);
      expect(answers.filter((r) => r.status !== 200).every((r) => r.body.code === "INVALID_CODE")).toBe(true);
      expect(await sessionCount(userId)).toBe(2); // the enrolment's session and the one that got through
    });
  });

  describe("backup codes", () => {
    it("answer the second step once each, with or without the hyphen, and are not shown again", async () => {
      const { email, userId, backupCodes } = await enrolled();
      const c = await pending(email);
      const used = await c.post("/two-factor/verify-backup-code", { code: backupCodes[0] });
      const token = await expectSignedIn(used, c, email);
      expect((await sessionOf(token))?.factors).toEqual(["password", "backup-code"]);
      const again = await pending(email);
      const reused = await again.post("/two-factor/verify-backup-code", { code: backupCodes[0] });
      expect(reused.status).toBe(401);
      expect(reused.body).toEqual({ code: "INVALID_BACKUP_CODE", message: "Invalid backup code" });
      await expectSignedIn(await again.post("/two-factor/verify-backup-code", { code: backupCodes[1]!.replace("-", "") }), again, email);
      expect(await stores().twoFactorBackupCodes.countBackupCodes(userId)).toBe(8);
    });

    it("give exactly one success to twenty concurrent redemptions of one code on twenty challenges", async () => {
      const { email, userId, backupCodes } = await enrolled();
      const clients = await Promise.all(Array.from({ length: 20 }, () => pending(email)));
      const answers = await Promise.all(clients.map((c) => c.post("/two-factor/verify-backup-code", { code: backupCodes[3] })));
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      expect(answers.filter((r) => r.status !== 200).every((r) => r.body.code === "INVALID_BACKUP_CODE")).toBe(true);
      expect(await stores().twoFactorBackupCodes.countBackupCodes(userId)).toBe(9);
    });

    it("are replaced by generate-backup-codes, with the password only", async () => {
      const { c, email, backupCodes } = await enrolled();
      for (const body of [{}, { password: "nope nope nope" }]) {
        expect((await c.post("/two-factor/generate-backup-codes", body)).body.code).toBe("INVALID_PASSWORD");
      }
      const res = await c.post("/two-factor/generate-backup-codes", { password: PASSWORD });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe(true);
      expect(res.body.backupCodes).toHaveLength(10);
      expect(res.body.backupCodes).not.toContain(backupCodes[0]);
      const old = await pending(email);
      expect((await old.post("/two-factor/verify-backup-code", { code: backupCodes[0] })).status).toBe(401);
      await expectSignedIn(await old.post("/two-factor/verify-backup-code", { code: res.body.backupCodes[0] }), old, email);
    });

    it("cannot be generated without a second factor", async () => {
      const c = client();
      await signUp(c);
      const res = await c.post("/two-factor/generate-backup-codes", { password: PASSWORD });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "TWO_FACTOR_NOT_ENABLED", message: "Two factor isn't enabled" });
    });
  });

  describe("the email code", () => {
    async function enrolledByMail() {
      const c = client();
      const { email, user } = await signUp(c);
      const enable = await c.post("/two-factor/enable", { password: PASSWORD, method: "otp" });
      expect(enable.status, enable.text).toBe(200);
      expect(enable.body).toEqual({ method: "otp" });
      expect((await c.post("/two-factor/send-otp")).status).toBe(200);
      const sent = await mailedCode(email);
      const res = await c.post("/two-factor/verify-otp", { code: sent });
      expect(res.status, res.text).toBe(200);
      return { c, email, userId: user.id as string, enrolToken: res.body.token as string };
    }

    it("becomes a factor only once the mailbox is proven with a mailed code", async () => {
      const c = client();
      const { email } = await signUp(c);
      const oldToken = (await c.get("/get-session")).body.session.token;
      expect((await c.post("/two-factor/send-otp")).body.code).toBe("OTP_NOT_ENABLED");
      await c.post("/two-factor/enable", { password: PASSWORD, method: "otp" });
      // Asked for but not proven: signing in meets no second step.
      expect((await client().post("/sign-in/email", { email, password: PASSWORD })).body.token).toEqual(expect.any(String));
      expect((await c.get("/get-session")).body.user.twoFactorEnabled).toBe(false);
      await c.post("/two-factor/send-otp");
      const mail = await smtp.waitFor(email, isCodeMail);
      expect(mail.subject).not.toMatch(/\d{6}/);
      const sent = /^\s*(\d{6})\s*$/m.exec(mail.text)![1]!;
      const wrong = await c.post("/two-factor/verify-otp", { code: sent === "000000" ? "111111" : "000000" });
      expect(wrong.status).toBe(401);
      expect(wrong.body.code).toBe("INVALID_CODE");
      const res = await c.post("/two-factor/verify-otp", { code: sent });
      expect(res.status).toBe(200);
      expect(res.body.token).not.toBe(oldToken);
      expect(res.body.user.twoFactorEnabled).toBe(true);
      expect(await sessionOf(oldToken)).toBeUndefined();
      await pending(email, client(), ["otp"]);
    });

    it("answers the second step, its code stored hashed; twenty concurrent redemptions give exactly one success", async () => {
      const { email, userId } = await enrolledByMail();
      const c = await pending(email, client(), ["otp"]);
      expect((await c.post("/two-factor/verify-otp", { code: "123456" })).body.code).toBe("OTP_HAS_EXPIRED");
      expect((await c.post("/two-factor/send-otp")).body).toEqual({ status: true });
      const sent = await mailedCode(email);
      const rows = await db().selectFrom("twoFactorChallenge").selectAll().where("userId", "=", userId).execute();
      expect(rows.flatMap((row: Record<string, unknown>) => Object.values(row).map(String))).not.toContain(sent);
      expect(rows.some((row: { otpHash: string | null }) => row.otpHash?.match(/^[A-Za-z0-9_-]{43}$/))).toBe(true);
      const answers = await Promise.all(Array.from({ length: 20 }, () => c.post("/two-factor/verify-otp", { code: sent })));
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      expect(answers.filter((r) => r.status >= 500)).toEqual([]);
      const winner = answers.find((r) => r.status === 200)!;
      expect((await sessionOf(winner.body.token))?.factors).toEqual(["password", "otp"]);
    });

    it("gives a mailed code the life of otpOptions.period (3 minutes); a new one replaces it", async () => {
      const c = client();
      const { email } = await signUp(c);
      await c.post("/two-factor/enable", { password: PASSWORD, method: "otp" });
      await c.post("/two-factor/send-otp");
      const late = await mailedCode(email);
      clock.advance(181_000);
      const expired = await c.post("/two-factor/verify-otp", { code: late });
      expect(expired.status).toBe(400);
      expect(expired.body).toEqual({ code: "OTP_HAS_EXPIRED", message: "OTP has expired" });
      await c.post("/two-factor/send-otp");
      const first = await mailedCode(email);
      await c.post("/two-factor/send-otp");
      const second = await mailedCode(email);
      clock.advance(170_000);
      if (first !== second) expect((await c.post("/two-factor/verify-otp", { code: first })).body.code).toBe("INVALID_CODE");
      const res = await c.post("/two-factor/verify-otp", { code: second });
      expect(res.status, res.text).toBe(200);
      expect(res.body.user.twoFactorEnabled).toBe(true);
    });

    it("is mailed in the user's language", async () => {
      const { c, email } = await enrolledByMail();
      await c.post("/update-user", { lang: "de" });
      const p = await pending(email, client(), ["otp"]);
      await p.post("/two-factor/send-otp");
      const mail = await smtp.waitFor(email, isCodeMail);
      expect(mail.subject).toBe(renderCodeMail("twoFactorSignIn", "de", { name: "x", email, code: "1", expiresIn: 180 }).subject);
    });

    it("lists both methods for a user with an authenticator and the email code", async () => {
      const { c, email } = await enrolled();
      await c.post("/two-factor/enable", { password: PASSWORD, method: "otp" });
      await c.post("/two-factor/send-otp");
      expect((await c.post("/two-factor/verify-otp", { code: await mailedCode(email) })).status).toBe(200);
      await pending(email, client(), ["totp", "otp"]);
    });
  });

  describe("trusted devices", () => {
    it("skip the second step in that browser, rotating at each use; another browser and a stolen old cookie meet it", async () => {
      const { email, secret } = await enrolled();
      const c = await pending(email);
      const res = await c.post("/two-factor/verify-totp", { code: code(secret), trustDevice: true });
      await expectSignedIn(res, c, email);
      const line = res.setCookies.find((l) => l.startsWith(`${TRUST}=`))!;
      expect(line).toMatch(/Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax/);
      const first = c.cookie(TRUST)!;

      await c.post("/sign-out");
      const again = await c.post("/sign-in/email", { email, password: PASSWORD });
      expect(again.status).toBe(200);
      expect(again.body.token).toEqual(expect.any(String));
      expect((await sessionOf(again.body.token))?.factors).toEqual(["password", "trusted-device"]);
      expect(c.cookie(TRUST)).not.toBe(first);

      const thief = client();
      thief.jar.set(TRUST, first);
      const stolen = await thief.post("/sign-in/email", { email, password: PASSWORD });
      expect(stolen.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
      expect(thief.cookie(TRUST)).toBeUndefined();
      await pending(email);
    });

    it("are revoked by a password change, and by signing out everywhere", async () => {
      const { email, secret } = await enrolled();
      const trusted = async () => {
        const c = await pending(email);
        await expectSignedIn(await c.post("/two-factor/verify-totp", { code: code(secret), trustDevice: true }), c, email);
        nextStep();
        await c.post("/sign-out");
        expect((await c.post("/sign-in/email", { email, password: PASSWORD })).body.token).toEqual(expect.any(String));
        return c;
      };
      const c = await trusted();
      const changed = await c.post("/change-password", { currentPassword: PASSWORD, newPassword: `${PASSWORD}!` });
      expect(changed.status).toBe(200);
      await c.post("/sign-out");
      const after = await c.post("/sign-in/email", { email, password: `${PASSWORD}!` });
      expect(after.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
      await c.post("/two-factor/verify-totp", { code: code(secret) });
      nextStep();
      await c.post("/change-password", { currentPassword: `${PASSWORD}!`, newPassword: PASSWORD });
      await c.post("/sign-out");

      const d = await trusted();
      expect((await d.post("/revoke-sessions")).status).toBe(200);
      expect((await d.post("/sign-in/email", { email, password: PASSWORD })).body.twoFactorRedirect).toBe(true);

      const e = await trusted();
      expect((await e.post("/revoke-other-sessions")).status).toBe(200);
      await e.post("/sign-out");
      expect((await e.post("/sign-in/email", { email, password: PASSWORD })).body.twoFactorRedirect).toBe(true);
    });
  });

  describe("removing second factors (step-up)", () => {
    it("disable needs the password, removes every factor and trusted device, and replaces the session", async () => {
      const { c, email, userId } = await enrolled();
      for (const body of [{}, { password: "wrong wrong wrong" }]) {
        const refused = await c.post("/two-factor/disable", body);
        expect(refused.status).toBe(400);
        expect(refused.body.code).toBe("INVALID_PASSWORD");
      }
      const before = (await c.get("/get-session")).body.session.token;
      const res = await c.post("/two-factor/disable", { password: PASSWORD });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: true });
      const now = await c.get("/get-session");
      expect(now.body.session.token).not.toBe(before);
      expect(now.body.user.twoFactorEnabled).toBe(false);
      expect(await db().selectFrom("twoFactor").selectAll().where("userId", "=", userId).execute()).toEqual([]);
      expect(await stores().twoFactorBackupCodes.countBackupCodes(userId)).toBe(0);
      const signIn = await client().post("/sign-in/email", { email, password: PASSWORD });
      expect(signIn.body.token).toEqual(expect.any(String));
    });

    it("lets a user without a password use a session fresh by session.freshAge instead", async () => {
      const c = client();
      const { user } = await signUp(c);
      const account = await stores().accounts.findCredentialAccount(user.id);
      await stores().accounts.clearAccountPassword(account!.id, clock.now());
      const enable = await c.post("/two-factor/enable", {});
      expect(enable.status, enable.text).toBe(200);
      const confirmed = await c.post("/two-factor/verify-totp", { code: code(secretOf(enable.body.totpURI)) });
      expect(confirmed.status).toBe(200);
      clock.advance(86_400_000 + 60_000); // a day: no longer fresh
      const stale = await c.post("/two-factor/disable", {});
      expect(stale.status).toBe(403);
      expect(stale.body.code).toBe("SESSION_IS_NOT_FRESH");
      expect((await c.post("/two-factor/generate-backup-codes", {})).body.code).toBe("SESSION_IS_NOT_FRESH");
      expect((await c.get("/get-session")).body.user.twoFactorEnabled).toBe(true);
    });

    it("answers 401 to every management route without a session", async () => {
      for (const path of ["/two-factor/enable", "/two-factor/disable", "/two-factor/get-totp-uri", "/two-factor/generate-backup-codes"]) {
        const res = await client().post(path, { password: PASSWORD });
        expect(res.status, path).toBe(401);
      }
    });
  });
});

describe.each(DIALECTS)("second-step limits on %s", (dialect) => {
  let server: TestServer;
  const clock = manualClock();

  beforeAll(async () => {
    server = await startTestServer(
      dialect,
      {
        // Limits on: the routes' own (3 per 10 s) are lifted here except where a test looks at them.
        rateLimit: { enabled: true, customRules: { "/two-factor/*": false, "/sign-in/*": false, "/sign-up/*": false } },
      },
      { now: clock.now },
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  const code = (secret: string) => totpCode(secret, PARAMS, clock.now());

  it("locks the user's second step after ten wrong codes across challenges (429), until the lock ends", async () => {
    const c = new TestClient(server.base);
    const { email, user } = await signUp(c);
    const enable = await c.post("/two-factor/enable", { password: PASSWORD });
    const secret = new URL(enable.body.totpURI).searchParams.get("secret")!;
    expect((await c.post("/two-factor/verify-totp", { code: code(secret) })).status).toBe(200);
    clock.advance(STEP);
    const wrong = () => String((Number(code(secret)) + 7) % 1_000_000).padStart(6, "0");
    for (let round = 0; round < 2; round++) {
      const p = new TestClient(server.base);
      await p.post("/sign-in/email", { email, password: PASSWORD });
      for (let i = 0; i < 5; i++) await p.post("/two-factor/verify-totp", { code: wrong() });
    }
    const p = new TestClient(server.base);
    await p.post("/sign-in/email", { email, password: PASSWORD });
    const locked = await p.post("/two-factor/verify-totp", { code: code(secret) });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe("ACCOUNT_TEMPORARILY_LOCKED");
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(800);
    // Refused before the code is counted: the challenge's attempts stay untouched however often it is tried.
    for (let i = 0; i < 6; i++) expect((await p.post("/two-factor/verify-totp", { code: code(secret) })).status).toBe(429);
    const attempts = await (server.gatehouse.database.db as any)
      .selectFrom("twoFactorChallenge")
      .select("attempts")
      .where("userId", "=", user.id)
      .execute();
    expect(attempts.map((row: { attempts: number }) => Number(row.attempts))).toEqual([0]);
    expect((await p.post("/two-factor/verify-backup-code", { code: enable.body.backupCodes[0] })).status).toBe(429);
    clock.advance(901_000);
    const q = new TestClient(server.base);
    await q.post("/sign-in/email", { email, password: PASSWORD });
    expect((await q.post("/two-factor/verify-totp", { code: code(secret) })).status).toBe(200);
  });

  it("turned off (twoFactor.enabled false): the routes answer 404 and nobody meets the second step", async () => {
    const off = await startTestServer(dialect, { twoFactor: { enabled: false } }, { now: clock.now });
    try {
      const c = new TestClient(off.base);
      const { email, user } = await signUp(c);
      await off.gatehouse.runtime.stores.twoFactors.setTwoFactorEnabled(user.id, true);
      expect((await c.post("/two-factor/enable", { password: PASSWORD })).status).toBe(404);
      const res = await new TestClient(off.base).post("/sign-in/email", { email, password: PASSWORD });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ token: expect.any(String), user: { twoFactorEnabled: true } });
    } finally {
      await off.close();
    }
  });

  it("declares Better Auth's 3 requests per 10 s on /two-factor/* when the limits are on", async () => {
    const other = await startTestServer(dialect, { rateLimit: { enabled: true } }, { now: clock.now });
    try {
      const c = new TestClient(other.base);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await c.post("/two-factor/verify-totp", { code: "123456" })).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await other.close();
    }
  });
});

import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpCode } from "../src/two-factor/totp.js";
import { manualClock } from "./helpers/clock.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { startTestSmtp, type ReceivedMail, type TestSmtp } from "./helpers/smtp.js";

/**
 * Magic links (issue #15 item 6; API-NOTES-PLUGINS.md section 4), over real HTTP and real SMTP, on both databases:
 * request and use, sign-up and disableSignUp, expiry, single use under concurrency, links on BASE_URL only whatever
 * the Host header says, callback URLs checked, and the pre-registration takeover refused.
 */

const ORIGIN = "http://app.test";
const MINUTE = 60_000;

/** The token a mailed link carries, and the link itself (the web app's page, never the verify route). */
function linkOf(mail: ReceivedMail) {
  const link = mail.links.find((l) => new URL(l).searchParams.has("token"));
  if (!link) throw new Error(`no link in ${mail.text}`);
  const url = new URL(link);
  return { url, token: url.searchParams.get("token")! };
}

/** One request over node:http, so that the Host and X-Forwarded-Host headers are the caller's. */
function rawPost(url: string, body: unknown, headers: Record<string, string>): Promise<number> {
  const target = new URL(url);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(text);
  });
}

describe.each(DIALECTS)("magic links on %s", (dialect) => {
  let server: TestServer;
  let closed: TestServer;
  let limited: TestServer;
  let smtp: TestSmtp;
  const clock = manualClock();

  beforeAll(async () => {
    smtp = await startTestSmtp();
    const email = { smtpUrl: smtp.url, from: "Gatehouse <auth@app.test>" };
    [server, closed, limited] = await Promise.all([
      startTestServer(dialect, { baseURL: ORIGIN, email }, { now: clock.now }),
      startTestServer(dialect, { baseURL: ORIGIN, email, magicLink: { disableSignUp: true } }),
      startTestServer(dialect, {
        baseURL: ORIGIN,
        email,
        rateLimit: { enabled: true, account: { mailPerAddress: 2 } },
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.allSettled([server?.close(), closed?.close(), limited?.close()]);
    await smtp?.close();
  });

  const client = (on: TestServer = server) => new TestClient(on.base, ORIGIN);

  async function requestLink(email: string, body: Record<string, unknown> = {}, on: TestServer = server) {
    const res = await client(on).post("/sign-in/magic-link", { email, ...body });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    return linkOf(await smtp.waitFor(email));
  }

  it("mails a link to the web app's page on BASE_URL that signs the user in once, landing on callbackURL", async () => {
    const owner = client();
    const { email } = await signUp(owner);
    await smtp.waitFor(email); // the verification mail of the sign-up

    const { url, token } = await requestLink(email, { callbackURL: "/dashboard" });
    expect(url.origin).toBe(ORIGIN);
    expect(url.pathname).toBe("/magic-link");
    expect(url.searchParams.get("callbackURL")).toBe("/dashboard");
    expect(token).toMatch(/^[A-Za-z]{32}$/);

    const browser = client();
    const res = await browser.get(`/magic-link/verify?token=${token}&callbackURL=%2Fdashboard`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const session = await browser.get("/get-session");
    expect(session.body.user).toMatchObject({ email, emailVerified: true });
    const db = server.gatehouse.database.db as any;
    const row = await db.selectFrom("session").select("loginMethod").where("userId", "=", session.body.user.id).where("token", "=", session.body.session.token).executeTakeFirst();
    expect(row.loginMethod).toBe("magic-link");

    const again = await client().get(`/magic-link/verify?token=${token}&callbackURL=%2Fdashboard`);
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe("/dashboard?error=INVALID_TOKEN");
  });

  it("answers { token, user, session } as JSON without a callbackURL (Better Auth's shape for API clients)", async () => {
    const { email } = await signUp(client());
    await smtp.waitFor(email);
    const { token } = await requestLink(email);
    const browser = client();
    const res = await browser.get(`/magic-link/verify?token=${token}`);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email, emailVerified: true });
    expect(res.body.session.token).toBe(res.body.token);
    expect((await browser.get("/get-session")).body.user.email).toBe(email);
    const used = await client().get(`/magic-link/verify?token=${token}`);
    expect(used.status).toBe(401);
    expect(used.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
  });

  it("a mail scanner opening the mailed link uses nothing: the link is the web app's page, which asks for a click", async () => {
    const email = uniqueEmail("scanned");
    const { url, token } = await requestLink(email);
    // What a scanner does: fetch the mailed URL (served here by the test server at the same path).
    await fetch(server.url + url.pathname + url.search, { redirect: "manual" });
    await fetch(server.url + url.pathname + url.search, { method: "HEAD", redirect: "manual" });
    const res = await client().get(`/magic-link/verify?token=${token}`);
    expect(res.status).toBe(200);
  });

  it("signs up an address without an account (verified, with the name asked for), landing on newUserCallbackURL", async () => {
    const email = uniqueEmail("new");
    const { url, token } = await requestLink(email, {
      name: "New Person",
      callbackURL: "/home",
      newUserCallbackURL: "/welcome",
      errorCallbackURL: "/sign-in",
    });
    expect(url.searchParams.get("newUserCallbackURL")).toBe("/welcome");
    const mail = smtp.received.find((m) => m.to === email)!;
    // A new address is greeted by itself, never by the name the requester wrote.
    expect(mail.text).not.toContain("New Person");
    const browser = client();
    const res = await browser.get(
      `/magic-link/verify?token=${token}&callbackURL=%2Fhome&newUserCallbackURL=%2Fwelcome&errorCallbackURL=%2Fsign-in`,
    );
    expect(res.headers.get("location")).toBe("/welcome");
    const { user } = (await browser.get("/get-session")).body;
    expect(user).toMatchObject({ email, name: "New Person", emailVerified: true });
    const accounts = await browser.get("/list-accounts");
    expect(accounts.body).toEqual([]);

    // A failure goes to errorCallbackURL.
    const failed = await client().get(`/magic-link/verify?token=${token}&callbackURL=%2Fhome&errorCallbackURL=%2Fsign-in`);
    expect(failed.headers.get("location")).toBe("/sign-in?error=INVALID_TOKEN");
  });

  it("with magicLink.disableSignUp mails no link to an address without an account (same answer), and still to users", async () => {
    const unknown = uniqueEmail("nobody");
    const res = await client(closed).post("/sign-in/magic-link", { email: unknown });
    expect(res.body).toEqual({ status: true });
    const { email } = await signUp(client(closed));
    await smtp.waitFor(email); // verification
    const { token } = await requestLink(email, {}, closed);
    expect((await client(closed).get(`/magic-link/verify?token=${token}`)).status).toBe(200);
    // The unknown address's request came first; by now its mail would have arrived.
    expect(smtp.received.filter((m) => m.to === unknown)).toEqual([]);
  });

  it("GET /features says links are on, and whether they sign up", async () => {
    expect((await client().get("/features")).body.magicLink).toEqual({ enabled: true, signUp: true });
    expect((await client(closed).get("/features")).body.magicLink).toEqual({ enabled: true, signUp: false });
  });

  it("refuses a link past its five minutes (the clock moved, no sleeping)", async () => {
    const email = uniqueEmail("late");
    const { token } = await requestLink(email);
    clock.advance(5 * MINUTE + 1000);
    try {
      const res = await client().get(`/magic-link/verify?token=${token}&callbackURL=%2F`);
      expect(res.headers.get("location")).toBe("/?error=INVALID_TOKEN");
      expect((await client().get(`/magic-link/verify?token=${token}`)).status).toBe(401);
    } finally {
      clock.reset();
    }
    // Nobody was signed up by the expired link.
    const signIn = await client().post("/sign-in/email", { email, password: PASSWORD });
    expect(signIn.status).toBe(401);
  });

  it("twenty concurrent uses of one link: exactly one signs in", async () => {
    const { email } = await signUp(client());
    await smtp.waitFor(email);
    const { token } = await requestLink(email);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => client().get(`/magic-link/verify?token=${token}`)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(19);
  });

  it("twenty concurrent uses of one link for a new address: one account, one success", async () => {
    const email = uniqueEmail("race");
    const { token } = await requestLink(email);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => client().get(`/magic-link/verify?token=${token}`)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const users = await server.gatehouse.runtime.stores.users.findUserByEmail(email);
    expect(users?.emailVerified).toBe(true);
  });

  it("two links for one new address used at once: one account, both sign in to it", async () => {
    const email = uniqueEmail("twin");
    const first = await requestLink(email);
    const second = await requestLink(email);
    const [a, b] = await Promise.all([
      client().get(`/magic-link/verify?token=${first.token}`),
      client().get(`/magic-link/verify?token=${second.token}`),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.user.id).toBe(b.body.user.id);
  });

  it("builds the mailed link on BASE_URL whatever Host and X-Forwarded-Host the request names", async () => {
    const email = uniqueEmail("forged");
    const status = await rawPost(`${server.base}/sign-in/magic-link`, { email }, {
      host: "evil.example",
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "https",
      origin: ORIGIN,
    });
    expect(status).toBe(200);
    const mail = await smtp.waitFor(email);
    expect(mail.links.length).toBeGreaterThan(0);
    for (const link of mail.links) expect(new URL(link).origin).toBe(ORIGIN);
    expect(mail.text).not.toContain("evil.example");
    expect(mail.html).not.toContain("evil.example");
  });

  it("refuses untrusted callback URLs when the link is asked for and when it is used", async () => {
    for (const field of ["callbackURL", "newUserCallbackURL", "errorCallbackURL"]) {
      const res = await client().post("/sign-in/magic-link", { email: uniqueEmail(), [field]: "https://evil.example/x" });
      expect(res.status, field).toBe(403);
      expect(res.body.code).toBe(`INVALID_${field.toUpperCase()}`);
    }
    const email = uniqueEmail("cb");
    const { token } = await requestLink(email);
    const res = await client().get(`/magic-link/verify?token=${token}&callbackURL=https%3A%2F%2Fevil.example%2F`);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("INVALID_CALLBACKURL");
    // Refused before the link was looked at: it still works.
    expect((await client().get(`/magic-link/verify?token=${token}`)).status).toBe(200);
  });

  it("refuses a bad address and a malformed token with a clear 4xx", async () => {
    const bad = await client().post("/sign-in/magic-link", { email: "not an address" });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("INVALID_EMAIL");
    const missing = await client().get("/magic-link/verify");
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("VALIDATION_ERROR");
    const forged = await client().get(`/magic-link/verify?token=${"a".repeat(300)}`);
    expect(forged.status).toBe(400);
    const wrong = await client().get(`/magic-link/verify?token=${"a".repeat(32)}`);
    expect(wrong.status).toBe(401);
  });

  it("writes the mail in the recipient's language", async () => {
    const email = uniqueEmail("sprache");
    const res = await client().request("POST", "/sign-in/magic-link", {
      body: { email },
      headers: { "accept-language": "de-DE,de;q=0.9" },
    });
    expect(res.status).toBe(200);
    const mail = await smtp.waitFor(email);
    expect(mail.subject).toBe("Dein Anmeldelink");
    expect(mail.text).toContain("5 Minuten");
  });

  it("stores the link's token hashed: the verification row never holds it", async () => {
    const email = uniqueEmail("hashed");
    const { token } = await requestLink(email);
    const db = server.gatehouse.database.db as any;
    const rows = await db.selectFrom("verification").selectAll().where("identifier", "like", "magic-link:%").execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.identifier).not.toContain(token);
      expect(row.value).not.toContain(token);
    }
  });

  it("the pre-registration takeover fails: the owner's link removes the squatter's password and sessions", async () => {
    const victim = uniqueEmail("victim");
    const attacker = client();
    // The attacker signs up with the victim's address and a password of their choosing (unverified, signed in).
    await signUp(attacker, { email: victim, password: "attacker's password" });
    expect((await attacker.get("/get-session")).body.user.emailVerified).toBe(false);
    await smtp.waitFor(victim); // the verification mail goes to the victim, who ignores it

    const { token } = await requestLink(victim);
    const owner = client();
    const res = await owner.get(`/magic-link/verify?token=${token}`);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: victim, emailVerified: true });

    // The attacker's session is gone, their password no longer signs in, the account holds no password.
    expect((await attacker.get("/get-session")).body).toBeNull();
    const retry = await client().post("/sign-in/email", { email: victim, password: "attacker's password" });
    expect(retry.status).toBe(401);
    expect((await owner.get("/list-accounts")).body).toEqual([]);
    const sessions = await owner.get("/list-sessions");
    expect(sessions.body).toHaveLength(1);
    expect(sessions.body[0].token).toBe(res.body.token);
  });

  describe("a user with a second factor", () => {
    const PENDING = "better-auth.two_factor";
    const SESSION = "better-auth.session_token";

    /** A user who signed up and proved the address with the mailed verification link (the client holds their session). */
    async function verifiedUser(c: TestClient) {
      const { email } = await signUp(c);
      const mail = await smtp.waitFor(email);
      const link = new URL(mail.links.find((l) => l.includes("/verify-email"))!);
      expect((await c.get(link.pathname.replace(/^\/api\/auth/, "") + link.search)).status).toBe(302);
      return email;
    }

    /** A user with a confirmed authenticator (TOTP); answers their secret. */
    async function withAuthenticator(c: TestClient, password = PASSWORD) {
      const enable = await c.post("/two-factor/enable", { password });
      expect(enable.status, enable.text).toBe(200);
      const secret = new URL(enable.body.totpURI).searchParams.get("secret")!;
      const confirmed = await c.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 6, period: 30 }, clock.now()) });
      expect(confirmed.status, confirmed.text).toBe(200);
      clock.advance(30_000); // the code just used is spent
      return secret;
    }

    it("a browser following the link goes to the second-step page; the link is used, and the step finishes the sign-in", async () => {
      const owner = client();
      const email = await verifiedUser(owner);
      const secret = await withAuthenticator(owner);
      try {
        const { token } = await requestLink(email);
        const browser = client();
        const res = await browser.get(`/magic-link/verify?token=${token}&callbackURL=%2Fdashboard`);
        expect(res.status).toBe(302);
        // The methods the account has come along, so the page offers only those.
        expect(res.headers.get("location")).toBe(`${ORIGIN}/two-factor?callbackURL=%2Fdashboard&methods=totp`);
        expect(browser.cookie(PENDING)).toBeDefined();
        expect(browser.cookie(SESSION)).toBeUndefined();
        expect((await browser.get("/get-session")).body).toBeNull();
        // The pending step counts as the link's use.
        const again = await client().get(`/magic-link/verify?token=${token}&callbackURL=%2Fdashboard`);
        expect(again.headers.get("location")).toBe("/dashboard?error=INVALID_TOKEN");
        // The second step finishes what the link began.
        const step = await browser.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 6, period: 30 }, clock.now()) });
        expect(step.status, step.text).toBe(200);
        expect((await browser.get("/get-session")).body.user.email).toBe(email);
      } finally {
        clock.reset();
      }
    });

    it("an API client gets Better Auth's twoFactorRedirect answer instead of a session", async () => {
      const owner = client();
      const email = await verifiedUser(owner);
      await withAuthenticator(owner);
      try {
        const { token } = await requestLink(email);
        const browser = client();
        const res = await browser.get(`/magic-link/verify?token=${token}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
        expect(browser.cookie(SESSION)).toBeUndefined();
        expect((await client().get(`/magic-link/verify?token=${token}`)).status).toBe(401);
      } finally {
        clock.reset();
      }
    });

    it("the takeover also drops the squatter's authenticator: the owner signs in without their second step", async () => {
      const victim = uniqueEmail("victim-2fa");
      const attacker = client();
      await signUp(attacker, { email: victim, password: "attacker's password" });
      await smtp.waitFor(victim);
      try {
        await withAuthenticator(attacker, "attacker's password");
        const { token } = await requestLink(victim);
        const owner = client();
        const res = await owner.get(`/magic-link/verify?token=${token}`);
        expect(res.status).toBe(200);
        expect(res.body.user).toMatchObject({ email: victim, emailVerified: true, twoFactorEnabled: false });
        expect(res.body.token).toEqual(expect.any(String));
        expect((await owner.get("/get-session")).body.user.twoFactorEnabled).toBe(false);
        expect((await attacker.get("/get-session")).body).toBeNull();
      } finally {
        clock.reset();
      }
    });
  });

  it("limits links per address, whatever client asks (and answers the same for any address)", async () => {
    const email = uniqueEmail("flood");
    const first = await limited.gatehouse.api.signInMagicLink({ body: { email } });
    expect(first).toEqual({ status: true });
    expect((await client(limited).post("/sign-in/magic-link", { email })).status).toBe(200);
    const third = await client(limited).post("/sign-in/magic-link", { email });
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("limits links per client (three a minute)", async () => {
    const c = client(limited);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await c.post("/sign-in/magic-link", { email: uniqueEmail("many") })).status);
    // The previous test spent some of this client's allowance (all tests come from 127.0.0.1).
    expect(answers).toContain(429);
    expect(answers.at(-1)).toBe(429);
  });
});

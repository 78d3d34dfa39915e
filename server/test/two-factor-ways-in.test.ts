import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AnyEndpoint } from "../src/http/endpoint.js";
import { ENDPOINTS } from "../src/routes.js";
import { totpCode } from "../src/two-factor/totp.js";
import { Browser } from "./helpers/browser.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { startTestSmtp, type TestSmtp } from "./helpers/smtp.js";
import { startTestIdentityProvider, type TestIdentityProvider } from "./helpers/test-identity-provider.js";

/**
 * Issue #15 item 4: a user with a second factor meets the second step on every way in (password by email or
 * username, social redirect and ID token, a verification link's auto sign-in; magic link and email code are in
 * passwordless's tests), and the pending state is never a session: every route that needs one answers 401 to a
 * browser holding only the pending cookie, with the cookie cache off and on. Real HTTP, a real OpenID provider and a
 * real SMTP catcher, on SQLite and PostgreSQL.
 */
const PENDING = "better-auth.two_factor";
const SESSION = "better-auth.session_token";
const CACHE = "better-auth.session_data";
const PARAMS = { digits: 6, period: 30 };

/** A value a JSON schema accepts, as simple as can be (strings, numbers, enums, first union member, required keys). */
function sampleOf(schema: Record<string, any>, root: Record<string, any>): unknown {
  if (schema.$ref) return sampleOf(root.$defs?.[String(schema.$ref).split("/").pop()!] ?? {}, root);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf ?? schema.oneOf) return sampleOf((schema.anyOf ?? schema.oneOf)[0], root);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part: Record<string, any>) => sampleOf(part, root)));
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sampleOf(schema.properties?.[key] ?? {}, root);
      return out;
    }
    case "array":
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items ?? {}, root));
    case "integer":
    case "number":
      return schema.minimum ?? 1;
    case "boolean":
      return true;
    case "null":
      return null;
    case "string":
      if (schema.format === "email") return "someone@example.com";
      if (schema.format === "uri") return "https://example.com/";
      if (schema.format === "date-time") return "2030-01-01T00:00:00.000Z";
      return "a".repeat(Math.max(schema.minLength ?? 1, 1));
    default:
      return {};
  }
}

/** A body (or query) the route's schema accepts, or undefined when the sampler cannot make one. */
function validInput(schema: z.ZodType | undefined): { ok: boolean; value: unknown } {
  if (!schema) return { ok: true, value: undefined };
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, any>;
  for (const value of [sampleOf(json, json), {}, undefined]) if (schema.safeParse(value).success) return { ok: true, value };
  return { ok: false, value: {} };
}

describe.each(DIALECTS)("the second step on every way in, on %s", (dialect) => {
  let idp: TestIdentityProvider;
  let smtp: TestSmtp;
  let server: TestServer;
  let cached: TestServer;
  let counter = 0;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    idp = await startTestIdentityProvider();
    const issuer = idp.issuer;
    const endpoints = { authorization: `${issuer}/auth`, token: `${issuer}/token`, userInfo: `${issuer}/me`, jwks: `${issuer}/jwks`, issuer };
    const options = {
      email: { smtpUrl: smtp.url },
      emailVerification: { autoSignInAfterVerification: true },
      socialProviders: { google: { clientId: "google-client", clientSecret: "google-secret", endpoints } },
    };
    server = await startTestServer(dialect, options);
    cached = await startTestServer(dialect, { ...options, session: { cookieCache: { enabled: true, maxAge: 300 } } });
    idp.start([
      {
        client_id: "google-client",
        client_secret: "google-secret",
        redirect_uris: [`${server.base}/callback/google`, `${cached.base}/callback/google`],
        token_endpoint_auth_method: "client_secret_post",
      },
    ]);
  });
  afterAll(async () => {
    await server?.close();
    await cached?.close();
    await idp?.close();
    await smtp?.close();
  });

  const sessionOf = async (s: TestServer, token: string) => (await s.gatehouse.runtime.stores.sessions.findSessionAndUser(token))?.session;
  const secretOf = (uri: string) => new URL(uri).searchParams.get("secret")!;
  const pathOf = (link: string) => {
    const url = new URL(link);
    return url.pathname.replace(/^\/api\/auth/, "") + url.search;
  };

  /** Turns on an authenticator for the signed-in client (password when it has one); answers its backup codes. */
  async function enrol(c: TestClient, password?: string): Promise<string[]> {
    const enable = await c.post("/two-factor/enable", password ? { password } : {});
    expect(enable.status, enable.text).toBe(200);
    const confirmed = await c.post("/two-factor/verify-totp", { code: totpCode(secretOf(enable.body.totpURI), PARAMS, new Date()) });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.user.twoFactorEnabled).toBe(true);
    return enable.body.backupCodes;
  }

  /** A Browser as a TestClient-like caller of the API (JSON posts with its jar). */
  const browserPost = async (browser: Browser, base: string, path: string, body: unknown) => {
    const res = await browser.request("POST", `${base}${path}`, { json: body });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  };
  const browserSession = async (browser: Browser, base: string) => {
    const res = await browser.request("GET", `${base}/get-session`);
    return (await res.json()) as { user: Record<string, any>; session: Record<string, any> } | null;
  };

  it("a username sign-in meets the second step; a backup code finishes it, the session records both factors", async () => {
    const c = new TestClient(server.base);
    const username = `tf_${dialect}_${++counter}`;
    await signUp(c, { username });
    const backupCodes = await enrol(c, PASSWORD);
    const p = new TestClient(server.base);
    const res = await p.post("/sign-in/username", { username, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
    expect(p.cookie(SESSION)).toBeUndefined();
    expect(p.cookie(PENDING)).toEqual(expect.any(String));
    const done = await p.post("/two-factor/verify-backup-code", { code: backupCodes[0] });
    expect(done.status, done.text).toBe(200);
    const session = await sessionOf(server, done.body.token);
    expect(session?.loginMethod).toBe("username");
    expect(session?.factors).toEqual(["password", "backup-code"]);
  });

  describe("social sign-in", () => {
    /** Someone at the provider who signed up here with Google and turned an authenticator on (no password). */
    async function socialUserWithSecondFactor() {
      const sub = `${dialect}-tf-${++counter}`;
      const email = uniqueEmail("tf-social");
      idp.addAccount({ sub, email, email_verified: true, name: "Grace" });
      idp.loginAs(sub);
      const browser = new Browser();
      const started = await browserPost(browser, server.base, "/sign-in/social", { provider: "google", callbackURL: "/home" });
      const landing = await browser.follow(started.body.url, (u) => u.origin === server.url && !u.pathname.startsWith("/api/auth"));
      expect(landing.url.pathname).toBe("/home");
      // No password: a fresh session is the step-up (README "Second factors").
      const enable = await browserPost(browser, server.base, "/two-factor/enable", {});
      expect(enable.status).toBe(200);
      const confirmed = await browserPost(browser, server.base, "/two-factor/verify-totp", {
        code: totpCode(secretOf(enable.body.totpURI), PARAMS, new Date()),
      });
      expect(confirmed.status).toBe(200);
      return { sub, email, backupCodes: enable.body.backupCodes as string[] };
    }

    it("the provider's redirect lands on the web app's second-step page with the callback, never on a session", async () => {
      const { sub, backupCodes } = await socialUserWithSecondFactor();
      idp.loginAs(sub);
      const browser = new Browser();
      const started = await browserPost(browser, server.base, "/sign-in/social", { provider: "google", callbackURL: "/home?tab=1" });
      const landing = await browser.follow(started.body.url, (u) => u.origin === server.url && !u.pathname.startsWith("/api/auth"));
      expect(landing.url.pathname).toBe("/two-factor");
      expect(landing.url.searchParams.get("callbackURL")).toBe("/home?tab=1");
      expect(browser.jar.has(PENDING)).toBe(true);
      expect(browser.jar.has(SESSION)).toBe(false);
      expect(await browserSession(browser, server.base)).toBeNull();

      const done = await browserPost(browser, server.base, "/two-factor/verify-backup-code", { code: backupCodes[0] });
      expect(done.status).toBe(200);
      const current = await browserSession(browser, server.base);
      expect(current?.session.token).toBe(done.body.token);
      const session = await sessionOf(server, done.body.token);
      expect(session?.loginMethod).toBe("google");
      expect(session?.factors).toEqual(["social", "backup-code"]);
    });

    it("an ID token sign-in answers twoFactorRedirect and the pending cookie, no session", async () => {
      const { sub, email, backupCodes } = await socialUserWithSecondFactor();
      const token = await idp.signIdToken({ sub, aud: "google-client", email, email_verified: true, name: "Grace" });
      const c = new TestClient(server.base);
      const res = await c.post("/sign-in/social", { provider: "google", idToken: { token } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
      expect(c.cookie(SESSION)).toBeUndefined();
      expect((await c.post("/two-factor/verify-backup-code", { code: backupCodes[1] })).status).toBe(200);
      expect((await c.get("/get-session")).body.user.email).toBe(email);
    });
  });

  describe("a verification link's auto sign-in", () => {
    it("in the browser that registered: the link verifies, then leads to the second-step page with the callback and its marker", async () => {
      const c = new TestClient(server.base);
      const { email } = await signUp(c);
      const link = (await smtp.waitFor(email, (m) => m.links.some((l) => l.includes("/verify-email")))).links[0]!;
      const backupCodes = await enrol(c, PASSWORD);
      await c.post("/sign-out");
      expect(c.cookie(SESSION)).toBeUndefined();
      const res = await c.get(pathOf(link));
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get("location")!, server.url);
      expect(location.origin + location.pathname).toBe(`${server.url}/two-factor`);
      expect(location.searchParams.get("callbackURL")).toBe("/verify-email?verified=true");
      expect(location.searchParams.get("methods")).toBe("totp");
      expect(c.cookie(PENDING)).toEqual(expect.any(String));
      expect(c.cookie(SESSION)).toBeUndefined();
      const done = await c.post("/two-factor/verify-backup-code", { code: backupCodes[0] });
      expect(done.status).toBe(200);
      expect(done.body.user).toMatchObject({ email, emailVerified: true, twoFactorEnabled: true });
      expect((await sessionOf(server, done.body.token))?.loginMethod).toBe("email-verification");
    });

    it("without a callback the link answers twoFactorRedirect (the API client's answer)", async () => {
      const c = new TestClient(server.base);
      const { email } = await signUp(c);
      const link = (await smtp.waitFor(email, (m) => m.links.some((l) => l.includes("/verify-email")))).links[0]!;
      await enrol(c, PASSWORD);
      await c.post("/sign-out");
      const url = new URL(link);
      url.searchParams.delete("callbackURL");
      const res = await c.get(pathOf(url.href));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
      expect(c.cookie(PENDING)).toEqual(expect.any(String));
    });

    it("proven from another browser (a pre-registration), it removes the registrant's second factors with the password", async () => {
      const squatter = new TestClient(server.base);
      const { email, user } = await signUp(squatter);
      const link = (await smtp.waitFor(email, (m) => m.links.some((l) => l.includes("/verify-email")))).links[0]!;
      await enrol(squatter, PASSWORD);
      const owner = new TestClient(server.base);
      const res = await owner.get(pathOf(link));
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/verify-email?verified=true&passwordRemoved=true");
      // Signed in at once: the second step was the squatter's, and it is gone.
      const current = await owner.get("/get-session");
      expect(current.body.user).toMatchObject({ id: user.id, emailVerified: true, twoFactorEnabled: false });
      const db = server.gatehouse.database.db as any;
      expect(await db.selectFrom("twoFactor").selectAll().where("userId", "=", user.id).execute()).toEqual([]);
      expect(await server.gatehouse.runtime.stores.twoFactorBackupCodes.countBackupCodes(user.id)).toBe(0);
    });
  });

  describe.each([
    ["off", () => server],
    ["on", () => cached],
  ] as const)("the pending state with the cookie cache %s", (_cache, target) => {
    it("is no session: a browser signed in as someone else loses that session, and every route that needs one answers 401", async () => {
      const s = target();
      const withFactor = new TestClient(s.base);
      const { email } = await signUp(withFactor);
      await enrol(withFactor, PASSWORD);

      // A browser holding another user's session (and, with the cache on, its cache cookie) signs in as this user.
      const browser = new TestClient(s.base);
      await signUp(browser);
      await browser.get("/get-session");
      if (s === cached) expect(browser.cookie(CACHE)).toEqual(expect.any(String));
      const res = await browser.post("/sign-in/email", { email, password: PASSWORD });
      expect(res.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
      expect([...browser.jar.keys()].filter((name) => !["better-auth.registrant", "better-auth.last_used_login_method", "better-auth.device"].includes(name))).toEqual([PENDING]);
      const session = await browser.get("/get-session");
      expect(session.status).toBe(200);
      expect(session.body ?? null).toBeNull();

      const anonymous = new TestClient(s.base);
      const secondStep = new Set(["/two-factor/verify-totp", "/two-factor/verify-otp", "/two-factor/send-otp", "/two-factor/verify-backup-code"]);
      let checked = 0;
      let sampled = 0;
      const mismatches: string[] = [];
      for (const endpoint of Object.values(ENDPOINTS) as AnyEndpoint[]) {
        if (endpoint.auth === "none" || endpoint.serverOnly || endpoint.navigation || endpoint.path.includes(":")) continue;
        if (secondStep.has(endpoint.path)) continue;
        const body = validInput(endpoint.body);
        const query = validInput(endpoint.query);
        const search = query.value && typeof query.value === "object" ? `?${new URLSearchParams(query.value as Record<string, string>)}` : "";
        const call = (client: TestClient) =>
          endpoint.method === "GET" ? client.get(endpoint.path + search) : client.post(endpoint.path, body.value ?? {});
        const [pendingAnswer, anonymousAnswer] = [await call(browser), await call(anonymous)];
        checked++;
        if (pendingAnswer.status !== anonymousAnswer.status) mismatches.push(`${endpoint.path}: ${pendingAnswer.status} vs ${anonymousAnswer.status}`);
        if (body.ok && query.ok) {
          sampled++;
          if (pendingAnswer.status !== 401) mismatches.push(`${endpoint.path}: ${pendingAnswer.status} ${pendingAnswer.text}`);
        }
      }
      expect(mismatches).toEqual([]);
      expect(checked).toBeGreaterThan(40);
      expect(sampled / checked).toBeGreaterThan(0.9);
      // The pending cookie still works for its own routes afterwards.
      expect(browser.cookie(PENDING)).toEqual(expect.any(String));
    });
  });
});

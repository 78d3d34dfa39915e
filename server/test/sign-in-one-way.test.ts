import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpAdmin } from "./helpers/admin.js";
import { Browser } from "./helpers/browser.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { startTestSmtp, type TestSmtp } from "./helpers/smtp.js";
import { startTestIdentityProvider, type TestIdentityProvider } from "./helpers/test-identity-provider.js";

/**
 * #13.3 One way in: every sign-in method ends in session/sign-in.ts, which refuses a banned user, records the method
 * on the session and in the last-used cookie (and user.lastLoginMethod with storeInDatabase).
 */
const LAST_USED = "better-auth.last_used_login_method";
const BANNED = {
  code: "BANNED_USER",
  message: "You have been banned from this application. Please contact support if you believe this is an error.",
};
const pathOf = (link: string) => {
  const url = new URL(link);
  return url.pathname.replace(/^\/api\/auth/, "") + url.search;
};
const lastUsedLine = (lines: string[]) => lines.find((line) => line.startsWith(`${LAST_USED}=`));

describe.each(DIALECTS)("#13.3 one way in on %s", (dialect) => {
  let server: TestServer;
  let smtp: TestSmtp;
  let idp: TestIdentityProvider;
  let counter = 0;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    idp = await startTestIdentityProvider();
    const issuer = idp.issuer;
    const endpoints = { authorization: `${issuer}/auth`, token: `${issuer}/token`, userInfo: `${issuer}/me`, jwks: `${issuer}/jwks`, issuer };
    server = await startTestServer(dialect, {
      email: { smtpUrl: smtp.url },
      emailVerification: { autoSignInAfterVerification: true },
      socialProviders: { google: { clientId: "google-client", clientSecret: "google-secret", endpoints } },
      lastLoginMethod: { storeInDatabase: true },
    });
    idp.start([
      {
        client_id: "google-client",
        client_secret: "google-secret",
        redirect_uris: [`${server.base}/callback/google`],
        token_endpoint_auth_method: "client_secret_post",
      },
    ]);
  });
  afterAll(async () => {
    await server?.close();
    await idp?.close();
    await smtp?.close();
  });

  const stores = () => server.gatehouse.runtime.stores;
  const ban = (userId: string) => stores().users.updateUser(userId, { banned: true, updatedAt: new Date() });
  const methodOf = async (token: string) => (await stores().sessions.findSessionAndUser(token))?.session.loginMethod;
  const storedLastMethod = async (userId: string) =>
    (await server.gatehouse.database.db.selectFrom("user").select("lastLoginMethod").where("id", "=", userId).executeTakeFirst())
      ?.lastLoginMethod;

  it("#13.3: email sign-up and sign-in record 'email' on the session, in the cookie and on the user; a banned user is refused", async () => {
    const c = new TestClient(server.base);
    const { user, token, email } = await signUp(c);
    expect(await methodOf(token)).toBe("email");
    const res = await new TestClient(server.base).post("/sign-in/email", { email, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(await methodOf(res.body.token)).toBe("email");
    const line = lastUsedLine(res.setCookies)!;
    expect(line).toBe(`${LAST_USED}=email; Max-Age=2592000; Path=/; SameSite=Lax`);
    expect(await storedLastMethod(user.id)).toBe("email");

    await ban(user.id);
    const refused = await new TestClient(server.base).post("/sign-in/email", { email, password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(BANNED);
    expect(lastUsedLine(refused.setCookies)).toBeUndefined();
  });

  it("#13.3: username sign-in records 'username'; a banned user is refused", async () => {
    const username = `one_way_${dialect}_${++counter}`;
    const { user } = await signUp(new TestClient(server.base), { username });
    const res = await new TestClient(server.base).post("/sign-in/username", { username, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(await methodOf(res.body.token)).toBe("username");
    expect(lastUsedLine(res.setCookies)).toMatch(new RegExp(`^${LAST_USED}=username;`));
    expect(await storedLastMethod(user.id)).toBe("username");

    await ban(user.id);
    const refused = await new TestClient(server.base).post("/sign-in/username", { username, password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(BANNED);
  });

  it("#13.3: the social callback records the provider id; a banned user is sent to the error page", async () => {
    const sub = `${dialect}-one-way-${++counter}`;
    const email = uniqueEmail("idp");
    idp.addAccount({ sub, email, email_verified: true, name: "Ada" });
    idp.loginAs(sub);
    const viaRedirect = async () => {
      const browser = new Browser();
      const res = await browser.request("POST", `${server.base}/sign-in/social`, { json: { provider: "google", callbackURL: "/home" } });
      const { url } = (await res.json()) as { url: string };
      const landing = await browser.follow(url, (u) => u.origin === server.url && !u.pathname.startsWith("/api/auth"));
      return { browser, landing };
    };
    const { browser, landing } = await viaRedirect();
    expect(landing.url.pathname).toBe("/home");
    const session = (await (await browser.request("GET", `${server.base}/get-session`)).json()) as { session: { token: string }; user: { id: string } };
    expect(await methodOf(session.session.token)).toBe("google");
    expect(browser.cookieHeader()).toContain(`${LAST_USED}=google`);
    expect(await storedLastMethod(session.user.id)).toBe("google");

    await ban(session.user.id);
    const refused = await viaRedirect();
    expect(refused.landing.url.searchParams.get("error")).toBe("banned");
    expect(refused.browser.cookieHeader()).not.toContain("session_token");
  });

  it("#13.3: ID-token sign-in records the provider id; a banned user is refused", async () => {
    const email = uniqueEmail("idtoken");
    const claims = { sub: `${dialect}-id-${++counter}`, aud: "google-client", email, email_verified: true, name: "T" };
    const post = async () =>
      new TestClient(server.base).post("/sign-in/social", { provider: "google", idToken: { token: await idp.signIdToken(claims) } });
    const res = await post();
    expect(res.status).toBe(200);
    expect(await methodOf(res.body.token)).toBe("google");
    expect(lastUsedLine(res.setCookies)).toMatch(new RegExp(`^${LAST_USED}=google;`));

    await ban(res.body.user.id);
    const refused = await post();
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(BANNED);
  });

  it("#13.3: the verification link's auto sign-in records 'email-verification' and leaves the cookie; a banned user is not signed in", async () => {
    const open = async () => {
      const { email, user } = await signUp(new TestClient(server.base));
      const mail = await smtp.waitFor(email);
      return { user, link: pathOf(mail.links[0]!) };
    };
    const first = await open();
    const c = new TestClient(server.base);
    const res = await c.get(first.link);
    expect(res.status).toBe(302);
    const token = (await c.get("/get-session")).body.session.token as string;
    expect(await methodOf(token)).toBe("email-verification");
    expect(lastUsedLine(res.setCookies)).toBeUndefined();

    const second = await open();
    await ban(second.user.id);
    const other = new TestClient(server.base);
    const refused = await other.get(second.link);
    expect(refused.status).toBe(302);
    expect(refused.setCookies.some((line) => line.includes("session_token=") && !line.includes("Max-Age=0"))).toBe(false);
    expect((await other.get("/get-session")).body).toBeNull();
  });

  it("#13.3: impersonation records 'impersonation', leaves the admin's last-used cookie, and refuses a banned target", async () => {
    const admin = new TestClient(server.base);
    await signUpAdmin(server, admin);
    const target = await signUp(new TestClient(server.base));
    const res = await admin.post("/admin/impersonate-user", { userId: target.user.id });
    expect(res.status).toBe(200);
    expect(await methodOf(res.body.session.token)).toBe("impersonation");
    expect(lastUsedLine(res.setCookies)).toBeUndefined();
    expect(await storedLastMethod(target.user.id)).toBe("email");
    await admin.post("/admin/stop-impersonating", {});

    const banned = await signUp(new TestClient(server.base));
    await ban(banned.user.id);
    const refused = await admin.post("/admin/impersonate-user", { userId: banned.user.id });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(BANNED);
    expect(refused.setCookies.some((line) => line.includes("admin_session="))).toBe(false);
  });

  it("#13.3: change-password's new session keeps the method of the one it replaces", async () => {
    const username = `renew_${dialect}_${++counter}`;
    await signUp(new TestClient(server.base), { username });
    const c = new TestClient(server.base);
    await c.post("/sign-in/username", { username, password: PASSWORD });
    const res = await c.post("/change-password", { currentPassword: PASSWORD, newPassword: "another long password", revokeOtherSessions: true });
    expect(res.status).toBe(200);
    expect(await methodOf(res.body.token)).toBe("username");
  });

  it("#13.3: a renewed session keeps the active organization of the one it replaces", async () => {
    const c = new TestClient(server.base);
    await signUp(c);
    const created = await c.post("/organization/create", { name: "Renewal", slug: `renewal-${dialect}-${++counter}` });
    expect(created.status).toBe(200);
    expect((await c.get("/get-session")).body.session.activeOrganizationId).toBe(created.body.id);
    const res = await c.post("/change-password", { currentPassword: PASSWORD, newPassword: "another long password", revokeOtherSessions: true });
    expect(res.status).toBe(200);
    const after = (await c.get("/get-session")).body.session;
    expect(after.token).toBe(res.body.token);
    expect(after.activeOrganizationId).toBe(created.body.id);
  });
});

describe("#13.3 one way in: the source", () => {
  const root = join(import.meta.dirname, "../src");
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
    );
  const sources = files(root).map((file) => ({ file: relative(root, file), text: readFileSync(file, "utf8") }));
  const where = (pattern: RegExp) => sources.filter((s) => pattern.test(s.text)).map((s) => s.file).sort();

  it("#13.3: only the one sign-in function creates a session", () => {
    // The store's insert: called by sign-in.ts, and inside sign-up's single statement (the `store` it hands over).
    expect(where(/\.createSession\(/)).toEqual(["session/sign-in.ts", "storage/new-user.ts"]);
    expect(where(/insertInto\("session"\)/)).toEqual(["storage/sessions.ts"]);
    // A session written in one statement with other rows (sign-up's user, a sign-in's event: storage/extra-rows.ts).
    expect(where(/table: "session"/)).toEqual(["storage/new-user.ts", "storage/sessions.ts"]);
    // A TOTP second step's answer writes its session with the step it spends, in the `store` it hands to signIn.
    expect(where(/sessionInsert\(/)).toEqual(["storage/sessions.ts", "two-factor/verify-routes.ts"]);
    // The two halves of a new session: defined by the session service, used by sign-in.ts alone.
    expect(where(/\.newSession\(|\.setNewSessionCookies\(/)).toEqual(["session/sign-in.ts"]);
    // Sign-up's statement writes a session only as signIn's `store`: the definition, and sign-up's one call.
    expect(where(/insertUserWithPassword\([^)]*session/)).toEqual(["credentials/credential-account.ts", "credentials/email-password-routes.ts"]);
  });
});

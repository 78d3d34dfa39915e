import { generateKeyPair } from "jose";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type Landing } from "./helpers/browser.js";
import { manualClock } from "./helpers/clock.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import {
  SIGNING_KID,
  startTestIdentityProvider,
  type IdentityAccount,
  type TestIdentityProvider,
} from "./helpers/test-identity-provider.js";

/**
 * Social sign-in against a real OpenID provider (oidc-provider on 127.0.0.1) standing in for Google, Microsoft,
 * Apple and two generic OpenID providers ("corp", trusted for linking; "partner", sign-up only on request). Every
 * flow goes through the browser redirects: service -> provider -> service callback -> the app.
 */
const MINUTE = 60_000;

describe.each(DIALECTS)("social sign-in with OpenID providers on %s", (dialect) => {
  let idp: TestIdentityProvider;
  let server: TestServer;
  const clock = manualClock();
  let counter = 0;

  beforeAll(async () => {
    idp = await startTestIdentityProvider();
    const issuer = idp.issuer;
    const endpoints = {
      authorization: `${issuer}/auth`,
      token: `${issuer}/token`,
      userInfo: `${issuer}/me`,
      jwks: `${issuer}/jwks`,
      issuer,
    };
    server = await startTestServer(
      dialect,
      {
        socialProviders: {
          google: { clientId: "google-client", clientSecret: "google-secret", endpoints },
          microsoft: { clientId: "microsoft-client", clientSecret: "microsoft-secret", endpoints },
          // Apple asks only for name and email; the stand-in needs openid to issue an ID token.
          apple: { clientId: "apple-client", clientSecret: "apple-secret", endpoints, scopes: ["openid"] },
          oidc: [
            { id: "corp", issuer, clientId: "corp-client", clientSecret: "corp-secret" },
            { id: "partner", issuer, clientId: "partner-client", clientSecret: "partner-secret", disableImplicitSignUp: true },
          ],
        },
        account: { encryptOAuthTokens: true, accountLinking: { trustedProviders: ["corp"] } },
      },
      { now: clock.now },
    );
    const client = (id: string, method: "client_secret_basic" | "client_secret_post") => ({
      client_id: `${id}-client`,
      client_secret: `${id}-secret`,
      redirect_uris: [`${server.base}/callback/${id}`],
      token_endpoint_auth_method: method,
    });
    idp.start([
      client("google", "client_secret_post"),
      client("microsoft", "client_secret_post"),
      client("apple", "client_secret_post"),
      client("corp", "client_secret_basic"),
      client("partner", "client_secret_basic"),
    ]);
  });
  afterAll(async () => {
    await server?.close();
    await idp?.close();
  });

  /** A person at the provider, who will be the one signing in there next. */
  const person = (overrides: Partial<IdentityAccount> = {}): IdentityAccount => {
    counter += 1;
    const account: IdentityAccount = {
      sub: `${dialect}-sub-${counter}-${Math.random().toString(36).slice(2, 8)}`,
      email: uniqueEmail("idp"),
      email_verified: true,
      name: "Ada Lovelace",
      picture: "https://images.example/ada.png",
      ...overrides,
    };
    idp.addAccount(account);
    idp.loginAs(account.sub);
    return account;
  };

  /** Landed on the app (the service's origin outside the API): the flow is over. */
  const onApp = (url: URL) => url.origin === server.url && !url.pathname.startsWith("/api/auth");

  async function start(browser: Browser, body: Record<string, unknown>) {
    const res = await browser.request("POST", `${server.base}/sign-in/social`, { json: { callbackURL: "/home", ...body } });
    const answer = (await res.json()) as { url: string; redirect: boolean };
    expect(res.status, JSON.stringify(answer)).toBe(200);
    return { res, answer };
  }

  async function signIn(browser: Browser, provider: string, body: Record<string, unknown> = {}): Promise<Landing> {
    const { answer } = await start(browser, { provider, ...body });
    return browser.follow(answer.url, onApp);
  }

  async function session(browser: Browser) {
    const res = await browser.request("GET", `${server.base}/get-session`);
    return (await res.json()) as { user: Record<string, unknown>; session: Record<string, unknown> } | null;
  }

  async function accounts(browser: Browser) {
    const res = await browser.request("GET", `${server.base}/list-accounts`);
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, unknown>[];
  }

  const landed = (landing: Landing) => landing.url.pathname + landing.url.search;

  it("GET /features names every configured provider for the sign-in buttons", async () => {
    const res = await new Browser().request("GET", `${server.base}/features`);
    const features = (await res.json()) as { socialProviders: string[]; providers: { id: string; name: string }[] };
    expect([...features.socialProviders].sort()).toEqual(["apple", "corp", "google", "microsoft", "partner"]);
    expect(features.providers.map((p) => p.id)).toEqual(features.socialProviders);
    expect(features.providers.find((p) => p.id === "google")?.name).toBe("Google");
    expect(features.providers.every((p) => p.name.length > 0)).toBe(true);
  });

  describe("POST /sign-in/social and GET /callback/:id", () => {
    it("signs a new user up with Google through the whole redirect flow", async () => {
      const browser = new Browser();
      const who = person({ name: "Grace Hopper", picture: "https://images.example/grace.png" });
      const { res, answer } = await start(browser, { provider: "google" });
      expect(answer.redirect).toBe(true);
      expect(res.headers.get("location")).toBe(answer.url);
      const url = new URL(answer.url);
      expect(url.origin + url.pathname).toBe(`${idp.issuer}/auth`);
      expect(url.searchParams.get("client_id")).toBe("google-client");
      expect(url.searchParams.get("redirect_uri")).toBe(`${server.base}/callback/google`);
      expect(url.searchParams.get("scope")).toBe("openid email profile");
      expect(url.searchParams.get("code_challenge_method")).toBe("S256");
      expect(url.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(url.searchParams.get("nonce")).toMatch(/^[A-Za-z0-9_-]{32}$/);

      const landing = await browser.follow(answer.url, onApp);
      expect(landed(landing)).toBe("/home");
      const current = await session(browser);
      expect(current?.user).toMatchObject({
        email: who.email,
        emailVerified: true,
        name: "Grace Hopper",
        image: "https://images.example/grace.png",
      });
      const list = await accounts(browser);
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ providerId: "google", provider: "google", accountId: who.sub });
    });

    it("stores the flow's state as auth-state:{state} for ten minutes and sets the signed state cookie", async () => {
      const browser = new Browser();
      person();
      const { res, answer } = await start(browser, { provider: "google", errorCallbackURL: "/sign-in" });
      const state = new URL(answer.url).searchParams.get("state")!;
      const row = await server.gatehouse.runtime.stores.verifications.findVerification(`auth-state:${state}`);
      expect(row).not.toBeNull();
      const payload = JSON.parse(row!.value);
      expect(payload).toMatchObject({ callbackURL: "/home", errorURL: "/sign-in", requestSignUp: false, providerId: "google" });
      expect(payload.codeVerifier).toMatch(/^[A-Za-z0-9_-]{128}$/);
      expect(payload.expiresAt - clock.now().getTime()).toBeGreaterThan(9 * MINUTE);
      expect(payload.expiresAt - clock.now().getTime()).toBeLessThanOrEqual(10 * MINUTE);
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith("better-auth.state="));
      expect(cookie).toMatch(/Max-Age=600; Path=\/; HttpOnly; SameSite=Lax/);
      expect(decodeURIComponent(cookie!.split(";")[0]!.split("=")[1]!)).toMatch(new RegExp(`^${state}\\..{43}=$`));

      expect(landed(await browser.follow(answer.url, onApp))).toBe("/home");
      expect(await server.gatehouse.runtime.stores.verifications.findVerification(`auth-state:${state}`)).toBeNull();
      expect(browser.jar.has("better-auth.state")).toBe(false);
    });

    it("sends a first sign-in to newUserCallbackURL and later ones to callbackURL (Microsoft)", async () => {
      person();
      const first = await signIn(new Browser(), "microsoft", { newUserCallbackURL: "/welcome" });
      expect(landed(first)).toBe("/welcome");
      const again = new Browser();
      const second = await signIn(again, "microsoft", { newUserCallbackURL: "/welcome" });
      expect(landed(second)).toBe("/home");
      expect((await accounts(again))[0]).toMatchObject({ providerId: "microsoft" });
    });

    it("signs in with Apple: a form-posted answer turned into a GET, the name from the first sign-in's user field", async () => {
      const browser = new Browser();
      const who = person({ name: "Not Sent By Apple" });
      const { answer } = await start(browser, { provider: "apple" });
      const url = new URL(answer.url);
      expect(url.searchParams.get("response_mode")).toBe("form_post");
      expect(url.searchParams.get("scope")).toBe("name email openid");
      expect(url.searchParams.has("code_challenge")).toBe(false);

      const callback = `${server.base}/callback/apple`;
      const posted = await browser.follow(answer.url, (u) => u.href.startsWith(callback));
      expect(posted.method).toBe("POST");
      expect(posted.form, JSON.stringify(posted.form)).toMatchObject({ code: expect.any(String), state: url.searchParams.get("state") });
      // Apple adds the user's name, on the first sign-in only; the email in it is not trusted.
      const user = JSON.stringify({ name: { firstName: "Tim", lastName: "Apple" }, email: "someone-else@example.com" });
      const res = await browser.request("POST", posted.url, { form: { ...posted.form, user }, origin: idp.issuer });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get("location")!, posted.url);
      expect(location.pathname).toBe("/api/auth/callback/apple");
      expect(location.searchParams.get("user")).toBe(user);
      expect(landed(await browser.follow(location, onApp))).toBe("/home");
      expect((await session(browser))?.user).toMatchObject({ email: who.email, emailVerified: true, name: "Tim Apple" });
    });

    it("signs in with a generic OpenID provider found by discovery", async () => {
      const browser = new Browser();
      const who = person({ name: "Corp Person" });
      expect(landed(await signIn(browser, "corp"))).toBe("/home");
      expect((await session(browser))?.user).toMatchObject({ email: who.email, name: "Corp Person", emailVerified: true });
      expect((await accounts(browser))[0]).toMatchObject({ providerId: "corp", accountId: who.sub });
    });

    it("refuses a state that was already used (state_not_found)", async () => {
      const browser = new Browser();
      person();
      const { answer } = await start(browser, { provider: "google" });
      const callback = await browser.follow(answer.url, (u) => u.pathname === "/api/auth/callback/google");
      expect(landed(await browser.follow(callback.url, onApp))).toBe("/home");
      expect(landed(await browser.follow(callback.url, onApp))).toBe("/error?error=state_not_found");
    });

    it("refuses a state older than ten minutes, at the flow's errorCallbackURL", async () => {
      const browser = new Browser();
      person();
      const { answer } = await start(browser, { provider: "google", errorCallbackURL: "/sign-in" });
      clock.advance(10 * MINUTE + 1_000);
      try {
        expect(landed(await browser.follow(answer.url, onApp))).toBe("/sign-in?error=please_restart_the_process");
      } finally {
        clock.reset();
      }
      expect(await session(browser)).toBeNull();
    });

    it("refuses a callback in a browser that did not start the flow, and leaves the state to the one that did", async () => {
      const starter = new Browser();
      person();
      const { answer } = await start(starter, { provider: "google" });
      const other = new Browser();
      expect(landed(await other.follow(answer.url, onApp))).toBe("/error?error=state_mismatch");
      expect(await session(other)).toBeNull();
      // A forged state cookie (another value, or a bad signature) is no better.
      const forged = new Browser();
      forged.jar.set("better-auth.state", encodeURIComponent(`${new URL(answer.url).searchParams.get("state")}.${"A".repeat(43)}=`));
      expect(landed(await forged.follow(answer.url, onApp))).toBe("/error?error=state_mismatch");
      expect(landed(await starter.follow(answer.url, onApp))).toBe("/home");
    });

    it("answers no_code when the provider sent no code", async () => {
      const browser = new Browser();
      const { answer } = await start(browser, { provider: "google" });
      const state = new URL(answer.url).searchParams.get("state");
      const landing = await browser.follow(`${server.base}/callback/google?state=${state}`, onApp);
      expect(landed(landing)).toBe("/error?error=no_code");
    });

    it("passes the provider's error through (access_denied), to errorCallbackURL or the /error page", async () => {
      person();
      idp.denyNext();
      const landing = await signIn(new Browser(), "google", { errorCallbackURL: "/sign-in" });
      expect(landing.url.pathname).toBe("/sign-in");
      expect(landing.url.searchParams.get("error")).toBe("access_denied");
      expect(landing.url.searchParams.get("error_description")).toBe("End-User aborted interaction");
      idp.denyNext();
      const plain = await signIn(new Browser(), "corp");
      expect(plain.url.pathname).toBe("/error");
      expect(plain.url.searchParams.get("error")).toBe("access_denied");
    });

    it("answers invalid_callback_request, oauth_provider_not_found and a mix-up of providers by redirect", async () => {
      const browser = new Browser();
      expect(landed(await browser.follow(`${server.base}/callback/google?state=a&state=b`, onApp))).toBe(
        "/error?error=invalid_callback_request",
      );
      const first = await start(browser, { provider: "google" });
      const state = new URL(first.answer.url).searchParams.get("state");
      expect(landed(await browser.follow(`${server.base}/callback/github?code=x&state=${state}`, onApp))).toBe(
        "/error?error=oauth_provider_not_found",
      );
      const second = await start(browser, { provider: "google" });
      const secondState = new URL(second.answer.url).searchParams.get("state");
      expect(landed(await browser.follow(`${server.base}/callback/microsoft?code=x&state=${secondState}`, onApp))).toBe(
        "/error?error=state_mismatch",
      );
    });

    it("answers invalid_code when the code exchange fails", async () => {
      const browser = new Browser();
      const { answer } = await start(browser, { provider: "google" });
      const state = new URL(answer.url).searchParams.get("state");
      expect(landed(await browser.follow(`${server.base}/callback/google?code=forged&state=${state}`, onApp))).toBe(
        "/error?error=invalid_code",
      );
    });

    it("answers 404 for a provider that is not configured, and only the URL with disableRedirect", async () => {
      const browser = new Browser();
      const missing = await browser.request("POST", `${server.base}/sign-in/social`, { json: { provider: "github" } });
      expect(missing.status).toBe(404);
      expect((await missing.json()) as any).toEqual({ code: "PROVIDER_NOT_FOUND", message: "Provider not found" });
      const quiet = await browser.request("POST", `${server.base}/sign-in/social`, {
        json: { provider: "google", disableRedirect: true },
      });
      expect(quiet.headers.get("location")).toBeNull();
      expect(await quiet.json()).toMatchObject({ redirect: false, url: expect.stringContaining(`${idp.issuer}/auth?`) });
      const untrusted = await browser.request("POST", `${server.base}/sign-in/social`, {
        json: { provider: "google", callbackURL: "https://evil.example/steal" },
      });
      expect(untrusted.status).toBe(403);
      expect(((await untrusted.json()) as any).code).toBe("INVALID_CALLBACKURL");
    });

    it("refuses a banned user (banned) and lifts nothing", async () => {
      person();
      const browser = new Browser();
      expect(landed(await signIn(browser, "google"))).toBe("/home");
      const userId = (await session(browser))!.user.id as string;
      await server.gatehouse.runtime.stores.users.updateUser(userId, { banned: true, updatedAt: new Date() });
      const landing = await signIn(new Browser(), "google");
      expect(landing.url.searchParams.get("error")).toBe("banned");
    });

    it("creates users of a disableImplicitSignUp provider only when the sign-in asks for it", async () => {
      person();
      expect(landed(await signIn(new Browser(), "partner"))).toBe("/error?error=signup_disabled");
      const browser = new Browser();
      expect(landed(await signIn(browser, "partner", { requestSignUp: true }))).toBe("/home");
      expect((await accounts(browser))[0]).toMatchObject({ providerId: "partner" });
    });
  });

  describe("POST /sign-in/social with an ID token", () => {
    const post = (body: Record<string, unknown>) =>
      new Browser().request("POST", `${server.base}/sign-in/social`, { json: body });

    it("verifies the token against the provider's JWKS and opens a session", async () => {
      const email = uniqueEmail("idtoken");
      const token = await idp.signIdToken({ sub: `id-${counter++}`, aud: "google-client", email, email_verified: true, nonce: "n-1", name: "Token Holder" });
      const res = await post({ provider: "google", callbackURL: "/home", idToken: { token, nonce: "n-1", accessToken: "at-1" } });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ redirect: false, token: expect.any(String), url: "/home", user: { email, name: "Token Holder", emailVerified: true } });
      expect(res.headers.getSetCookie().some((c) => c.startsWith("better-auth.session_token="))).toBe(true);
    });

    it("takes a native Apple sign-in's name from idToken.user", async () => {
      const token = await idp.signIdToken({ sub: `apple-${counter++}`, aud: "apple-client", email: uniqueEmail("apple"), email_verified: "true" });
      const res = await post({ provider: "apple", idToken: { token, user: { name: { firstName: "Jony", lastName: "Ive" } } } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).user).toMatchObject({ name: "Jony Ive", emailVerified: true });
    });

    it.each([
      ["a wrong audience", { aud: "someone-else" }, {}],
      ["a wrong nonce", { nonce: "sent" }, { nonce: "expected" }],
      ["a nonce the caller did not send", { nonce: "sent" }, {}],
      ["an expiry in the past", { exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 }, {}],
      ["another issuer", { iss: "https://issuer.example" }, {}],
    ])("answers 401 invalid token for %s", async (_label, claims, extra) => {
      const token = await idp.signIdToken({ sub: "x", aud: "google-client", email: uniqueEmail(), email_verified: true, ...claims });
      const res = await post({ provider: "google", idToken: { token, ...extra } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    });

    it("answers 401 invalid token for a bad signature (another key under the provider's key id)", async () => {
      const { privateKey } = await generateKeyPair("RS256");
      const token = await idp.signIdToken(
        { sub: "x", aud: "google-client", email: uniqueEmail(), email_verified: true },
        { key: privateKey, kid: SIGNING_KID },
      );
      const res = await post({ provider: "google", idToken: { token } });
      expect(res.status).toBe(401);
      expect(((await res.json()) as any).code).toBe("INVALID_TOKEN");
      const tampered = (await idp.signIdToken({ sub: "x", aud: "google-client", email: uniqueEmail() })).split(".");
      tampered[1] = Buffer.from(JSON.stringify({ sub: "y", aud: "google-client", iss: idp.issuer, exp: 9e9, iat: 1 })).toString("base64url");
      expect((await post({ provider: "google", idToken: { token: tampered.join(".") } })).status).toBe(401);
    });
  });

  describe("linking by email", () => {
    /** A password user (the browser holds their session), verified or not. */
    async function passwordUser(verified: boolean) {
      const browser = new Browser();
      const email = uniqueEmail("pw");
      const res = await browser.request("POST", `${server.base}/sign-up/email`, {
        json: { name: "Password User", email, password: PASSWORD },
      });
      expect(res.status).toBe(200);
      const id = ((await res.json()) as { user: { id: string } }).user.id;
      if (verified) await server.gatehouse.runtime.stores.users.updateUser(id, { emailVerified: true, updatedAt: new Date() });
      return { browser, email, id };
    }

    it("never links into an account whose email was never verified (pre-registration takeover)", async () => {
      const squatter = await passwordUser(false);
      person({ email: squatter.email, email_verified: true });
      const browser = new Browser();
      expect(landed(await signIn(browser, "google"))).toBe("/error?error=account_not_linked");
      expect(await session(browser)).toBeNull();
      // Not even through a trusted provider, nor with an ID token.
      expect(landed(await signIn(new Browser(), "corp"))).toBe("/error?error=account_not_linked");
      const token = await idp.signIdToken({ sub: "takeover", aud: "google-client", email: squatter.email, email_verified: true });
      const res = await new Browser().request("POST", `${server.base}/sign-in/social`, { json: { provider: "google", idToken: { token } } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: "ACCOUNT_NOT_LINKED", message: "account not linked" });
      expect((await accounts(squatter.browser)).map((a) => a.providerId)).toEqual(["credential"]);
    });

    it("links into a verified account when the provider verified the address too", async () => {
      const owner = await passwordUser(true);
      person({ email: owner.email, email_verified: true });
      const browser = new Browser();
      expect(landed(await signIn(browser, "google"))).toBe("/home");
      expect((await session(browser))?.user.id).toBe(owner.id);
      expect((await accounts(owner.browser)).map((a) => a.providerId).sort()).toEqual(["credential", "google"]);
    });

    it("does not link an address the provider did not verify, unless the provider is trusted", async () => {
      const owner = await passwordUser(true);
      person({ email: owner.email, email_verified: false });
      expect(landed(await signIn(new Browser(), "google"))).toBe("/error?error=account_not_linked");
      const browser = new Browser();
      expect(landed(await signIn(browser, "corp"))).toBe("/home");
      expect((await session(browser))?.user.id).toBe(owner.id);
    });

    it("links a provider account with POST /link-social, and refuses one that belongs to someone else", async () => {
      const taken = person();
      expect(landed(await signIn(new Browser(), "google"))).toBe("/home");

      const owner = await passwordUser(true);
      const res = await owner.browser.request("POST", `${server.base}/link-social`, {
        json: { provider: "google", callbackURL: "/account" },
      });
      expect(res.status).toBe(200);
      const answer = (await res.json()) as { url: string; redirect: boolean };
      expect(answer.redirect).toBe(true);
      idp.loginAs(taken.sub);
      expect(landed(await owner.browser.follow(answer.url, onApp))).toBe(
        "/error?error=account_already_linked_to_different_user",
      );

      // A fresh provider session, as the owner's own provider account.
      for (const name of [...owner.browser.jar.keys()]) if (name.startsWith("_")) owner.browser.jar.delete(name);
      person({ email: owner.email });
      const again = await owner.browser.request("POST", `${server.base}/link-social`, {
        json: { provider: "google", callbackURL: "/account" },
      });
      const url = ((await again.json()) as { url: string }).url;
      expect(landed(await owner.browser.follow(url, onApp))).toBe("/account");
      expect((await accounts(owner.browser)).map((a) => a.providerId).sort()).toEqual(["credential", "google"]);
    });

    it("refuses to link a provider account with another address (email_does_not_match)", async () => {
      const owner = await passwordUser(true);
      person({ email: uniqueEmail("different") });
      const res = await owner.browser.request("POST", `${server.base}/link-social`, { json: { provider: "corp", callbackURL: "/account" } });
      const url = ((await res.json()) as { url: string }).url;
      expect(landed(await owner.browser.follow(url, onApp))).toBe("/error?error=email_does_not_match");
    });
  });

  describe("accounts and provider tokens", () => {
    it("lists accounts as { id, providerId, provider, accountId, userId, createdAt, updatedAt, scopes }", async () => {
      const browser = new Browser();
      const who = person();
      await signIn(browser, "google");
      const [item] = await accounts(browser);
      expect(Object.keys(item!).sort()).toEqual(
        ["accountId", "createdAt", "id", "provider", "providerId", "scopes", "updatedAt", "userId"].sort(),
      );
      expect(item).toMatchObject({ providerId: "google", provider: "google", accountId: who.sub });
      expect(item!.scopes).toEqual(expect.arrayContaining(["openid", "email", "profile"]));
    });

    it("refuses to unlink the last account, and unlinks another by either body form", async () => {
      const browser = new Browser();
      const who = person();
      await signIn(browser, "google");
      const last = await browser.request("POST", `${server.base}/unlink-account`, { json: { providerId: "google" } });
      expect(last.status).toBe(400);
      expect(await last.json()).toEqual({ code: "YOU_CANT_UNLINK_YOUR_LAST_ACCOUNT", message: "You can't unlink your last account" });

      for (const name of [...browser.jar.keys()]) if (name.startsWith("_")) browser.jar.delete(name);
      person({ email: who.email });
      const link = await browser.request("POST", `${server.base}/link-social`, { json: { provider: "corp", disableRedirect: true } });
      expect(landed(await browser.follow(((await link.json()) as { url: string }).url, onApp))).toBe("/");
      const list = await accounts(browser);
      expect(list).toHaveLength(2);
      const google = list.find((a) => a.providerId === "google")!;
      const missing = await browser.request("POST", `${server.base}/unlink-account`, { json: { providerId: "github" } });
      expect(missing.status).toBe(400);
      expect(((await missing.json()) as any).code).toBe("ACCOUNT_NOT_FOUND");
      const done = await browser.request("POST", `${server.base}/unlink-account`, { json: { accountId: google.id } });
      expect(done.status).toBe(200);
      expect(await done.json()).toEqual({ status: true });
      expect((await accounts(browser)).map((a) => a.providerId)).toEqual(["corp"]);
    });

    it("keeps the last account when another unlink of the same user is still in flight", async () => {
      const browser = new Browser();
      const who = person();
      await signIn(browser, "google");
      for (const name of [...browser.jar.keys()]) if (name.startsWith("_")) browser.jar.delete(name);
      person({ email: who.email });
      const link = await browser.request("POST", `${server.base}/link-social`, { json: { provider: "corp", disableRedirect: true } });
      await browser.follow(((await link.json()) as { url: string }).url, onApp);
      const [first, second] = await accounts(browser);
      const userId = first!.userId as string;

      // One unlink (done here as the route does it) is mid-transaction: it has deleted `first`, not yet committed.
      let commit!: () => void;
      let deletedFirst!: () => void;
      const firstDeleted = new Promise<void>((resolve) => (deletedFirst = resolve));
      const inFlight = server.gatehouse.runtime.stores.transaction(async (stores) => {
        await stores.users.lockUser(userId);
        expect(await stores.accounts.deleteUserAccount(userId, first!.id as string, { keepLast: true })).toBe(true);
        deletedFirst();
        await new Promise<void>((resolve) => (commit = resolve));
      });
      await firstDeleted;
      // The second unlink must wait for it, then see that `second` is now the last account.
      const racing = browser.request("POST", `${server.base}/unlink-account`, { json: { accountId: second!.id } });
      await sleep(200);
      commit();
      await inFlight;
      const answer = await racing;
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { code: string }).code).toBe("YOU_CANT_UNLINK_YOUR_LAST_ACCOUNT");
      expect((await accounts(browser)).map((a) => a.id)).toEqual([second!.id]);
    });

    it("stores one account per provider identity: a second row for it is refused by the database", async () => {
      const browser = new Browser();
      const who = person();
      await signIn(browser, "google");
      const userId = (await session(browser))!.user.id as string;
      const [stored] = await server.gatehouse.runtime.stores.accounts.listUserAccounts(userId);
      const copy = { ...stored!, id: `copy-${who.sub}` };
      await expect(server.gatehouse.runtime.stores.accounts.createAccount(copy)).rejects.toThrow();
      expect(await server.gatehouse.runtime.stores.accounts.listUserAccounts(userId)).toHaveLength(1);
    });

    it("keeps provider tokens encrypted at rest and hands them out in plain", async () => {
      const browser = new Browser();
      const who = person();
      await signIn(browser, "google");
      const userId = (await session(browser))!.user.id as string;
      const [stored] = await server.gatehouse.runtime.stores.accounts.listUserAccounts(userId);
      for (const token of [stored!.accessToken, stored!.refreshToken, stored!.idToken]) expect(token).toMatch(/^gh1:[A-Za-z0-9_-]+$/);
      const res = await browser.request("POST", `${server.base}/get-access-token`, { json: { providerId: "google" } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { accessToken: string; idToken: string; scopes: string[] };
      expect(body.accessToken).not.toMatch(/^gh1:/);
      expect(stored!.accessToken).not.toContain(body.accessToken);
      expect(body.idToken.split(".")).toHaveLength(3);
      // The token is the provider's own: its userinfo endpoint accepts it.
      const info = await fetch(`${idp.issuer}/me`, { headers: { authorization: `Bearer ${body.accessToken}` } });
      expect(((await info.json()) as { sub: string }).sub).toBe(who.sub);
    });

    it("refreshes an expired access token (get-access-token) and on request (refresh-token)", async () => {
      const browser = new Browser();
      person();
      await signIn(browser, "google");
      const before = (await (await browser.request("POST", `${server.base}/get-access-token`, { json: { providerId: "google" } })).json()) as {
        accessToken: string;
        accessTokenExpiresAt: string;
      };
      clock.advance(3_600_000);
      try {
        const res = await browser.request("POST", `${server.base}/get-access-token`, { json: { providerId: "google" } });
        expect(res.status).toBe(200);
        const after = (await res.json()) as { accessToken: string; accessTokenExpiresAt: string };
        expect(after.accessToken).not.toBe(before.accessToken);
        expect(Date.parse(after.accessTokenExpiresAt)).toBeGreaterThan(clock.now().getTime());

        const refreshed = await browser.request("POST", `${server.base}/refresh-token`, { json: { providerId: "google" } });
        expect(refreshed.status).toBe(200);
        const body = (await refreshed.json()) as any;
        expect(body).toMatchObject({ providerId: "google", refreshToken: expect.any(String), idToken: expect.any(String) });
        expect(body.accessToken).not.toBe(after.accessToken);
      } finally {
        clock.reset();
      }
    });

    it("needs a session over HTTP, honours userId server-side, and answers account-info", async () => {
      const browser = new Browser();
      const who = person();
      await signIn(browser, "google");
      const userId = (await session(browser))!.user.id as string;
      const anonymous = await new Browser().request("POST", `${server.base}/refresh-token`, { json: { providerId: "google" } });
      expect(anonymous.status).toBe(400);
      expect(((await anonymous.json()) as any).code).toBe("EITHER_USERID_OR_SESSION_IS_REQUIRED");
      const spoofed = await new Browser().request("POST", `${server.base}/get-access-token`, { json: { providerId: "google", userId } });
      expect(spoofed.status).toBe(401);
      const serverSide = await server.gatehouse.api.getAccessToken({ body: { providerId: "google", userId } });
      expect(serverSide.accessToken).toEqual(expect.any(String));

      const info = await browser.request("GET", `${server.base}/account-info?providerId=google`);
      expect(info.status).toBe(200);
      expect(await info.json()).toMatchObject({
        user: { id: who.sub, email: who.email, emailVerified: true },
        account: { providerId: "google", accountId: who.sub },
      });
    });
  });
});

import { createHash, generateKeyPairSync } from "node:crypto";
import { createLocalJWKSet, createRemoteJWKSet, decodeProtectedHeader, jwtVerify, SignJWT, UnsecuredJWT, type JSONWebKeySet } from "jose";
import { sql } from "kysely";
import * as oidc from "openid-client";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOidcCommand } from "../src/oidc-provider/cli.js";
import { newSigningKey } from "../src/oidc-provider/keys.js";
import { tokenKey } from "../src/oidc-provider/secrets.js";
import { oidcService } from "../src/oidc-provider/service.js";
import { signUpAdmin } from "./helpers/admin.js";
import { createTestDatabase, DIALECTS, POSTGRES_URL, refuseInserts, type TestDatabase } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient } from "./helpers/http-client.js";
import { startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";
import { startTcpProxy, type TcpProxy } from "./helpers/tcp-proxy.js";

/**
 * Gatehouse as an OpenID Provider (README "OpenID Provider"), against a real relying party (openid-client, the
 * certified client library) and jose, on SQLite and PostgreSQL: the authorization code flow with PKCE through the
 * Gatehouse session and the consent routes, refresh with rotation, logout; client credentials checked by an API with
 * jose; and each attack of the issue with its safe outcome.
 */
const REDIRECT = "http://127.0.0.1:9/callback";
const SIGNED_OUT = "http://127.0.0.1:9/signed-out";
const WEB_SECRET = "dashboard-secret-that-is-long-enough-0123456789";
const FIRST_PARTY_SECRET = "first-party-secret-that-is-long-enough-0123456789";
const API = "https://api.example.test";

interface Browse {
  url: string;
  visited: string[];
  response?: { status: number; text: string };
}

/** A browser: the test client's cookie jar, following redirects until one leaves the service's API. */
async function browse(server: TestServer, browser: TestClient, start: string, stopAt = REDIRECT): Promise<Browse> {
  let url = start;
  const visited: string[] = [];
  for (let hops = 0; hops < 20; hops += 1) {
    if (url.startsWith(stopAt)) return { url, visited };
    visited.push(url);
    const absolute = new URL(url, server.url);
    // Off the service's API: the application, or a page of the web app (sign-in, consent).
    if (absolute.origin !== new URL(server.url).origin || !absolute.pathname.startsWith("/api/auth/")) return { url: absolute.href, visited };
    const response = await browser.get(absolute.pathname.slice("/api/auth".length) + absolute.search);
    const location = response.headers.get("location");
    if (!location) return { url: absolute.href, visited, response };
    url = new URL(location, absolute).href;
  }
  throw new Error(`too many redirects: ${visited.join(" -> ")}`);
}

const S256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

describe.each(DIALECTS)("OpenID Provider on %s", (dialect) => {
  let server: TestServer;
  let dashboard: oidc.Configuration;
  let firstParty: oidc.Configuration;
  let jwks: ReturnType<typeof createRemoteJWKSet>;

  const discover = (clientId: string, auth: oidc.ClientAuth) =>
    oidc.discovery(new URL(server.url), clientId, undefined, auth, { execute: [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks] });

  /** A signed-in browser (a fresh user). */
  async function signedIn() {
    const browser = new TestClient(`${server.url}/api/auth`);
    const { user, email } = await signUp(browser);
    return { browser, user, email };
  }

  /** Sends the browser through an authorization request; answers where it lands (the application or a web page). */
  async function authorize(config: oidc.Configuration, browser: TestClient, params: Record<string, string> = {}) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "openid profile email",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
      ...params,
    });
    const landed = await browse(server, browser, url.href);
    return { landed, verifier, state, nonce };
  }

  /** Consents on the (web) consent page's behalf and follows the browser back to the application. */
  async function consent(browser: TestClient, landed: Browse, body: Record<string, unknown> = {}) {
    const page = new URL(landed.url);
    expect(page.pathname).toBe("/oauth/consent");
    const uid = page.searchParams.get("uid")!;
    const answer = await browser.post("/oauth2/consent", { uid, accept: true, ...body });
    expect(answer.status).toBe(200);
    return browse(server, browser, answer.body.url);
  }

  /** Signs in, authorizes with offline_access, consents, and redeems the code. */
  async function fullLogin(config = dashboard, scope = "openid profile email offline_access") {
    const { browser, user } = await signedIn();
    const { landed, verifier, state, nonce } = await authorize(config, browser, { scope, prompt: "consent" });
    const back = config === dashboard ? await consent(browser, landed) : landed;
    const callback = new URL(back.url);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    return { browser, user, tokens, callback, verifier };
  }

  /** A raw token request (what a client that is not openid-client, or an attacker, sends). */
  function tokenRequest(body: Record<string, string>, auth: { id: string; secret?: string } = { id: "dashboard", secret: WEB_SECRET }) {
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
    if (auth.secret !== undefined) headers.authorization = `Basic ${Buffer.from(`${auth.id}:${auth.secret}`).toString("base64")}`;
    else body = { ...body, client_id: auth.id };
    return fetch(`${server.url}/api/auth/oauth2/token`, { method: "POST", headers, body: new URLSearchParams(body) });
  }

  async function userinfo(accessToken: string) {
    return fetch(`${server.url}/api/auth/oauth2/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
  }

  async function introspect(token: string, clientId = "dashboard", secret = WEB_SECRET) {
    const response = await fetch(`${server.url}/api/auth/oauth2/introspect`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`,
      },
      body: new URLSearchParams({ token }),
    });
    return (await response.json()) as Record<string, unknown>;
  }

  /** Lets the browser's code reach the token endpoint as an attacker would, without openid-client's checks. */
  async function codeFor(config: oidc.Configuration, browser: TestClient) {
    const { landed, verifier } = await authorize(config, browser);
    const code = new URL(landed.url).searchParams.get("code");
    return { code: code!, verifier, landed };
  }

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      oidcProvider: {
        trustedClients: [
          {
            clientId: "dashboard",
            clientSecret: WEB_SECRET,
            name: "Dashboard",
            type: "web",
            redirectURLs: [REDIRECT],
            postLogoutRedirectURLs: [SIGNED_OUT],
            skipConsent: false,
            scopes: ["openid", "profile", "email", "offline_access", "organizations", "active_organization"],
          },
          {
            clientId: "first-party",
            clientSecret: FIRST_PARTY_SECRET,
            name: "Forum",
            type: "web",
            redirectURLs: [REDIRECT],
            skipConsent: true,
          },
          {
            clientId: "native-app",
            name: "Desktop app",
            type: "public",
            redirectURLs: ["http://127.0.0.1/callback", "com.example.desktop:/callback"],
          },
        ],
      },
    });
    dashboard = await discover("dashboard", oidc.ClientSecretBasic(WEB_SECRET));
    firstParty = await discover("first-party", oidc.ClientSecretPost(FIRST_PARTY_SECRET));
    jwks = createRemoteJWKSet(new URL(`${server.url}/api/auth/jwks`));
  });
  afterAll(() => server?.close());

  it("serves discovery at the issuer and under the API's base path, with RS256, ES256, S256 and RFC 9207", async () => {
    const atIssuer = await fetch(`${server.url}/.well-known/openid-configuration`);
    const underBase = await fetch(`${server.url}/api/auth/.well-known/openid-configuration`);
    expect(atIssuer.status).toBe(200);
    const document = (await atIssuer.json()) as Record<string, unknown>;
    expect(await underBase.json()).toEqual(document);
    expect(document.issuer).toBe(server.url);
    expect(document.authorization_endpoint).toBe(`${server.url}/api/auth/oauth2/authorize`);
    expect(document.token_endpoint).toBe(`${server.url}/api/auth/oauth2/token`);
    expect(document.jwks_uri).toBe(`${server.url}/api/auth/jwks`);
    expect(document.userinfo_endpoint).toBe(`${server.url}/api/auth/oauth2/userinfo`);
    expect(document.introspection_endpoint).toBe(`${server.url}/api/auth/oauth2/introspect`);
    expect(document.revocation_endpoint).toBe(`${server.url}/api/auth/oauth2/revoke`);
    expect(document.end_session_endpoint).toBe(`${server.url}/api/auth/oauth2/end-session`);
    expect(document.registration_endpoint).toBeUndefined();
    expect(document.id_token_signing_alg_values_supported).toEqual(expect.arrayContaining(["RS256", "ES256"]));
    expect(document.code_challenge_methods_supported).toEqual(["S256"]);
    expect(document.authorization_response_iss_parameter_supported).toBe(true);
    expect(document.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "refresh_token", "client_credentials"]));
    expect(document.scopes_supported).toEqual(expect.arrayContaining(["openid", "profile", "email", "offline_access", "organizations"]));
    // A Host header never makes it into the document.
    const spoofed = await fetch(`${server.url}/.well-known/openid-configuration`, { headers: { "x-forwarded-host": "evil.test" } });
    expect(((await spoofed.json()) as Record<string, unknown>).token_endpoint).toBe(`${server.url}/api/auth/oauth2/token`);

    const keys = (await (await fetch(`${server.url}/api/auth/jwks`)).json()) as JSONWebKeySet;
    expect(keys.keys.map((k) => k.alg).sort()).toEqual(["ES256", "RS256"]);
    for (const key of keys.keys) {
      expect(key.kid).toBeTruthy();
      for (const secret of ["d", "p", "q", "dp", "dq", "qi"]) expect(key).not.toHaveProperty(secret);
    }
  });

  it("completes the authorization code flow with PKCE: Gatehouse session, consent, code, ID token, userinfo, refresh, logout", async () => {
    const { browser, user } = await signedIn();
    const { landed, verifier, state, nonce } = await authorize(dashboard, browser, {
      scope: "openid profile email offline_access",
      prompt: "consent",
    });
    // The web app's consent page, given the interaction's id.
    const page = new URL(landed.url);
    expect(page.origin + page.pathname).toBe(`${server.url}/oauth/consent`);
    const uid = page.searchParams.get("uid")!;
    const details = await browser.get(`/oauth2/get-interaction?uid=${uid}`);
    expect(details.status).toBe(200);
    expect(details.body.client).toMatchObject({ clientId: "dashboard", name: "Dashboard", firstParty: false });
    expect(details.body.user).toMatchObject({ id: user.id });
    expect(details.body.redirectOrigin).toBe("http://127.0.0.1:9");
    expect(details.body.newScopes).toEqual(["openid", "profile", "email", "offline_access"]);
    // Another user cannot answer it.
    const stranger = await signedIn();
    const refused = await stranger.browser.post("/oauth2/consent", { uid, accept: true });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("INTERACTION_BELONGS_TO_ANOTHER_USER");

    const back = await consent(browser, landed);
    const callback = new URL(back.url);
    expect(callback.searchParams.get("iss")).toBe(server.url);
    const tokens = await oidc.authorizationCodeGrant(dashboard, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    expect(tokens.refresh_token).toBeTruthy();

    // The ID token, checked with jose against the JWKS.
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token!, jwks, { issuer: server.url, audience: "dashboard" });
    expect(protectedHeader.alg).toBe("RS256");
    expect(payload).toMatchObject({ sub: user.id, nonce, email: user.email, email_verified: false, name: "Test User" });
    expect(payload.amr).toEqual(["pwd"]);
    expect(typeof payload.auth_time).toBe("number");

    const info = await oidc.fetchUserInfo(dashboard, tokens.access_token, user.id);
    expect(info).toMatchObject({ sub: user.id, email: user.email, email_verified: false, name: "Test User" });

    // Refresh with rotation: a new refresh token each time; the new access token works.
    const refreshed = await oidc.refreshTokenGrant(dashboard, tokens.refresh_token!);
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await userinfo(refreshed.access_token)).status).toBe(200);

    // The consent is remembered: the next authorization goes straight back with a code.
    const again = await authorize(dashboard, browser);
    expect(new URL(again.landed.url).searchParams.get("code")).toBeTruthy();

    // RP-initiated logout: the confirmation page, then the form, then the post-logout URL with the state.
    const logout = oidc.buildEndSessionUrl(dashboard, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: SIGNED_OUT, state: "bye" });
    const confirmation = await browser.get(logout.pathname.slice("/api/auth".length) + logout.search, { headers: { "accept-language": "de" } });
    expect(confirmation.status).toBe(200);
    expect(confirmation.text).toContain('lang="de"');
    expect(confirmation.text).toContain("Dashboard möchte Sie abmelden.");
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirmation.text)![1]!;
    const confirmed = await browser.request("POST", "/oauth2/end-session/confirm", {
      rawBody: new URLSearchParams({ xsrf, logout: "yes" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe(`${SIGNED_OUT}?state=bye`);
    // Signed out of Gatehouse too.
    expect((await browser.get("/get-session")).body).toBeNull();
    // The refresh token held offline_access: it survives the logout, as OpenID Connect means it to.
    expect((await oidc.refreshTokenGrant(dashboard, refreshed.refresh_token!)).access_token).toBeTruthy();
  });

  it("sends a browser without a session to the sign-in page and back, and honours prompt=login, max_age and prompt=none", async () => {
    const browser = new TestClient(`${server.url}/api/auth`);
    const { landed } = await authorize(dashboard, browser);
    const signInPage = new URL(landed.url);
    expect(signInPage.pathname).toBe("/sign-in");
    const returnTo = signInPage.searchParams.get("returnTo")!;
    expect(returnTo).toMatch(/^\/api\/auth\/oauth2\/interaction\/[A-Za-z0-9_-]+$/);
    expect(signInPage.searchParams.get("prompt")).toBeNull();
    await signUp(browser);
    const after = await browse(server, browser, `${server.url}${returnTo}`);
    expect(new URL(after.url).pathname).toBe("/oauth/consent");

    // prompt=none without a session: login_required at the application, no page.
    const anonymous = new TestClient(`${server.url}/api/auth`);
    const silent = await authorize(dashboard, anonymous, { prompt: "none" });
    expect(new URL(silent.landed.url).searchParams.get("error")).toBe("login_required");

    // prompt=login with a session: a fresh sign-in first.
    const { browser: user } = await signedIn();
    const forced = await authorize(firstParty, user, { prompt: "login" });
    const again = new URL(forced.landed.url);
    expect(again.pathname).toBe("/sign-in");
    expect(again.searchParams.get("prompt")).toBe("login");
    // Going back without signing in again: still owed.
    const notYet = await browse(server, user, `${server.url}${again.searchParams.get("returnTo")}`);
    expect(new URL(notYet.url).searchParams.get("prompt")).toBe("login");
    const email = (await user.get("/get-session")).body.user.email as string;
    await new Promise((r) => setTimeout(r, 1100));
    expect((await user.post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    const done = await browse(server, user, `${server.url}${again.searchParams.get("returnTo")}`);
    expect(new URL(done.url).searchParams.get("code")).toBeTruthy();

    // max_age=1 two seconds after the sign-in: a fresh one is owed.
    await new Promise((r) => setTimeout(r, 2100));
    const aged = await authorize(firstParty, user, { max_age: "1" });
    expect(new URL(aged.landed.url).searchParams.get("prompt")).toBe("login");
  });

  it("names the application of an authorization to the pages on its way (name and logo only), by the interaction's id", async () => {
    const browser = new TestClient(`${server.url}/api/auth`);
    const { landed } = await authorize(dashboard, browser);
    const returnTo = new URL(landed.url).searchParams.get("returnTo")!;
    const uid = returnTo.slice(returnTo.lastIndexOf("/") + 1);
    // From the web app's page, which the interaction's cookie (path-bound) does not reach: any browser with the id.
    const stranger = new TestClient(`${server.url}/api/auth`);
    const named = await stranger.get(`/oauth2/interaction-client?uid=${uid}`);
    expect(named.status).toBe(200);
    expect(named.body).toEqual({ clientId: "dashboard", name: "Dashboard", logoUri: null });
    const unknown = await stranger.get("/oauth2/interaction-client?uid=nope");
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("INTERACTION_NOT_FOUND");
    expect((await stranger.get("/oauth2/interaction-client?uid=bad%20uid")).body.code).toBe("VALIDATION_ERROR");
    expect((await stranger.get("/oauth2/interaction-client")).status).toBe(400);
  });

  it("lets a first-party client through without a consent page, and says how the user signed in", async () => {
    const { browser, user } = await signedIn();
    const { landed, verifier, state, nonce } = await authorize(firstParty, browser);
    const callback = new URL(landed.url);
    expect(callback.searchParams.get("code")).toBeTruthy();
    const tokens = await oidc.authorizationCodeGrant(firstParty, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    expect(tokens.claims()!.sub).toBe(user.id);
    const grants = await browser.get("/oauth2/list-grants");
    expect(grants.body.grants).toEqual([
      expect.objectContaining({ clientId: "first-party", clientName: "Forum", scopes: expect.arrayContaining(["openid", "profile", "email"]) }),
    ]);
    // offline_access: a first-party client's consent is implied, so it gets a refresh token without prompt=consent;
    // another client does not (OpenID Connect's rule).
    const offline = await authorize(firstParty, browser, { scope: "openid offline_access" });
    const withRefresh = await oidc.authorizationCodeGrant(firstParty, new URL(offline.landed.url), {
      pkceCodeVerifier: offline.verifier,
      expectedState: offline.state,
      expectedNonce: offline.nonce,
    });
    expect(withRefresh.refresh_token).toBeTruthy();
    expect(withRefresh.scope).toContain("offline_access");
    const third = await authorize(dashboard, browser, { scope: "openid offline_access" });
    const back = await consent(browser, third.landed);
    const withoutRefresh = await oidc.authorizationCodeGrant(dashboard, new URL(back.url), {
      pkceCodeVerifier: third.verifier,
      expectedState: third.state,
      expectedNonce: third.nonce,
    });
    expect(withoutRefresh.refresh_token).toBeUndefined();
  });

  it("counts the second factor in the sign-in: amr says password, one-time code and mfa", async () => {
    const { browser, email } = await signedIn();
    const enable = await browser.post("/two-factor/enable", { password: PASSWORD });
    expect(enable.status).toBe(200);
    const secret = new URL(enable.body.totpURI).searchParams.get("secret")!;
    const code = (steps: number) => TOTP.generate({ secret: Secret.fromBase32(secret), digits: 6, timestamp: Date.now() + steps * 30_000 });
    expect((await browser.post("/two-factor/verify-totp", { code: code(0) })).status).toBe(200);
    // A new browser: the password alone does not make a session, so the application waits for the second step.
    const fresh = new TestClient(`${server.url}/api/auth`);
    const { landed } = await authorize(firstParty, fresh);
    const returnTo = new URL(landed.url).searchParams.get("returnTo")!;
    expect((await fresh.post("/sign-in/email", { email, password: PASSWORD })).body).toMatchObject({ twoFactorRedirect: true });
    const halfway = await browse(server, fresh, `${server.url}${returnTo}`);
    expect(new URL(halfway.url).pathname).toBe("/sign-in");
    expect((await fresh.post("/two-factor/verify-totp", { code: code(1) })).status).toBe(200);
    const { landed: back, verifier, state, nonce } = await authorize(firstParty, fresh);
    const tokens = await oidc.authorizationCodeGrant(firstParty, new URL(back.url), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    expect(tokens.claims()!.amr).toEqual(["pwd", "otp", "mfa"]);
  });

  it("issues client-credentials tokens a resource server verifies with jose against the JWKS", async () => {
    const admin = new TestClient(`${server.url}/api/auth`);
    await signUpAdmin(server, admin);
    const created = await admin.post("/admin/oauth2/create-client", {
      name: "Billing worker",
      type: "machine",
      scopes: ["invoices:read", "invoices:write"],
      audience: [API],
    });
    expect(created.status).toBe(200);
    const { client, clientSecret } = created.body;
    expect(client).toMatchObject({ type: "machine", accessTokenFormat: "jwt", grantTypes: ["client_credentials"], hasSecret: true });
    expect(JSON.stringify(created.body.client)).not.toContain(clientSecret);
    const machine = await discover(client.clientId, oidc.ClientSecretBasic(clientSecret));
    const granted = await oidc.clientCredentialsGrant(machine, { scope: "invoices:read" });
    expect(granted.refresh_token).toBeUndefined();
    const { payload, protectedHeader } = await jwtVerify(granted.access_token, jwks, {
      issuer: server.url,
      audience: API,
      typ: "at+jwt",
    });
    expect(protectedHeader.typ).toBe("at+jwt");
    expect(payload).toMatchObject({ sub: client.clientId, client_id: client.clientId, scope: "invoices:read" });
    expect(typeof payload.jti).toBe("string");
    // A scope the client was not given is refused, not dropped.
    await expect(oidc.clientCredentialsGrant(machine, { scope: "invoices:delete" })).rejects.toMatchObject({ error: "invalid_scope" });
    // Another API's audience is refused.
    await expect(oidc.clientCredentialsGrant(machine, { scope: "invoices:read", resource: "https://other.example.test" })).rejects.toMatchObject({
      error: "invalid_target",
    });

    // An opaque machine client: its tokens are checked by introspection.
    const opaque = await admin.post("/admin/oauth2/create-client", {
      name: "Reporting",
      type: "machine",
      scopes: ["reports:read"],
      accessTokenFormat: "opaque",
    });
    const opaqueConfig = await discover(opaque.body.client.clientId, oidc.ClientSecretBasic(opaque.body.clientSecret));
    const token = await oidc.clientCredentialsGrant(opaqueConfig, { scope: "reports:read" });
    const active = await oidc.tokenIntrospection(opaqueConfig, token.access_token);
    expect(active).toMatchObject({ active: true, client_id: opaque.body.client.clientId, scope: "reports:read" });
    await oidc.tokenRevocation(opaqueConfig, token.access_token);
    expect((await oidc.tokenIntrospection(opaqueConfig, token.access_token)).active).toBe(false);
  });

  it("does not let an administrator impersonating a user sign that user in to an application", async () => {
    const { user } = await signedIn();
    const admin = new TestClient(`${server.url}/api/auth`);
    await signUpAdmin(server, admin);
    expect((await admin.post("/admin/impersonate-user", { userId: user.id })).status).toBe(200);
    const { landed } = await authorize(firstParty, admin);
    const answer = new URL(landed.url);
    expect(answer.origin + answer.pathname).toBe(REDIRECT);
    expect(answer.searchParams.get("error")).toBe("access_denied");
    expect(answer.searchParams.get("code")).toBeNull();
  });

  it("gives a web client set to JWT access tokens an RFC 9068 token for its API, beside its ID token", async () => {
    const admin = new TestClient(`${server.url}/api/auth`);
    await signUpAdmin(server, admin);
    const created = await admin.post("/admin/oauth2/create-client", {
      name: "Reports",
      type: "web",
      redirectURLs: [REDIRECT],
      scopes: ["openid", "email", "reports:read"],
      accessTokenFormat: "jwt",
      audience: [API],
      skipConsent: true,
      signingAlg: "ES256",
    });
    expect(created.status).toBe(200);
    const reports = await discover(created.body.client.clientId, oidc.ClientSecretBasic(created.body.clientSecret));
    const { browser, user } = await signedIn();
    const { landed, verifier, state, nonce } = await authorize(reports, browser, { scope: "openid email reports:read" });
    const tokens = await oidc.authorizationCodeGrant(reports, new URL(landed.url), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    const access = await jwtVerify(tokens.access_token, jwks, { issuer: server.url, audience: API, typ: "at+jwt" });
    expect(access.payload).toMatchObject({ sub: user.id, client_id: created.body.client.clientId });
    expect(String(access.payload.scope).split(" ")).toContain("reports:read");
    const id = await jwtVerify(tokens.id_token!, jwks, { issuer: server.url, audience: created.body.client.clientId });
    expect(id.protectedHeader.alg).toBe("ES256");
    expect(id.payload.email).toBe(user.email);
    // A token for an API is not a userinfo token.
    expect((await userinfo(tokens.access_token)).status).toBe(401);
  });

  it("refuses a code redeemed twice and revokes the tokens the first redemption issued", async () => {
    const { browser } = await signedIn();
    const { landed, verifier, state, nonce } = await authorize(dashboard, browser, { scope: "openid offline_access", prompt: "consent" });
    const back = await consent(browser, landed);
    const code = new URL(back.url).searchParams.get("code")!;
    const first = await oidc.authorizationCodeGrant(dashboard, new URL(back.url), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    expect((await userinfo(first.access_token)).status).toBe(200);
    const second = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier });
    expect(second.status).toBe(400);
    expect(((await second.json()) as { error: string }).error).toBe("invalid_grant");
    expect((await userinfo(first.access_token)).status).toBe(401);
    expect((await introspect(first.access_token)).active).toBe(false);
    const refresh = await tokenRequest({ grant_type: "refresh_token", refresh_token: first.refresh_token! });
    expect(((await refresh.json()) as { error: string }).error).toBe("invalid_grant");
    // A security event of the user's: the grant revoked for a replay; and the consent before it.
    const events = (await browser.get("/list-security-events?type=oidc_grant.*")).body.events as { type: string; data: Record<string, unknown> }[];
    expect(events.map((e) => [e.type, e.data.reason])).toEqual([
      ["oidc_grant.revoked", "replay"],
      ["oidc_grant.given", undefined],
    ]);
    expect(events[0]!.data.clientId).toBe("dashboard");
  });

  it("refuses two redemptions of one code sent at once: one at most succeeds, and its tokens are revoked", async () => {
    const { browser } = await signedIn();
    const { code, verifier } = await codeFor(firstParty, browser);
    const body = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier };
    const auth = { id: "first-party", secret: FIRST_PARTY_SECRET };
    const answers = await Promise.all(Array.from({ length: 6 }, () => tokenRequest(body, auth)));
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as { access_token?: string; error?: string }[];
    const issued = bodies.filter((b) => b.access_token);
    expect(issued.length).toBeLessThanOrEqual(1);
    expect(bodies.filter((b) => b.error === "invalid_grant").length).toBeGreaterThanOrEqual(5);
    for (const b of issued) expect((await userinfo(b.access_token!)).status).toBe(401);
    // The revocation's security event, written in the revocation's transaction by a request that lost the race.
    const events = (await browser.get("/list-security-events?type=oidc_grant.*")).body.events as { type: string; data: Record<string, unknown> }[];
    const revoked = events.filter((e) => e.type === "oidc_grant.revoked");
    expect(revoked.length).toBeGreaterThanOrEqual(1);
    for (const e of revoked) expect(e.data).toEqual({ clientId: "first-party", reason: "replay" });
  });

  it("requires PKCE: no challenge, a missing verifier, a wrong verifier are refused", async () => {
    const { browser } = await signedIn();
    // Authorization without a code challenge: an error at the application, no code.
    const noChallenge = await browse(
      server,
      browser,
      oidc.buildAuthorizationUrl(firstParty, { redirect_uri: REDIRECT, scope: "openid", state: "s" }).href,
    );
    const noChallengeAnswer = new URL(noChallenge.url).searchParams;
    expect(noChallengeAnswer.get("error")).toBe("invalid_request");
    expect(noChallengeAnswer.get("code")).toBeNull();
    // A plain challenge method is refused too.
    const plain = await browse(
      server,
      browser,
      oidc.buildAuthorizationUrl(firstParty, { redirect_uri: REDIRECT, scope: "openid", code_challenge: "x".repeat(43), code_challenge_method: "plain" }).href,
    );
    expect(new URL(plain.url).searchParams.get("error")).toBe("invalid_request");

    const auth = { id: "first-party", secret: FIRST_PARTY_SECRET };
    const missing = await codeFor(firstParty, browser);
    const withoutVerifier = await tokenRequest({ grant_type: "authorization_code", code: missing.code, redirect_uri: REDIRECT }, auth);
    expect(withoutVerifier.status).toBe(400);
    expect(((await withoutVerifier.json()) as { error: string }).error).toBe("invalid_grant");

    const wrong = await codeFor(firstParty, browser);
    const wrongVerifier = await tokenRequest(
      { grant_type: "authorization_code", code: wrong.code, redirect_uri: REDIRECT, code_verifier: oidc.randomPKCECodeVerifier() },
      auth,
    );
    expect(((await wrongVerifier.json()) as { error: string }).error).toBe("invalid_grant");
    // A failed verifier does not spend the code (PKCE is checked before the code is used): only the holder of the
    // right verifier, which an interceptor of the code cannot guess, redeems it.
    const right = await tokenRequest({ grant_type: "authorization_code", code: wrong.code, redirect_uri: REDIRECT, code_verifier: wrong.verifier }, auth);
    expect(right.status).toBe(200);
  });

  it("matches redirect URIs exactly: one character or a letter's case off is refused without redirecting", async () => {
    const { browser } = await signedIn();
    for (const redirect of [`${REDIRECT}x`, REDIRECT.replace("callback", "Callback"), "HTTP://127.0.0.1:9/callback", `${REDIRECT}/`]) {
      const url = oidc.buildAuthorizationUrl(firstParty, {
        redirect_uri: redirect,
        scope: "openid",
        code_challenge: S256(oidc.randomPKCECodeVerifier()),
        code_challenge_method: "S256",
      });
      const answer = await browser.get(url.pathname.slice("/api/auth".length) + url.search, { headers: { accept: "text/html" } });
      expect(answer.status).toBe(400);
      expect(answer.headers.get("location")).toBeNull();
      expect(answer.text).toContain("invalid_redirect_uri");
    }
    // The code is bound to its redirect URI at the token endpoint too.
    const { code, verifier } = await codeFor(firstParty, browser);
    const mismatch = await tokenRequest(
      { grant_type: "authorization_code", code, redirect_uri: `${REDIRECT}x`, code_verifier: verifier },
      { id: "first-party", secret: FIRST_PARTY_SECRET },
    );
    expect(((await mismatch.json()) as { error: string }).error).toBe("invalid_grant");
  });

  it("lets a native app's loopback redirect use any port (RFC 8252) and keeps PKCE mandatory for it", async () => {
    const native = await discover("native-app", oidc.None());
    const { browser } = await signedIn();
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(native, {
      redirect_uri: "http://127.0.0.1:51234/callback",
      scope: "openid",
      code_challenge: S256(verifier),
      code_challenge_method: "S256",
    });
    const landed = await browse(server, browser, url.href, "http://127.0.0.1:51234/callback");
    expect(new URL(landed.url).pathname).toBe("/oauth/consent");
    const uid = new URL(landed.url).searchParams.get("uid")!;
    const answer0 = await browser.post("/oauth2/consent", { uid, accept: true });
    const back = await browse(server, browser, answer0.body.url, "http://127.0.0.1:51234/callback");
    const code = new URL(back.url).searchParams.get("code")!;
    expect(code).toBeTruthy();
    // A native app is asked again each time: another app on the device can claim its loopback or custom-scheme
    // redirect, so an earlier consent does not let a request through unseen.
    const again = await browse(server, browser, url.href, "http://127.0.0.1:51234/callback");
    expect(new URL(again.url).pathname).toBe("/oauth/consent");
    // Without a verifier the code is refused; a public client has no secret to fall back on.
    const refused = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: "http://127.0.0.1:51234/callback" }, { id: "native-app" });
    expect(((await refused.json()) as { error: string }).error).toBe("invalid_grant");
    // Another path on the loopback host is still refused.
    const otherPath = oidc.buildAuthorizationUrl(native, {
      redirect_uri: "http://127.0.0.1:51234/other",
      scope: "openid",
      code_challenge: S256(verifier),
      code_challenge_method: "S256",
    });
    const answer = await browser.get(otherPath.pathname.slice("/api/auth".length) + otherPath.search, { headers: { accept: "text/html" } });
    expect(answer.status).toBe(400);
  });

  it("refuses a wrong client secret, and a client secret is never stored as itself", async () => {
    const { browser } = await signedIn();
    const { code, verifier } = await codeFor(firstParty, browser);
    const wrong = await tokenRequest(
      { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier },
      { id: "first-party", secret: `${FIRST_PARTY_SECRET}x` },
    );
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: string }).error).toBe("invalid_client");
    const missing = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier }, { id: "first-party" });
    expect(((await missing.json()) as { error: string }).error).toBe("invalid_client");

    const admin = new TestClient(`${server.url}/api/auth`);
    await signUpAdmin(server, admin);
    const created = await admin.post("/admin/oauth2/create-client", { name: "Wiki", type: "web", redirectURLs: ["https://wiki.example.test/cb"] });
    const rows = (await server.gatehouse.database.db
      .selectFrom("oidcClient" as never)
      .selectAll()
      .execute()) as Record<string, unknown>[];
    expect(JSON.stringify(rows)).not.toContain(created.body.clientSecret);
  });

  it("refuses an expired code", async () => {
    const { browser } = await signedIn();
    const { code, verifier } = await codeFor(firstParty, browser);
    // The code's life runs out (its row says so; oidc-provider's own expiry says the same a minute later).
    await server.gatehouse.database.db
      .updateTable("oidcPayload" as never)
      .set({ expiresAt: dialect === "postgres" ? new Date(Date.now() - 1000) : new Date(Date.now() - 1000).toISOString() } as never)
      .where("model" as never, "=", "AuthorizationCode" as never)
      .execute();
    const answer = await tokenRequest(
      { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier },
      { id: "first-party", secret: FIRST_PARTY_SECRET },
    );
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toBe("invalid_grant");
  });

  it("revokes the whole family when a rotated refresh token is used again", async () => {
    const { tokens } = await fullLogin();
    const next = await oidc.refreshTokenGrant(dashboard, tokens.refresh_token!);
    // The old refresh token again: refused, and the family goes with it (the newest refresh and access tokens).
    const replay = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token! });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe("invalid_grant");
    const afterReplay = await tokenRequest({ grant_type: "refresh_token", refresh_token: next.refresh_token! });
    expect(((await afterReplay.json()) as { error: string }).error).toBe("invalid_grant");
    expect((await userinfo(next.access_token)).status).toBe(401);
    expect((await userinfo(tokens.access_token)).status).toBe(401);
  });

  it("refuses twenty refreshes of one refresh token sent at once: one at most succeeds, and the family is revoked", async () => {
    const { tokens } = await fullLogin();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token! })),
    );
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as { access_token?: string; refresh_token?: string; error?: string }[];
    const issued = bodies.filter((b) => b.access_token);
    expect(issued.length).toBeLessThanOrEqual(1);
    expect(bodies.filter((b) => b.error === "invalid_grant").length).toBeGreaterThanOrEqual(19);
    // The refresh token spent, and whatever the winner got, are gone with the grant.
    for (const b of issued) {
      expect((await userinfo(b.access_token!)).status).toBe(401);
      const again = await tokenRequest({ grant_type: "refresh_token", refresh_token: b.refresh_token! });
      expect(((await again.json()) as { error?: string }).error).toBe("invalid_grant");
    }
    expect((await userinfo(tokens.access_token)).status).toBe(401);
  });

  it("ends every token of an application the user disconnects, and asks consent again", async () => {
    const { browser, tokens } = await fullLogin();
    const grants = await browser.get("/oauth2/list-grants");
    expect(grants.body.grants).toEqual([
      expect.objectContaining({ clientId: "dashboard", clientName: "Dashboard", scopes: expect.arrayContaining(["openid", "offline_access"]) }),
    ]);
    const revoked = await browser.post("/oauth2/revoke-grant", { clientId: "dashboard" });
    expect(revoked.body).toEqual({ success: true });
    expect((await userinfo(tokens.access_token)).status).toBe(401);
    expect((await introspect(tokens.access_token)).active).toBe(false);
    const refresh = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token! });
    expect(((await refresh.json()) as { error: string }).error).toBe("invalid_grant");
    expect((await browser.get("/oauth2/list-grants")).body.grants).toEqual([]);
    expect((await browser.post("/oauth2/revoke-grant", { clientId: "dashboard" })).status).toBe(404);
    const events = (await browser.get("/list-security-events?type=oidc_grant.revoked")).body.events as { data: Record<string, unknown> }[];
    expect(events.map((e) => e.data)).toEqual([{ clientId: "dashboard", reason: "user" }]);
    const again = await authorize(dashboard, browser);
    expect(new URL(again.landed.url).pathname).toBe("/oauth/consent");
  });

  it("rejects a JWT signed with a key not in the JWKS, and alg none, at userinfo and introspection", async () => {
    const { tokens, user } = await fullLogin();
    const claims = { sub: user.id, client_id: "dashboard", scope: "openid email", iss: server.url, aud: API };
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const published = (await (await fetch(`${server.url}/api/auth/jwks`)).json()) as JSONWebKeySet;
    const stolenKid = published.keys.find((k) => k.alg === "ES256")!.kid!;
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", kid: stolenKid, typ: "at+jwt" })
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(privateKey);
    const none = new UnsecuredJWT(claims).setIssuedAt().setExpirationTime("10m").encode();
    for (const forged of [foreign, none]) {
      expect((await userinfo(forged)).status).toBe(401);
      expect((await introspect(forged)).active).toBe(false);
      await expect(jwtVerify(forged, createLocalJWKSet(published), { issuer: server.url })).rejects.toThrow();
    }
    // The real token still works beside them.
    expect((await userinfo(tokens.access_token)).status).toBe(200);
  });

  it("keeps tokens signed before a key rotation valid, publishes new keys before they sign, and signs with them after", async () => {
    const { tokens } = await fullLogin(firstParty);
    const before = decodeProtectedHeader(tokens.id_token!).kid;
    const service = oidcService(server.gatehouse.runtime);
    const rotate = async (args: string[]) => {
      const lines: string[] = [];
      await runOidcCommand(server.gatehouse.runtime, ["rotate-keys", ...args], (line) => lines.push(line));
      await service.reloadKeys();
      return lines.join("\n");
    };
    const jwksNow = async () => (await (await fetch(`${server.url}/api/auth/jwks`)).json()) as JSONWebKeySet;

    // Rotation with the default delay: the new keys are published, the old ones still sign.
    expect(await rotate(["--overlap", "3600"])).toMatch(/new RS256 signing key .* published now, signing from/);
    const pending = await jwksNow();
    expect(pending.keys).toHaveLength(4);
    const waiting = await fullLogin(firstParty);
    expect(decodeProtectedHeader(waiting.tokens.id_token!).kid).toBe(before);

    // Once they sign (at once here), tokens signed before stay valid against the JWKS served now.
    await rotate(["--overlap", "3600", "--activate-in", "0"]);
    const published = await jwksNow();
    expect(published.keys.map((k) => k.kid)).toContain(before);
    const local = createLocalJWKSet(published);
    await expect(jwtVerify(tokens.id_token!, local, { issuer: server.url, audience: "first-party" })).resolves.toBeTruthy();
    expect((await userinfo(tokens.access_token)).status).toBe(200);
    // Relying parties fetch the JWKS again (a fresh discovery stands for the minute openid-client caches it).
    dashboard = await discover("dashboard", oidc.ClientSecretBasic(WEB_SECRET));
    firstParty = await discover("first-party", oidc.ClientSecretPost(FIRST_PARTY_SECRET));
    jwks = createRemoteJWKSet(new URL(`${server.url}/api/auth/jwks`));
    const refreshed = await oidc.refreshTokenGrant(firstParty, tokens.refresh_token!);
    const after = decodeProtectedHeader(refreshed.id_token!).kid;
    expect(after).not.toBe(before);
    expect(published.keys.map((k) => k.kid)).toContain(after);
    expect((await jwtVerify(refreshed.id_token!, local, { issuer: server.url })).payload.sub).toBeTruthy();
    // The private halves are sealed at rest: no JWK member of a private key in the table.
    const rows = (await server.gatehouse.database.db.selectFrom("oidcSigningKey" as never).selectAll().execute()) as { privateKey: string }[];
    for (const row of rows) expect(row.privateKey).toMatch(/^ghoidc1:/);
  });

  it("lets instances that made keys at the same time agree on the one that signs", async () => {
    const service = oidcService(server.gatehouse.runtime);
    const before = (await service.keySet()).current.get("RS256")!.kid;
    // Another instance's key, made a moment later, lands in the table.
    const stores = server.gatehouse.runtime.stores;
    await stores.oidcSigningKeys.insertSigningKey(await newSigningKey("RS256", new Date(Date.now() + 1), TEST_SECRET));
    await service.reloadKeys();
    const after = await service.keySet();
    expect(after.current.get("RS256")!.kid).toBe(before);
    const published = (await (await fetch(`${server.url}/api/auth/jwks`)).json()) as JSONWebKeySet;
    expect(published.keys.filter((k) => k.alg === "RS256").length).toBeGreaterThanOrEqual(2);
  });

  it("serves Better Auth's jwt plugin routes: /token for the session, verifiable with /jwks", async () => {
    const { browser, user } = await signedIn();
    const answer = await browser.get("/token");
    expect(answer.status).toBe(200);
    const { payload } = await jwtVerify(answer.body.token, jwks, { issuer: server.url, audience: server.url });
    expect(payload).toMatchObject({ sub: user.id, email: user.email });
    expect(payload.exp! - payload.iat!).toBe(900);
    expect((await new TestClient(`${server.url}/api/auth`).get("/token")).status).toBe(401);
  });

  it("gives the organizations claim and the active organization", async () => {
    const { browser, user } = await signedIn();
    const created = await browser.post("/organization/create", { name: "Acme", slug: `acme-${Date.now()}` });
    expect(created.status).toBe(200);
    await browser.post("/organization/set-active", { organizationId: created.body.id });
    const scope = "openid organizations active_organization";
    const { landed, verifier, state, nonce } = await authorize(dashboard, browser, { scope });
    const back = await consent(browser, landed);
    const tokens = await oidc.authorizationCodeGrant(dashboard, new URL(back.url), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    const expected = { id: created.body.id, name: "Acme", slug: created.body.slug, role: "owner" };
    expect(tokens.claims()).toMatchObject({ sub: user.id, organizations: [expected], active_organization: expected });
    const info = await oidc.fetchUserInfo(dashboard, tokens.access_token, user.id);
    expect(info).toMatchObject({ organizations: [expected], active_organization: expected });
  });

  it("lets administrators manage clients and a user's grants, behind the admin access control", async () => {
    const admin = new TestClient(`${server.url}/api/auth`);
    await signUpAdmin(server, admin);
    const { browser: plain } = await signedIn();
    expect((await plain.get("/admin/oauth2/list-clients")).status).toBe(403);
    expect((await plain.post("/admin/oauth2/create-client", { name: "x", type: "web", redirectURLs: ["https://x.test/cb"] })).status).toBe(403);

    const bad = await admin.post("/admin/oauth2/create-client", { name: "Bad", type: "web", redirectURLs: ["javascript:alert(1)"] });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
    expect(bad.body.issues[0].path).toBe("body.redirectURLs.0");
    const publicWithCc = await admin.post("/admin/oauth2/create-client", {
      name: "Spa",
      type: "public",
      redirectURLs: ["https://spa.test/cb"],
      grantTypes: ["authorization_code", "client_credentials"],
    });
    expect(publicWithCc.status).toBe(400);

    const created = await admin.post("/admin/oauth2/create-client", {
      name: "Tracker",
      type: "web",
      redirectURLs: [REDIRECT],
      scopes: ["openid", "email"],
    });
    expect(created.status).toBe(200);
    const { clientId } = created.body.client;
    const list = await admin.get("/admin/oauth2/list-clients");
    const ids = list.body.clients.map((c: { clientId: string }) => c.clientId);
    expect(ids).toEqual(expect.arrayContaining(["dashboard", "first-party", clientId]));
    expect(list.body.clients.find((c: { clientId: string }) => c.clientId === "dashboard").source).toBe("config");
    expect(JSON.stringify(list.body)).not.toMatch(/sha256:|secretHash|clientSecret/);
    expect((await admin.get(`/admin/oauth2/get-client?clientId=${clientId}`)).body).toMatchObject({ name: "Tracker", scopes: ["openid", "email"] });
    // A client of the configuration file is changed in the file only.
    expect((await admin.post("/admin/oauth2/update-client", { clientId: "dashboard", name: "X" })).status).toBe(403);
    expect((await admin.post("/admin/oauth2/delete-client", { clientId: "dashboard" })).status).toBe(403);
    const renamed = await admin.post("/admin/oauth2/update-client", { clientId, name: "Issue tracker", skipConsent: true });
    expect(renamed.body.client).toMatchObject({ name: "Issue tracker", skipConsent: true });

    // A user signs in to it; the administrator sees and revokes the grant.
    const tracker = await discover(clientId, oidc.ClientSecretBasic(created.body.clientSecret));
    const { browser, user } = await signedIn();
    const { landed, verifier, state, nonce } = await authorize(tracker, browser, { scope: "openid email" });
    const tokens = await oidc.authorizationCodeGrant(tracker, new URL(landed.url), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    const grants = await admin.get(`/admin/oauth2/list-user-grants?userId=${user.id}`);
    expect(grants.body.grants).toEqual([expect.objectContaining({ clientId, clientName: "Issue tracker", scopes: ["openid", "email"] })]);

    // A new secret: the old one stops working at once.
    const rotated = await admin.post("/admin/oauth2/rotate-client-secret", { clientId });
    expect(rotated.body.clientSecret).not.toBe(created.body.clientSecret);
    const old = await introspect(tokens.access_token, clientId, created.body.clientSecret);
    expect(old).toMatchObject({ error: "invalid_client" });
    expect((await introspect(tokens.access_token, clientId, rotated.body.clientSecret)).active).toBe(true);
    const trackerNow = await discover(clientId, oidc.ClientSecretBasic(rotated.body.clientSecret));

    expect((await admin.post("/admin/oauth2/revoke-user-grant", { userId: user.id, clientId })).body).toEqual({ success: true });
    expect((await userinfo(tokens.access_token)).status).toBe(401);

    // Deleting the client ends it and what it was given.
    const second = await authorize(trackerNow, browser, { scope: "openid email" });
    const tokens2 = await oidc.authorizationCodeGrant(trackerNow, new URL(second.landed.url), {
      pkceCodeVerifier: second.verifier,
      expectedState: second.state,
      expectedNonce: second.nonce,
    });
    expect((await admin.post("/admin/oauth2/delete-client", { clientId })).body).toEqual({ success: true });
    expect((await userinfo(tokens2.access_token)).status).toBe(401);
    expect((await admin.get(`/admin/oauth2/get-client?clientId=${clientId}`)).status).toBe(404);
    // Each change is in the audit log, with the administrator as its actor, never a secret.
    const log = await admin.get(`/admin/list-events?type=oidc_client.*&limit=200`);
    const mine = (log.body.events as { type: string; data: Record<string, unknown>; actorId: string }[]).filter((e) => e.data.clientId === clientId);
    expect(mine.map((e) => e.type)).toEqual(["oidc_client.deleted", "oidc_client.updated", "oidc_client.updated", "oidc_client.created"]);
    expect(mine[1]!.data.fields).toEqual(["secret"]);
    expect(JSON.stringify(log.body)).not.toContain(created.body.clientSecret);
    expect(JSON.stringify(log.body)).not.toContain(rotated.body.clientSecret);
    const revokedByAdmin = await admin.get(`/admin/list-events?type=oidc_grant.revoked&userId=${user.id}`);
    expect(revokedByAdmin.body.events[0]).toMatchObject({ data: { clientId, reason: "administrator" } });
  });

  it("answers the consent routes' bad input with clear 4xx errors", async () => {
    const { browser } = await signedIn();
    expect((await browser.get("/oauth2/get-interaction?uid=nope")).status).toBe(404);
    expect((await browser.get("/oauth2/get-interaction?uid=bad%20uid")).body.code).toBe("VALIDATION_ERROR");
    expect((await browser.post("/oauth2/consent", { uid: "nope", accept: "yes" })).body.code).toBe("VALIDATION_ERROR");
    expect((await new TestClient(`${server.url}/api/auth`).get("/oauth2/get-interaction?uid=nope")).status).toBe(401);
    // An interaction URL opened in another browser (no interaction cookie) is refused.
    const { landed } = await authorize(dashboard, browser);
    const uid = new URL(landed.url).searchParams.get("uid")!;
    const thief = await signedIn();
    const stolen = await thief.browser.get(`/oauth2/interaction/${uid}`);
    expect(stolen.status).toBe(302);
    expect(stolen.headers.get("location")).toContain("error=interaction_expired");
  });

  it("answers malformed protocol requests with a 4xx, never a 500", async () => {
    const api = `${server.url}/api/auth`;
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const basic = { authorization: `Basic ${Buffer.from(`first-party:${FIRST_PARTY_SECRET}`).toString("base64")}` };
    const answers: [string, Response][] = [
      ["token without a body", await fetch(`${api}/oauth2/token`, { method: "POST", headers: { ...form, ...basic } })],
      ["token in JSON", await fetch(`${api}/oauth2/token`, { method: "POST", headers: { "content-type": "application/json", ...basic }, body: '{"grant_type":"client_credentials"}' })],
      ["token with an unknown grant", await fetch(`${api}/oauth2/token`, { method: "POST", headers: { ...form, ...basic }, body: "grant_type=password&username=a&password=b" })],
      ["token with a huge body", await fetch(`${api}/oauth2/token`, { method: "POST", headers: { ...form, ...basic }, body: `grant_type=authorization_code&code=${"a".repeat(300_000)}` })],
      ["token with a repeated parameter", await fetch(`${api}/oauth2/token`, { method: "POST", headers: { ...form, ...basic }, body: "grant_type=refresh_token&refresh_token=a&refresh_token=b" })],
      ["token with a broken Basic header", await fetch(`${api}/oauth2/token`, { method: "POST", headers: { ...form, authorization: "Basic %%%" }, body: "grant_type=client_credentials" })],
      ["token by GET", await fetch(`${api}/oauth2/token`)],
      ["userinfo with a very long token", await fetch(`${api}/oauth2/userinfo`, { headers: { authorization: `Bearer ${"x".repeat(6000)}` } })],
      ["userinfo without a token", await fetch(`${api}/oauth2/userinfo`)],
      ["introspection without credentials", await fetch(`${api}/oauth2/introspect`, { method: "POST", headers: form, body: "token=abc" })],
      ["revocation of nothing", await fetch(`${api}/oauth2/revoke`, { method: "POST", headers: { ...form, ...basic }, body: "" })],
      ["authorization without parameters", await fetch(`${api}/oauth2/authorize`, { redirect: "manual" })],
      ["authorization for an unknown client", await fetch(`${api}/oauth2/authorize?client_id=nobody&response_type=code&scope=openid`, { redirect: "manual" })],
      ["resume of an unknown interaction", await fetch(`${api}/oauth2/authorize/nope`, { redirect: "manual" })],
      ["an unknown interaction", await fetch(`${api}/oauth2/interaction/${"%00".repeat(3)}`, { redirect: "manual" })],
      ["logout without a session", await fetch(`${api}/oauth2/end-session/confirm`, { method: "POST", headers: form, body: "xsrf=x&logout=yes" })],
      ["registration while it is off", await fetch(`${api}/oauth2/register`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" })],
    ];
    for (const [what, answer] of answers) {
      expect.soft(answer.status, what).toBeGreaterThanOrEqual(300);
      expect.soft(answer.status, what).toBeLessThan(500);
    }
  });

  it("is off with oidcProvider.enabled false: no discovery, no endpoints", async () => {
    const off = await startTestServer(dialect, { oidcProvider: { enabled: false } });
    try {
      expect((await fetch(`${off.url}/.well-known/openid-configuration`)).status).toBe(404);
      expect((await fetch(`${off.url}/api/auth/oauth2/token`, { method: "POST" })).status).toBe(404);
      expect((await fetch(`${off.url}/api/auth/jwks`)).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it("registers clients dynamically only when turned on, and never as first-party", async () => {
    const closed = await fetch(`${server.url}/api/auth/oauth2/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [REDIRECT] }),
    });
    expect(closed.status).toBe(404);
    const open = await startTestServer(dialect, {
      oidcProvider: { dynamicClientRegistration: { enabled: true, initialAccessToken: "initial-access-token-long-enough-0123456789" } },
    });
    try {
      const register = (body: unknown, token?: string) =>
        fetch(`${open.url}/api/auth/oauth2/register`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        });
      expect((await register({ redirect_uris: ["https://app.example.test/cb"] })).status).toBe(400);
      expect((await register({ redirect_uris: ["https://app.example.test/cb"] }, "wrong-token-wrong-token-wrong-token-0123")).status).toBe(401);
      const answer = await register(
        { redirect_uris: ["https://app.example.test/cb"], client_name: "Registered", gatehouse: { skipConsent: true, type: "machine" } },
        "initial-access-token-long-enough-0123456789",
      );
      expect(answer.status).toBe(201);
      const body = (await answer.json()) as Record<string, unknown>;
      expect(typeof body.client_secret).toBe("string");
      expect(body).not.toHaveProperty("gatehouse");
      const stored = await open.gatehouse.runtime.stores.oidcClients.findClient(String(body.client_id));
      expect(stored).toMatchObject({ source: "registration", skipConsent: false, type: "web", name: "Registered" });
      expect(stored!.secretHash).not.toBe(body.client_secret);
      const cc = await register(
        { redirect_uris: ["https://app.example.test/cb"], grant_types: ["client_credentials"], response_types: [] },
        "initial-access-token-long-enough-0123456789",
      );
      expect(cc.status).toBe(400);
    } finally {
      await open.close();
    }
  });

  it("removes a user's grants and tokens with the user, and ends their tokens when they sign out everywhere", async () => {
    const { browser, tokens } = await fullLogin(firstParty);
    // "Sign out everywhere": the applications' tokens end, the consent stays.
    expect((await browser.post("/revoke-sessions")).status).toBe(200);
    expect((await userinfo(tokens.access_token)).status).toBe(401);
    const refresh = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token! }, { id: "first-party", secret: FIRST_PARTY_SECRET });
    expect(((await refresh.json()) as { error: string }).error).toBe("invalid_grant");

    const second = await fullLogin(firstParty);
    const admin = new TestClient(`${server.url}/api/auth`);
    await signUpAdmin(server, admin);
    expect((await admin.post("/admin/remove-user", { userId: second.user.id })).status).toBe(200);
    expect((await userinfo(second.tokens.access_token)).status).toBe(401);
    const rows = await server.gatehouse.database.db
      .selectFrom("oidcPayload" as never)
      .select("key" as never)
      .where("accountId" as never, "=", second.user.id as never)
      .execute();
    expect(rows).toEqual([]);
  });

  it("writes one oidc_token.issued per token response (code, refresh, client credentials), none for a refused one, and oidc_token.revoked for a client's revocation", async () => {
    const events = server.gatehouse.runtime.stores.events;
    const lastSeq = async () => (await events.list({}, 1))[0]?.seq ?? 0;
    /** The OpenID events written by the change (the sign-up's own are left out). */
    const oidcEventsOf = async (change: () => Promise<unknown>) => {
      const before = await lastSeq();
      await change();
      return (await events.listAfter(before, 100)).filter((e) => e.type.startsWith("oidc_"));
    };
    const start = await lastSeq();
    // Every token and code this test sees: none may be in an event, nor its stored hash.
    const secrets: string[] = [];

    // A code exchange: the consent, then one event for the whole response (access, refresh and ID token).
    let login!: Awaited<ReturnType<typeof fullLogin>>;
    const exchanged = await oidcEventsOf(async () => (login = await fullLogin()));
    const { user, tokens, browser } = login;
    secrets.push(tokens.access_token, tokens.refresh_token!, tokens.id_token!, login.callback.searchParams.get("code")!);
    expect(exchanged.map((e) => e.type)).toEqual(["oidc_grant.given", "oidc_token.issued"]);
    const issued = exchanged[1]!;
    expect(issued).toMatchObject({ actorId: null, userId: user.id });
    expect(issued.data).toEqual({
      clientId: "dashboard",
      grantType: "authorization_code",
      scopes: expect.arrayContaining(["openid", "profile", "email", "offline_access"]),
      accessToken: "opaque",
      refreshToken: true,
      idToken: true,
      grantId: expect.any(String),
    });
    const grantId = issued.data.grantId as string;

    // A refresh: one event, the same grant.
    let refreshed!: Awaited<ReturnType<typeof oidc.refreshTokenGrant>>;
    const refreshes = await oidcEventsOf(async () => (refreshed = await oidc.refreshTokenGrant(dashboard, tokens.refresh_token!)));
    secrets.push(refreshed.access_token, refreshed.refresh_token!, refreshed.id_token!);
    expect(refreshes.map((e) => [e.type, e.userId, e.data.grantType, e.data.grantId, e.data.refreshToken, e.data.idToken])).toEqual([
      ["oidc_token.issued", user.id, "refresh_token", grantId, true, true],
    ]);

    // A client's revocation (RFC 7009) of the refresh token: one event; the same token again (gone) writes none.
    const revokedRefresh = await oidcEventsOf(() => oidc.tokenRevocation(dashboard, refreshed.refresh_token!));
    expect(revokedRefresh.map((e) => [e.type, e.actorId, e.userId, e.data])).toEqual([
      ["oidc_token.revoked", null, user.id, { clientId: "dashboard", kind: "refresh_token" }],
    ]);
    expect(((await (await tokenRequest({ grant_type: "refresh_token", refresh_token: refreshed.refresh_token! })).json()) as { error: string }).error).toBe(
      "invalid_grant",
    );
    expect(await oidcEventsOf(() => oidc.tokenRevocation(dashboard, refreshed.refresh_token!))).toEqual([]);
    // Refused exchanges issue nothing: a wrong verifier, then a code used twice (its grant's revocation, as before).
    const { code, verifier } = await codeFor(dashboard, browser);
    secrets.push(code);
    const exchange = (codeVerifier: string) => tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: codeVerifier });
    const wrong = await oidcEventsOf(async () => expect((await exchange(oidc.randomPKCECodeVerifier())).status).toBe(400));
    expect(wrong).toEqual([]);
    let second!: { access_token: string; refresh_token?: string };
    const once = await oidcEventsOf(async () => {
      const answer = await exchange(verifier);
      expect(answer.status).toBe(200);
      second = (await answer.json()) as typeof second;
    });
    secrets.push(second.access_token);
    expect(once.map((e) => [e.type, e.data.grantType, e.data.refreshToken])).toEqual([["oidc_token.issued", "authorization_code", false]]);
    const replayed = await oidcEventsOf(async () => expect((await exchange(verifier)).status).toBe(400));
    expect(replayed.map((e) => [e.type, e.userId, e.data.reason])).toEqual([["oidc_grant.revoked", user.id, "replay"]]);

    // Client credentials: no user; a JWT (not stored) and an opaque token.
    const admin = new TestClient(`${server.url}/api/auth`);
    await signUpAdmin(server, admin);
    const jwtWorker = await admin.post("/admin/oauth2/create-client", { name: "Events worker", type: "machine", scopes: ["invoices:read"], audience: [API] });
    const opaqueWorker = await admin.post("/admin/oauth2/create-client", {
      name: "Events reporter",
      type: "machine",
      scopes: ["reports:read"],
      accessTokenFormat: "opaque",
    });
    const jwtMachine = await discover(jwtWorker.body.client.clientId, oidc.ClientSecretBasic(jwtWorker.body.clientSecret));
    const opaqueMachine = await discover(opaqueWorker.body.client.clientId, oidc.ClientSecretBasic(opaqueWorker.body.clientSecret));
    let machineTokens: string[] = [];
    const machine = await oidcEventsOf(async () => {
      machineTokens = [
        (await oidc.clientCredentialsGrant(jwtMachine, { scope: "invoices:read" })).access_token,
        (await oidc.clientCredentialsGrant(opaqueMachine, { scope: "reports:read" })).access_token,
      ];
    });
    secrets.push(...machineTokens);
    const machineIssue = { grantType: "client_credentials", refreshToken: false, idToken: false, grantId: null };
    expect(machine.map((e) => [e.type, e.actorId, e.userId, e.data])).toEqual([
      ["oidc_token.issued", null, null, { ...machineIssue, clientId: jwtWorker.body.client.clientId, scopes: ["invoices:read"], accessToken: "jwt" }],
      ["oidc_token.issued", null, null, { ...machineIssue, clientId: opaqueWorker.body.client.clientId, scopes: ["reports:read"], accessToken: "opaque" }],
    ]);

    // Another client's token is refused (400), and ends nothing; the client's own is revoked.
    const foreign = await oidcEventsOf(() => oidc.tokenRevocation(dashboard, machineTokens[1]!).catch(() => undefined));
    expect(foreign).toEqual([]);
    expect((await oidc.tokenIntrospection(opaqueMachine, machineTokens[1]!)).active).toBe(true);
    const revokedAccess = await oidcEventsOf(() => oidc.tokenRevocation(opaqueMachine, machineTokens[1]!));
    expect(revokedAccess.map((e) => [e.type, e.userId, e.data])).toEqual([
      ["oidc_token.revoked", null, { clientId: opaqueWorker.body.client.clientId, kind: "access_token" }],
    ]);

    // No token, code or stored hash of one in any event written since the start.
    const written = JSON.stringify(await events.listAfter(start, 1000));
    for (const secret of secrets) {
      expect(written).not.toContain(secret);
      expect(written).not.toContain(tokenKey(secret));
    }

    // The user's own activity leaves the token issues out unless asked for them; the consent and revocation are in.
    const own = (await browser.get("/list-security-events?limit=200")).body.events as { type: string }[];
    expect(own.map((e) => e.type)).not.toContain("oidc_token.issued");
    expect(own.map((e) => e.type)).toEqual(expect.arrayContaining(["oidc_grant.given", "oidc_grant.revoked", "oidc_token.revoked"]));
    const asked = (await browser.get("/list-security-events?type=oidc_token.*")).body.events as { type: string }[];
    // Newest first: the second code's exchange, the refresh token's revocation, the refresh, the first exchange.
    expect(asked.map((e) => e.type)).toEqual(["oidc_token.issued", "oidc_token.revoked", "oidc_token.issued", "oidc_token.issued"]);
  });

  it("writes a token response's rows and its event in one statement: refused by the database, neither is kept and no token leaves", async () => {
    const db = server.gatehouse.database.db;
    const admin = new TestClient(`${server.url}/api/auth`);
    await signUpAdmin(server, admin);
    const created = await admin.post("/admin/oauth2/create-client", {
      name: "Doomed",
      clientId: `doomed-${dialect}`,
      type: "machine",
      scopes: ["reports:read"],
      accessTokenFormat: "opaque",
    });
    expect(created.status).toBe(200);
    const machine = await discover(created.body.client.clientId, oidc.ClientSecretBasic(created.body.clientSecret));
    // The event's insert refused by the database, as a constraint or a full disk would: the token rows were in the same
    // statement (PostgreSQL) or transaction (SQLite).
    const allowEvents = await refuseInserts(db, dialect, {
      name: "doomed_event",
      table: "event",
      when: sql`new.type = 'oidc_token.issued' and new.data like '%doomed-%'`,
      message: "doomed event refused",
    });
    const rows = () =>
      db
        .selectFrom("oidcPayload" as never)
        .select("key" as never)
        .where("clientId" as never, "=", created.body.client.clientId as never)
        .execute();
    try {
      const answer = await fetch(`${server.url}/api/auth/oauth2/token`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${created.body.client.clientId}:${created.body.clientSecret}`).toString("base64")}`,
        },
        body: new URLSearchParams({ grant_type: "client_credentials", scope: "reports:read" }),
      });
      expect(answer.status).toBe(500);
      const body = (await answer.json()) as Record<string, unknown>;
      expect(body.error).toBe("server_error");
      expect(body.access_token).toBeUndefined();
      expect(await rows()).toEqual([]);
      const logged = await server.gatehouse.runtime.stores.events.list({ types: ["oidc_token.issued"] }, 200);
      expect(logged.filter((e) => e.data.clientId === created.body.client.clientId)).toEqual([]);
    } finally {
      await allowEvents();
    }
    // Accepted, the same request stores its token with its event.
    const granted = await oidc.clientCredentialsGrant(machine, { scope: "reports:read" });
    expect((await oidc.tokenIntrospection(machine, granted.access_token)).active).toBe(true);
    expect(await rows()).toHaveLength(1);
  });

  it("writes a replay's grant revocation and its event together: refused by the database, the grant stays; accepted, both are kept", async () => {
    const db = server.gatehouse.database.db;
    const { browser, user } = await signedIn();
    const { code, verifier } = await codeFor(firstParty, browser);
    const auth = { id: "first-party", secret: FIRST_PARTY_SECRET };
    const body = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier };
    const first = await tokenRequest(body, auth);
    expect(first.status).toBe(200);
    const grantRows = () =>
      db
        .selectFrom("oidcPayload" as never)
        .select("key" as never)
        .where("accountId" as never, "=", user.id as never)
        .where("model" as never, "=", "Grant" as never)
        .execute();
    const revokedEvents = async () =>
      (await server.gatehouse.runtime.stores.events.list({ types: ["oidc_grant.revoked"] }, 200)).filter((e) => e.userId === user.id);
    expect(await grantRows()).toHaveLength(1);
    // The event's insert refused by the database for this user: the grant's deletion was in its transaction.
    const allowEvents = await refuseInserts(db, dialect, {
      name: "replay_event",
      table: "event",
      when: sql`new.type = 'oidc_grant.revoked' and new."userId" = ${sql.lit(user.id)}`,
      message: "replay event refused",
    });
    try {
      const refused = await tokenRequest(body, auth);
      expect(refused.status).toBe(500);
      expect(await grantRows()).toHaveLength(1);
      expect(await revokedEvents()).toEqual([]);
      // The tokens issued under it are gone all the same: oidc-provider deletes them in statements of their own.
      const { access_token } = (await first.json()) as { access_token: string };
      expect((await userinfo(access_token)).status).toBe(401);
    } finally {
      await allowEvents();
    }
    // Accepted: a new code under the same grant, exchanged, then replayed: the grant goes, with one event.
    const again = await codeFor(firstParty, browser);
    const next = { grant_type: "authorization_code", code: again.code, redirect_uri: REDIRECT, code_verifier: again.verifier };
    expect((await tokenRequest(next, auth)).status).toBe(200);
    const replay = await tokenRequest(next, auth);
    expect(replay.status).toBe(400);
    expect(await grantRows()).toEqual([]);
    expect((await revokedEvents()).map((e) => e.data)).toEqual([{ clientId: "first-party", reason: "replay" }]);
  });

  it("writes a client's revocation of a token and its event together: refused by the database, the token still works; accepted, both are kept", async () => {
    const db = server.gatehouse.database.db;
    const { browser, user } = await signedIn();
    const { code, verifier } = await codeFor(firstParty, browser);
    const auth = { id: "first-party", secret: FIRST_PARTY_SECRET };
    const exchanged = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier }, auth);
    expect(exchanged.status).toBe(200);
    const { access_token } = (await exchanged.json()) as { access_token: string };
    const revoke = () =>
      fetch(`${server.url}/api/auth/oauth2/revoke`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${auth.id}:${auth.secret}`).toString("base64")}`,
        },
        body: new URLSearchParams({ token: access_token, token_type_hint: "access_token" }),
      });
    const revokedEvents = async () =>
      (await server.gatehouse.runtime.stores.events.list({ types: ["oidc_token.revoked"] }, 200)).filter((e) => e.userId === user.id);
    const allowEvents = await refuseInserts(db, dialect, {
      name: "revoke_event",
      table: "event",
      when: sql`new.type = 'oidc_token.revoked' and new."userId" = ${sql.lit(user.id)}`,
      message: "revocation event refused",
    });
    try {
      expect((await revoke()).status).toBe(500);
      expect((await userinfo(access_token)).status).toBe(200);
      expect(await revokedEvents()).toEqual([]);
    } finally {
      await allowEvents();
    }
    expect((await revoke()).status).toBe(200);
    expect((await userinfo(access_token)).status).toBe(401);
    expect((await revokedEvents()).map((e) => e.data)).toEqual([{ clientId: "first-party", kind: "access_token" }]);
  });

  it("answers through the web-standard handler too (the library mounted in another framework)", async () => {
    const discovery = await server.gatehouse.handler(new Request(`${server.url}/.well-known/openid-configuration`));
    expect(discovery.status).toBe(200);
    expect(((await discovery.json()) as { issuer: string }).issuer).toBe(server.url);
    const { browser } = await signedIn();
    const { code, verifier } = await codeFor(firstParty, browser);
    const answer = await server.gatehouse.handler(
      new Request(`${server.url}/api/auth/oauth2/token`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`first-party:${FIRST_PARTY_SECRET}`).toString("base64")}`,
        },
        body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier }),
      }),
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const tokens = (await answer.json()) as { access_token: string; id_token: string };
    expect((await jwtVerify(tokens.id_token, jwks, { issuer: server.url, audience: "first-party" })).payload.sub).toBeTruthy();
    expect((await userinfo(tokens.access_token)).status).toBe(200);
  });
});

describe("OpenID Provider while PostgreSQL is down", () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: TestServer;
  const secret = "machine-secret-that-is-long-enough-0123456789";

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    const url = new URL(POSTGRES_URL);
    proxy = await startTcpProxy(url.hostname, Number(url.port || 5432));
    url.port = String(proxy.port);
    server = await startTestServer(
      "postgres",
      {
        database: { url: url.toString(), schema: database.schema },
        oidcProvider: {
          trustedClients: [{ clientId: "worker", clientSecret: secret, name: "Worker", type: "machine", scopes: ["jobs:run"], accessTokenFormat: "opaque" }],
        },
      },
      { database },
    );
  });
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await database?.drop();
  });

  it("answers 503 (temporarily_unavailable), never a 500, and recovers by itself", async () => {
    const request = () =>
      fetch(`${server.url}/api/auth/oauth2/token`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`worker:${secret}`).toString("base64")}`,
        },
        body: new URLSearchParams({ grant_type: "client_credentials", scope: "jobs:run" }),
      });
    expect((await request()).status).toBe(200);
    await proxy.down();
    const during = await request();
    expect(during.status).toBe(503);
    expect(((await during.json()) as { error: string }).error).toBe("temporarily_unavailable");
    await proxy.up();
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await request()).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
  });
});

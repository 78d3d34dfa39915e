import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oidcService } from "../src/oidc-provider/service.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/**
 * prompt=login (README "OpenID Provider", "Sign-in and consent") within the second the application asked: the
 * provider dates its request in whole seconds, sessions to the millisecond. A sign-in made in that same second (a
 * passkey, a quick hand, a browser driven by a test) signs the user in to the application at once, and is not asked
 * for a second time; the session the route sent to sign in again, even one of that second, is still refused.
 */
const REDIRECT = "http://127.0.0.1:9/callback";
const SECRET = "forum-secret-that-is-long-enough-0123456789";

describe.each(DIALECTS)("prompt=login within a second on %s", (dialect) => {
  let server: TestServer;
  let forum: oidc.Configuration;
  // The service's clock (sessions are dated by it): real time unless a test holds it at a moment. The provider's
  // interactions are dated by the real clock.
  let heldAt: Date | null = null;

  beforeAll(async () => {
    server = await startTestServer(
      dialect,
      {
        oidcProvider: {
          trustedClients: [
            { clientId: "forum", clientSecret: SECRET, name: "Forum", type: "web", redirectURLs: [REDIRECT], skipConsent: true },
          ],
        },
      },
      { now: () => heldAt ?? new Date() },
    );
    forum = await oidc.discovery(new URL(server.url), "forum", undefined, oidc.ClientSecretBasic(SECRET), {
      execute: [oidc.allowInsecureRequests],
    });
  });
  afterAll(() => server?.close());

  /** Follows the browser's redirects from `start` until it leaves the service's API (the application or a page). */
  async function browse(browser: TestClient, start: string): Promise<URL> {
    let url = new URL(start, server.url);
    for (let hops = 0; hops < 20; hops += 1) {
      if (url.href.startsWith(REDIRECT) || url.origin !== server.url || !url.pathname.startsWith("/api/auth/")) return url;
      const location = (await browser.get(url.pathname.slice("/api/auth".length) + url.search)).headers.get("location");
      if (!location) return url;
      url = new URL(location, url);
    }
    throw new Error("too many redirects");
  }

  /** An authorization request with prompt=login: where the browser lands, and what the application keeps. */
  async function authorizeAgain(browser: TestClient) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(forum, {
      redirect_uri: REDIRECT,
      scope: "openid",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      prompt: "login",
    });
    const signInPage = await browse(browser, url.href);
    expect(signInPage.pathname).toBe("/sign-in");
    const returnTo = signInPage.searchParams.get("returnTo")!;
    const provider = await oidcService(server.gatehouse.runtime).provider();
    const interaction = (await provider.Interaction.find(returnTo.split("/").pop()!))!;
    return { signInPage, returnTo, interaction, verifier, state };
  }

  const sessionOf = async (browser: TestClient) => {
    const { session } = (await browser.get("/get-session")).body as { session: { id: string; createdAt: string } };
    return { id: session.id, createdAt: new Date(session.createdAt) };
  };

  it("signs a browser that had no session in at once when it signs in within the second the application asked", async () => {
    const browser = new TestClient(`${server.url}/api/auth`);
    const { signInPage, returnTo, interaction, verifier, state } = await authorizeAgain(browser);
    expect(signInPage.searchParams.get("prompt")).toBeNull();
    // The sign-up is dated at the start of the request's second.
    heldAt = new Date(interaction.iat * 1000);
    try {
      await signUp(browser);
    } finally {
      heldAt = null;
    }
    const back = await browse(browser, returnTo);
    expect(back.href.startsWith(REDIRECT), back.href).toBe(true);
    const tokens = await oidc.authorizationCodeGrant(forum, back, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.claims()!.auth_time).toBe(interaction.iat);
  });

  it("keeps asking the session it sent to sign in again, even one of that second, and takes the new one of that second", async () => {
    const browser = new TestClient(`${server.url}/api/auth`);
    const { email } = await signUp(browser);
    const before = await sessionOf(browser);
    const { signInPage, returnTo, interaction, verifier, state } = await authorizeAgain(browser);
    expect(signInPage.searchParams.get("prompt")).toBe("login");
    // The application asked in the very second that session was made (after it): moved there, as a fast page would.
    interaction.iat = Math.floor(before.createdAt.getTime() / 1000);
    await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));

    // Back without signing in again: still owed.
    const notYet = await browse(browser, returnTo);
    expect(notYet.pathname).toBe("/sign-in");
    expect(notYet.searchParams.get("prompt")).toBe("login");

    // Signed in again within that second: on to the application, dated from the new sign-in.
    heldAt = new Date(interaction.iat * 1000 + 999);
    try {
      expect((await browser.post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    } finally {
      heldAt = null;
    }
    const after = await sessionOf(browser);
    expect(after.id).not.toBe(before.id);
    const back = await browse(browser, returnTo);
    expect(back.href.startsWith(REDIRECT), back.href).toBe(true);
    const tokens = await oidc.authorizationCodeGrant(forum, back, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.claims()!.auth_time).toBe(interaction.iat);
  });
});

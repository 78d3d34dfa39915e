import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as oidc from "openid-client";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en } from "../web/src/i18n/en.js";
import { launchBrowser, pageOpener, screenshotBothSizes } from "./helpers/browser.js";
import { signUpWithSession } from "./helpers/api.js";
import { fill, heading, headingIs, look, person, signUpByApi, text } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";
import { authenticatorApp, freshCode } from "./helpers/totp.js";

/**
 * Gatehouse as the OpenID Provider of another application (#16), in a real browser: a small relying party served
 * by the test sends the user to Gatehouse; the user signs in on Gatehouse's sign-in page, allows the application on
 * the consent page and lands back at the application with a code, which the test exchanges with `openid-client`
 * (PKCE S256, the ID token checked against the JWKS). Then the user disconnects the application on the account page
 * and its refresh and access tokens are refused. Then the other ways the request can go: the user denies it (the
 * application gets access_denied, no grant), a user with an authenticator app passes the second step on the way
 * (the pending step is no sign-in: another tab is sent to sign in), and prompt=login asks a signed-in user to sign in
 * again.
 */

const CLIENT = { clientId: "team-dashboard", clientSecret: "dashboard-secret-0123456789-abcdefghijkl", name: "Team Dashboard" };
const ADA = person("Ada Lovelace", "analytical-engine-1843");
// Each journey's limit; the whole file runs in well under a minute.
const JOURNEY_TIMEOUT = 60_000;

let service: RunningService;
let browser: Browser;
let relyingParty: Server;
let rpURL: string;
let page: Page;
const { newPage, closeAll } = pageOpener(
  () => browser,
  () => service.url,
);

describe("OpenID Provider journeys", () => {
  beforeAll(async () => {
    relyingParty = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end("<!doctype html><title>Team Dashboard</title><h1>Team Dashboard</h1>");
    });
    await new Promise<void>((listening) => relyingParty.listen(0, "127.0.0.1", listening));
    rpURL = `http://127.0.0.1:${(relyingParty.address() as AddressInfo).port}`;
    [service, browser] = await Promise.all([
      startService({
        options: {
          oidcProvider: {
            trustedClients: [
              {
                ...CLIENT,
                type: "web",
                redirectURLs: [`${rpURL}/callback`],
                skipConsent: false,
                grantTypes: ["authorization_code", "refresh_token"],
                scopes: ["openid", "profile", "email", "offline_access"],
              },
            ],
          },
        } as never,
      }),
      launchBrowser(),
    ]);
    await signUpByApi(service.url, ADA);
    page = await newPage();
  });

  afterAll(async () => {
    await closeAll();
    await browser?.close();
    await service?.close();
    await new Promise((closed) => relyingParty?.close(closed));
  });

  /** The relying party's view of the provider: discovery, its client and its secret. */
  let config: oidc.Configuration;
  const relyingPartyConfig = async () =>
    (config ??= await oidc.discovery(new URL(service.url), CLIENT.clientId, undefined, oidc.ClientSecretBasic(CLIENT.clientSecret), {
      // enableNonRepudiationChecks: the ID token's signature is checked against the provider's JWKS.
      execute: [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks],
    }));

  /** An authorization request of the relying party (PKCE S256, state, nonce) and what it keeps to check the answer. */
  async function authorization(params: Record<string, string> = {}) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(await relyingPartyConfig(), {
      redirect_uri: `${rpURL}/callback`,
      scope: "openid profile email",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
      ...params,
    });
    return { url, verifier, state, nonce };
  }

  /** The relying party redeems the code its callback got (the ID token checked: issuer, audience, nonce, signature). */
  const redeem = async (on: Page, request: Awaited<ReturnType<typeof authorization>>) =>
    oidc.authorizationCodeGrant(await relyingPartyConfig(), new URL(on.url()), {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });

  /** Waits for the browser to be at `where` (a path of Gatehouse, or the relying party's callback), saying where it is otherwise. */
  async function arrive(on: Page, where: "/sign-in" | "/two-factor" | "/oauth/consent" | "callback"): Promise<URL> {
    const there = (url: URL) => (where === "callback" ? url.href.startsWith(`${rpURL}/callback`) : url.origin === service.url && url.pathname === where);
    await on.waitForURL(there, { timeout: 10_000 }).catch(async (error: Error) => {
      throw new Error(`${error.message} at ${on.url()} ${(await on.content()).slice(0, 1500)}`);
    });
    return new URL(on.url());
  }

  /** The session the browser holds now (its id and when it was made), as Gatehouse reads its cookie. */
  async function sessionOf(on: Page): Promise<{ id: string; createdAt: Date } | null> {
    const answer = (await (await on.request.get(`${service.url}/api/auth/get-session`)).json()) as { session: { id: string; createdAt: string } } | null;
    return answer ? { id: answer.session.id, createdAt: new Date(answer.session.createdAt) } : null;
  }

  /** The applications the browser's user allowed, as the account page's Connected applications reads them. */
  async function grantsOf(on: Page): Promise<{ clientId: string }[]> {
    const answer = await on.request.get(`${service.url}/api/auth/oauth2/list-grants`);
    expect(answer.status()).toBe(200);
    return ((await answer.json()) as { grants: { clientId: string }[] }).grants;
  }

  async function signInOnPage(on: Page, who: { email: string; password: string }): Promise<void> {
    await on.getByLabel(en.username.identifier).fill(who.email);
    await on.getByLabel(en.signIn.password, { exact: true }).fill(who.password);
    await on.getByRole("button", { name: en.signIn.submit, exact: true }).click();
  }

  it("signs in to an application through Gatehouse, consents, and revokes it from the account page", async () => {
    const request = await authorization({ scope: "openid profile email offline_access", prompt: "consent" });

    // Signed out: the provider sends the browser to Gatehouse's sign-in page, which goes back to the interaction.
    await page.goto(request.url.href);
    expect((await arrive(page, "/sign-in")).searchParams.get("returnTo")).toMatch(/^\/api\/auth\/oauth2\/interaction\//);
    // The page names the application the sign-in goes on to.
    const forApplication = fill(en.signIn.forApplication, { app: CLIENT.name });
    await page.getByText(forApplication, { exact: true }).waitFor();
    await look(page, "oauth-sign-in");
    // So do the mailed-link and mailed-code pages it leads to.
    for (const way of [en.emailSignIn.linkButton, en.emailSignIn.codeButton]) {
      await page.getByRole("link", { name: way }).click();
      await page.getByText(forApplication, { exact: true }).waitFor();
      await page.goBack();
      await page.getByText(forApplication, { exact: true }).waitFor();
    }
    await signInOnPage(page, ADA);

    // The consent page: the application, the account, the scopes in plain words.
    await arrive(page, "/oauth/consent");
    await heading(page).waitFor();
    expect(await text(heading(page))).toBe(en.oauthApps.consentHeading.replace("{{app}}", CLIENT.name));
    await expect.poll(() => page.getByText(ADA.email).count()).toBe(1);
    for (const scope of ["scope_openid", "scope_profile", "scope_email", "scope_offline_access"] as const) {
      expect(await page.getByText(en.oauthApps[scope], { exact: true }).count(), scope).toBe(1);
    }
    await screenshotBothSizes(page, "oauth-consent");
    await page.getByRole("button", { name: en.oauthApps.allow, exact: true }).click();

    // Back at the application with a code, which the application exchanges.
    await arrive(page, "callback");
    const tokens = await redeem(page, request);
    const claims = tokens.claims();
    expect(claims?.iss).toBe(config.serverMetadata().issuer);
    expect(claims?.aud).toBe(CLIENT.clientId);
    expect(typeof claims?.sub).toBe("string");
    expect(claims?.amr).toEqual(["pwd"]);
    expect(tokens.refresh_token).toBeTruthy();
    const profile = await oidc.fetchUserInfo(config, tokens.access_token, claims!.sub);
    expect(profile.email).toBe(ADA.email);

    // The account page lists the application; disconnecting it ends its tokens.
    await page.goto(`${service.url}/account`);
    const card = page.locator("#connected-applications");
    await card.getByText(CLIENT.name, { exact: true }).waitFor();
    expect(await card.getByText(en.oauthApps.scope_email, { exact: false }).count()).toBe(1);
    await card.scrollIntoViewIfNeeded();
    await screenshotBothSizes(page, "connected-applications");
    await card.getByRole("button", { name: en.oauthApps.revokeTitle.replace("{{app}}", CLIENT.name) }).click();
    await page.getByRole("dialog").getByRole("button", { name: en.oauthApps.revoke, exact: true }).click();
    await card.getByText(en.oauthApps.appsEmpty).waitFor();

    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toThrow();
    await expect(oidc.fetchUserInfo(config, tokens.access_token, claims!.sub)).rejects.toThrow();
  }, JOURNEY_TIMEOUT);

  it("sends the user who denies back to the application with access_denied, and grants nothing", async () => {
    // Ada is still signed in (the journey above): the provider goes straight to the consent page.
    const request = await authorization({ scope: "openid profile email offline_access", prompt: "consent" });
    await page.goto(request.url.href);
    await arrive(page, "/oauth/consent");
    await page.getByRole("button", { name: en.oauthApps.deny, exact: true }).click();

    // Back at the application with the refusal (RFC 6749 4.1.2.1), the state it sent and the issuer (RFC 9207).
    const callback = await arrive(page, "callback");
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("state")).toBe(request.state);
    expect(callback.searchParams.get("iss")).toBe(config.serverMetadata().issuer);
    expect(callback.searchParams.has("code")).toBe(false);
    // The relying party's library reads it as the refusal it is: nothing to exchange.
    await expect(redeem(page, request)).rejects.toMatchObject({ error: "access_denied" });

    // No grant: none listed, and the account page's Connected applications stays empty.
    expect(await grantsOf(page)).toEqual([]);
    await page.goto(`${service.url}/account`);
    await page.locator("#connected-applications").getByText(en.oauthApps.appsEmpty).waitFor();
  }, JOURNEY_TIMEOUT);

  it("asks a signed-in user to sign in again when the application says prompt=login, and dates the ID token from that sign-in", async () => {
    const before = await sessionOf(page);
    expect(before, "Ada is signed in from the journeys above").not.toBeNull();
    const asked = Math.floor(Date.now() / 1000);
    const request = await authorization({ prompt: "login consent" });
    await page.goto(request.url.href);

    // The sign-in page, with its form, although the session is valid.
    const signInPage = await arrive(page, "/sign-in");
    expect(signInPage.searchParams.get("prompt")).toBe("login");
    await page.getByLabel(en.signIn.password, { exact: true }).waitFor();
    expect(await sessionOf(page)).toEqual(before);
    await signInOnPage(page, ADA);

    await arrive(page, "/oauth/consent");
    await page.getByRole("button", { name: en.oauthApps.allow, exact: true }).click();
    await arrive(page, "callback");
    const claims = (await redeem(page, request)).claims()!;

    // auth_time is the new sign-in's: the session it made, after the application asked.
    const after = await sessionOf(page);
    expect(after!.id).not.toBe(before!.id);
    expect(claims.auth_time).toBe(Math.floor(after!.createdAt.getTime() / 1000));
    expect(claims.auth_time).toBeGreaterThanOrEqual(asked);
    expect(claims.amr).toEqual(["pwd"]);
  }, JOURNEY_TIMEOUT);

  it("takes a user with an authenticator app through the second step to the consent page and back; the pending step is no sign-in", async () => {
    const BEA = person("Bea Twostep", "difference-engine-1822");
    const bea = await signUpWithSession(service.url, BEA);
    // An authenticator app, turned on over the API as the security page would (enable with the password, then a code).
    const { totpURI, backupCodes } = await bea.call<{ totpURI: string; backupCodes: string[] }>("/two-factor/enable", { password: BEA.password });
    const app = authenticatorApp(new URL(totpURI).searchParams.get("secret")!);
    const used = new Set<number>();
    await bea.call("/two-factor/verify-totp", { code: await freshCode(app, used) });

    const browserOfBea = await newPage();
    const request = await authorization();
    await browserOfBea.goto(request.url.href);
    await arrive(browserOfBea, "/sign-in");
    await signInOnPage(browserOfBea, BEA);

    // The password was right: the second step, which goes on to the provider's interaction.
    const secondStep = await arrive(browserOfBea, "/two-factor");
    const interaction = secondStep.searchParams.get("callbackURL")!;
    expect(interaction).toMatch(/^\/api\/auth\/oauth2\/interaction\//);
    await headingIs(browserOfBea, en.twoFactor.heading);
    await browserOfBea.getByLabel(en.twoFactor.code, { exact: true }).waitFor();
    await browserOfBea.getByText(fill(en.signIn.forApplication, { app: CLIENT.name }), { exact: true }).waitFor();
    // Starting over still goes back to the application's request.
    expect(await browserOfBea.getByRole("link", { name: en.common.backToSignIn }).getAttribute("href")).toBe(
      `/sign-in?returnTo=${encodeURIComponent(interaction)}`,
    );
    await screenshotBothSizes(browserOfBea, "oauth-two-factor");

    // Meanwhile, another tab of the same browser starts the application's sign-in: the pending step is no session,
    // so it is sent to sign in, not to the consent page.
    const tab = await browserOfBea.context().newPage();
    await tab.goto((await authorization()).url.href);
    expect((await arrive(tab, "/sign-in")).searchParams.get("returnTo")).toMatch(/^\/api\/auth\/oauth2\/interaction\//);
    await tab.getByLabel(en.signIn.password, { exact: true }).waitFor();
    expect(await sessionOf(tab)).toBeNull();
    await tab.close();

    // The code: signed in, on to the consent page and back to the application.
    await browserOfBea.getByLabel(en.twoFactor.code, { exact: true }).fill(await freshCode(app, used));
    await browserOfBea.getByRole("button", { name: en.twoFactor.verify, exact: true }).click();
    await arrive(browserOfBea, "/oauth/consent");
    await headingIs(browserOfBea, en.oauthApps.consentHeading.replace("{{app}}", CLIENT.name));
    await expect.poll(() => browserOfBea.getByText(BEA.email).count()).toBe(1);
    await screenshotBothSizes(browserOfBea, "oauth-consent-after-two-factor");
    await browserOfBea.getByRole("button", { name: en.oauthApps.allow, exact: true }).click();
    await arrive(browserOfBea, "callback");
    const claims = (await redeem(browserOfBea, request)).claims()!;
    expect(claims.sub).toBe(bea.userId);
    // Both factors (README "OpenID Provider"): the password, the app's one-time code, and so multi-factor.
    expect(claims.amr).toEqual(["pwd", "otp", "mfa"]);

    // Signed in with both, asked again (prompt=login): the password and the second step once more (a backup code
    // this time), then straight back, dated from the new sign-in. The session the browser held is no sign-in for it.
    const before = await sessionOf(browserOfBea);
    const again = await authorization({ prompt: "login" });
    await browserOfBea.goto(again.url.href);
    expect((await arrive(browserOfBea, "/sign-in")).searchParams.get("prompt")).toBe("login");
    await signInOnPage(browserOfBea, BEA);
    await arrive(browserOfBea, "/two-factor");
    await browserOfBea.getByRole("button", { name: en.twoFactor.useBackup, exact: true }).click();
    await browserOfBea.getByLabel(en.twoFactor.backupCode, { exact: true }).fill(backupCodes[0]!);
    await browserOfBea.getByRole("button", { name: en.twoFactor.verify, exact: true }).click();
    await arrive(browserOfBea, "callback");
    const renewed = (await redeem(browserOfBea, again)).claims()!;
    const after = await sessionOf(browserOfBea);
    expect(after!.id).not.toBe(before!.id);
    expect(renewed.auth_time).toBe(Math.floor(after!.createdAt.getTime() / 1000));
    expect(renewed.amr).toEqual(["pwd", "otp", "mfa"]);
  }, JOURNEY_TIMEOUT);
});

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as oidc from "openid-client";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en } from "../web/src/i18n/en.js";
import { launchBrowser, pageOpener, screenshotBothSizes } from "./helpers/browser.js";
import { heading, person, signUpByApi, text } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";

/**
 * Gatehouse as the OpenID Provider of another application (#16), in a real browser: a small relying party served
 * by the test sends the user to Gatehouse; the user signs in on Gatehouse's sign-in page, allows the application on
 * the consent page and lands back at the application with a code, which the test exchanges with `openid-client`
 * (PKCE S256, the ID token checked against the JWKS). Then the user disconnects the application on the account page
 * and its refresh and access tokens are refused.
 */

const CLIENT = { clientId: "team-dashboard", clientSecret: "dashboard-secret-0123456789-abcdefghijkl", name: "Team Dashboard" };
const ADA = person("Ada Lovelace", "analytical-engine-1843");

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

  /** Where the browser is, in a failure's message. */
  const at = () => `at ${page.url()}`;

  it("signs in to an application through Gatehouse, consents, and revokes it from the account page", async () => {
    const config = await oidc.discovery(new URL(service.url), CLIENT.clientId, undefined, oidc.ClientSecretBasic(CLIENT.clientSecret), {
      // enableNonRepudiationChecks: the ID token's signature is checked against the provider's JWKS.
      execute: [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks],
    });
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const authorize = oidc.buildAuthorizationUrl(config, {
      redirect_uri: `${rpURL}/callback`,
      scope: "openid profile email offline_access",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
      prompt: "consent",
    });

    // Signed out: the provider sends the browser to Gatehouse's sign-in page, which goes back to the interaction.
    await page.goto(authorize.href);
    await page.waitForURL((url) => url.pathname === "/sign-in", { timeout: 10_000 }).catch(async (error: Error) => {
      throw new Error(`${error.message} ${at()} ${(await page.content()).slice(0, 1500)}`);
    });
    expect(new URL(page.url()).searchParams.get("returnTo")).toMatch(/^\/api\/auth\/oauth2\/interaction\//);
    await page.getByLabel(en.username.identifier).fill(ADA.email);
    await page.getByLabel(en.signIn.password, { exact: true }).fill(ADA.password);
    await page.getByRole("button", { name: en.signIn.submit, exact: true }).click();

    // The consent page: the application, the account, the scopes in plain words.
    await page.waitForURL((url) => url.pathname === "/oauth/consent", { timeout: 10_000 }).catch(async (error: Error) => {
      throw new Error(`${error.message} ${at()} ${(await page.content()).slice(0, 1500)}`);
    });
    await heading(page).waitFor();
    expect(await text(heading(page))).toBe(en.oauthApps.consentHeading.replace("{{app}}", CLIENT.name));
    await expect.poll(() => page.getByText(ADA.email).count()).toBe(1);
    for (const scope of ["scope_openid", "scope_profile", "scope_email", "scope_offline_access"] as const) {
      expect(await page.getByText(en.oauthApps[scope], { exact: true }).count(), scope).toBe(1);
    }
    await screenshotBothSizes(page, "oauth-consent");
    await page.getByRole("button", { name: en.oauthApps.allow, exact: true }).click();

    // Back at the application with a code, which the application exchanges.
    await page.waitForURL((url) => url.href.startsWith(`${rpURL}/callback`), { timeout: 10_000 }).catch(async (error: Error) => {
      throw new Error(`${error.message} ${at()} ${(await page.content()).slice(0, 1500)}`);
    });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    const claims = tokens.claims();
    expect(claims?.iss).toBe(config.serverMetadata().issuer);
    expect(claims?.aud).toBe(CLIENT.clientId);
    expect(typeof claims?.sub).toBe("string");
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
  }, 90_000);
});

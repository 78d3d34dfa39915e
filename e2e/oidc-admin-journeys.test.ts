import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as oidc from "openid-client";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations } from "./helpers/axe.js";
import { en } from "../web/src/i18n/en.js";
import { launchBrowser, pageOpener, VIEWPORTS } from "./helpers/browser.js";
import { fill, headingIs, look, person, photograph, signIn, signUpByApi } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";

/**
 * The administration console of the OpenID Provider (#16) in Chromium, against the real service and a relying party
 * served by the test: an administrator adds a confidential application under Administration → Applications and reads
 * its secret, shown once; a user signs in to it through Gatehouse and the application exchanges the code with that
 * secret at the token endpoint. A new secret replaces it (the old one is refused there, the new one works); the
 * user's page lists the application with what it may do, and disconnecting it there ends its refresh token; the
 * application is edited and deleted (its secret refused from then on); the configuration file's client is read-only.
 * Pages are photographed at 1280 and 390 px (e2e/artifacts/) and checked with axe-core.
 */

const a = en.admin.applications;
const apps = en.admin.user.apps;
const ROOT = person("Olga Operator", "administrator-password-1", "-apps");
const ADA = person("Ada Lovelace", "analytical-engine-1843", "-apps");
const FILE_CLIENT = { clientId: "team-wiki", clientSecret: "wiki-secret-0123456789-abcdefghijklmn", name: "Team Wiki" };
const APP = "Billing Portal";
const RENAMED = "Billing";
const JOURNEY_TIMEOUT = 60_000;

let service: RunningService;
let browser: Browser;
let relyingParty: Server;
let rpURL: string;
const { newPage, closeAll } = pageOpener(
  () => browser,
  () => service.url,
);

beforeAll(async () => {
  relyingParty = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><title>${APP}</title><h1>${APP}</h1>`);
  });
  await new Promise<void>((listening) => relyingParty.listen(0, "127.0.0.1", listening));
  rpURL = `http://127.0.0.1:${(relyingParty.address() as AddressInfo).port}`;
  [service, browser] = await Promise.all([
    startService({
      options: {
        oidcProvider: {
          trustedClients: [{ ...FILE_CLIENT, type: "web", redirectURLs: [`${rpURL}/wiki`], skipConsent: true }],
        },
      } as never,
    }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await closeAll();
  await browser?.close();
  await service?.close();
  await new Promise((closed) => relyingParty?.close(closed));
});

/** A refresh at the token endpoint, the client authenticated with HTTP Basic as `client_secret_basic` says. */
async function refresh(clientId: string, secret: string, refreshToken: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${service.url}/api/auth/oauth2/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString("base64")}`,
    },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Nothing on the page is wider than a phone's screen (a long id or URI would make it scroll sideways). */
async function fitsPhone(page: Page): Promise<void> {
  await page.setViewportSize(VIEWPORTS.phone);
  try {
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
  } finally {
    await page.setViewportSize(VIEWPORTS.desktop);
  }
}

describe("applications (administrators)", () => {
  let admin: Page;
  let clientId = "";
  let secret = "";
  let refreshToken = "";
  let adaId = "";

  beforeAll(async () => {
    await Promise.all([signUpByApi(service.url, ROOT), signUpByApi(service.url, ADA)]);
    const { users } = service.gatehouse.runtime.stores;
    const root = await users.findUserByEmail(ROOT.email);
    await users.updateUser(root!.id, { role: "admin", updatedAt: new Date() });
    adaId = (await users.findUserByEmail(ADA.email))!.id;
    admin = await newPage();
    await signIn(admin, ROOT.email, ROOT.password);
  });

  it(
    "adds a confidential application, shows its secret once, and a user's sign-in through it is exchanged with that secret",
    async () => {
      await admin.goto("/admin");
      await admin.getByRole("navigation", { name: en.admin.sections }).getByRole("link", { name: a.title }).click();
      await headingIs(admin, a.title);
      const table = admin.getByRole("table", { name: a.listLabel });
      await table.getByRole("row").filter({ hasText: FILE_CLIENT.name }).getByText(a.fromFile).waitFor();

      await admin.getByRole("button", { name: a.add }).click();
      await admin.getByLabel(a.form.name, { exact: true }).fill(APP);
      // http:// on another host than a loopback one: the service refuses it, and the form says why beside the field.
      const refused = "http://billing.example.com/callback";
      const redirects = admin.getByLabel(a.form.redirectURLs);
      await redirects.fill(refused);
      await admin.getByRole("button", { name: a.form.submit, exact: true }).click();
      await admin.getByText(fill(a.form.redirectRejected, { url: refused })).waitFor();
      await expect.poll(() => redirects.evaluate((element) => element === document.activeElement)).toBe(true);
      await redirects.fill(`${rpURL}/callback`);
      await admin.getByLabel(a.form.clientUri).fill("https://billing.example.com");
      await look(admin, "applications-new");
      await admin.getByRole("button", { name: a.form.submit, exact: true }).click();

      // The secret, once, beside the client ID.
      const secretText = admin.getByLabel(a.secret.label, { exact: true });
      await secretText.waitFor();
      secret = (await secretText.textContent())!.trim();
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      clientId = (await admin.locator("dt", { hasText: a.client.clientId }).locator("xpath=following-sibling::dd[1]").textContent())!.trim();
      expect(clientId).toMatch(/^gh_/);
      await look(admin, "applications-secret");
      await admin.getByRole("button", { name: a.secret.done }).click();
      await expect(admin.getByText(secret).count()).resolves.toBe(0);
      const row = table.getByRole("row").filter({ hasText: clientId });
      await row.getByRole("link", { name: APP }).waitFor();
      await row.getByText(a.type_web).waitFor();
      await row.getByText(a.asksConsent).waitFor();
      await look(admin, "applications-list");
      await fitsPhone(admin);

      // Ada signs in to the application through Gatehouse; it exchanges her code with the secret the page showed.
      const ada = await newPage();
      await signIn(ada, ADA.email, ADA.password);
      const config = await oidc.discovery(new URL(service.url), clientId, undefined, oidc.ClientSecretBasic(secret), {
        execute: [oidc.allowInsecureRequests],
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
      await ada.goto(authorize.href);
      await headingIs(ada, fill(en.oauthApps.consentHeading, { app: APP }));
      await ada.getByRole("button", { name: en.oauthApps.allow, exact: true }).click();
      await ada.waitForURL((url) => url.href.startsWith(`${rpURL}/callback`));
      const tokens = await oidc.authorizationCodeGrant(config, new URL(ada.url()), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
      expect(tokens.claims()?.sub).toBe(adaId);
      expect(tokens.refresh_token).toBeTruthy();
      refreshToken = tokens.refresh_token!;
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "gives the application a new secret: the old one is refused at the token endpoint, the new one works",
    async () => {
      await admin.getByRole("table", { name: a.listLabel }).getByRole("link", { name: APP }).click();
      await headingIs(admin, APP);
      await admin.getByText(clientId, { exact: true }).waitFor();
      await admin.getByText(`${rpURL}/callback`, { exact: true }).waitFor();
      await look(admin, "application");
      await fitsPhone(admin);

      await admin.getByRole("button", { name: a.client.rotate }).click();
      const dialog = admin.getByRole("dialog", { name: a.client.rotateQuestion });
      await dialog.getByRole("button", { name: a.client.rotateConfirm }).click();
      // The question's own label says "client secret" too: the secret is read once the question has gone.
      await dialog.waitFor({ state: "detached" });
      const secretText = admin.getByLabel(a.secret.label, { exact: true });
      await secretText.waitFor();
      const rotated = (await secretText.textContent())!.trim();
      expect(rotated).not.toBe(secret);

      const old = await refresh(clientId, secret, refreshToken);
      expect(old).toMatchObject({ status: 401, body: { error: "invalid_client" } });
      const renewed = await refresh(clientId, rotated, refreshToken);
      // A refusal shows its error and description in the failure.
      expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
      expect(typeof renewed.body.refresh_token).toBe("string");
      refreshToken = renewed.body.refresh_token as string;
      secret = rotated;
      await admin.getByRole("button", { name: a.secret.done }).click();
      await expect(admin.getByText(rotated).count()).resolves.toBe(0);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "lists the application on the user's page with what it may do, and disconnecting it ends its refresh token",
    async () => {
      await admin.goto(`/admin/users/${adaId}`);
      await headingIs(admin, ADA.name);
      const card = admin.getByRole("region", { name: apps.heading });
      await card.getByRole("link", { name: APP }).waitFor();
      const scopes = card.getByRole("list", { name: fill(apps.scopesLabel, { app: APP }) });
      for (const scope of ["scope_openid", "scope_profile", "scope_email", "scope_offline_access"] as const) {
        await scopes.getByText(en.oauthApps[scope], { exact: true }).waitFor();
      }
      await card.scrollIntoViewIfNeeded();
      await photograph(card, "admin-user-applications");
      await expectNoAxeViolations(admin, "admin user with a connected application");

      await card.getByRole("button", { name: fill(apps.revokeTitle, { app: APP, name: ADA.name }) }).click();
      const dialog = admin.getByRole("dialog", { name: fill(apps.revokeTitle, { app: APP, name: ADA.name }) });
      await dialog.getByRole("button", { name: en.oauthApps.revoke, exact: true }).click();
      await card.getByText(fill(apps.revoked, { app: APP, name: ADA.name })).waitFor();
      await card.getByText(apps.none).waitFor();

      expect(await refresh(clientId, secret, refreshToken)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "edits the application, then deletes it; the configuration file's application is read-only",
    async () => {
      await admin.goto(`/admin/applications/${clientId}`);
      await headingIs(admin, APP);
      await admin.getByRole("button", { name: a.client.edit, exact: true }).click();
      const name = admin.getByLabel(a.form.name, { exact: true });
      await name.fill(RENAMED);
      await admin.getByRole("checkbox", { name: a.form.skipConsent }).check();
      await admin.getByRole("button", { name: a.form.save }).click();
      await admin.getByText(a.client.saved).waitFor();
      await headingIs(admin, RENAMED);
      await admin.getByText(a.firstParty, { exact: true }).waitFor();

      await admin.getByRole("button", { name: a.client.delete }).click();
      const dialog = admin.getByRole("dialog", { name: fill(a.client.deleteQuestion, { app: RENAMED }) });
      await dialog.getByRole("button", { name: a.client.delete }).click();
      await admin.waitForURL((url) => url.pathname === "/admin/applications");
      await admin.getByText(fill(a.deleted, { app: RENAMED })).waitFor();
      await expect(admin.getByRole("link", { name: RENAMED, exact: true }).count()).resolves.toBe(0);
      // Its secret is worth nothing now.
      expect(await refresh(clientId, secret, refreshToken)).toMatchObject({ status: 401, body: { error: "invalid_client" } });

      // The file's client: its page says where it changes, and offers no button to change it.
      await admin.getByRole("table", { name: a.listLabel }).getByRole("link", { name: FILE_CLIENT.name }).click();
      await headingIs(admin, FILE_CLIENT.name);
      await admin.getByText(a.client.fromFileNote).waitFor();
      for (const label of [a.client.edit, a.client.rotate, a.client.delete, a.client.turnOff]) {
        await expect(admin.getByRole("button", { name: label, exact: true }).count()).resolves.toBe(0);
      }
    },
    JOURNEY_TIMEOUT,
  );
});

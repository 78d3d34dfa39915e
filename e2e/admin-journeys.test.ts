import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en } from "../web/src/i18n/en.js";
import { launchBrowser, pageOpener, screenshotBothSizes } from "./helpers/browser.js";
import { heading, signUpByApi, text } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";

/**
 * An administrator's journeys through the built web app against the real service: find a user, ban and
 * unban them (their sign-in fails meanwhile with the ban message), act as them and stop. Pages are
 * photographed at desktop and phone sizes into e2e/artifacts/.
 */

const ROOT = { name: "Rita Root", email: "rita@example.com", password: "administrator-password-1" };
const GRACE = { name: "Grace Hopper", email: "grace@example.com", password: "cobol-compiler-1959" };
const BAN_MESSAGE = "You have been banned from this application. Please contact support if you believe this is an error.";

let service: RunningService;
let browser: Browser;
/** The administrator's browser. */
let admin: Page;
/** Grace's browser. */
let grace: Page;
const { newPage, closeAll } = pageOpener(
  () => browser,
  () => service.url,
);

async function fillSignIn(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.context().clearCookies();
  await page.goto("/sign-in");
  await page.getByLabel(en.signIn.email).fill(user.email);
  await page.getByLabel(en.signIn.password, { exact: true }).fill(user.password);
  await page.getByRole("button", { name: en.signIn.submit }).click();
}

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? "");

describe("administrator journeys", () => {
  let graceId = "";

  beforeAll(async () => {
    [service, browser] = await Promise.all([startService(), launchBrowser()]);
    [admin, grace] = await Promise.all([newPage(), newPage()]);
    await signUpByApi(service.url, ROOT);
    await signUpByApi(service.url, GRACE);
    // No route hands out the first administrator role: storage does, as `gatehouse create-admin` would.
    const { users } = service.gatehouse.runtime.stores;
    const root = await users.findUserByEmail(ROOT.email);
    await users.updateUser(root!.id, { role: "admin", updatedAt: new Date() });
    graceId = (await users.findUserByEmail(GRACE.email))!.id;
  });

  afterAll(async () => {
    await closeAll();
    await browser?.close();
    await service?.close();
  });

  it("shows the administration link to administrators only, and a 404 to everyone else", async () => {
    await fillSignIn(grace, GRACE);
    await grace.waitForURL((url) => url.pathname === "/");
    expect(await grace.getByRole("link", { name: en.nav.admin }).count()).toBe(0);
    await grace.goto("/admin");
    expect(await text(heading(grace))).toBe(en.notFound.heading);
    // The 404 sits inside the signed-in frame: its one navigation, no second layout of its own.
    expect(await grace.getByRole("link", { name: en.nav.account, exact: true }).count()).toBe(1);
    expect(await grace.getByRole("banner").count()).toBe(1);
    await screenshotBothSizes(grace, "admin-not-found");

    await fillSignIn(admin, ROOT);
    await admin.waitForURL((url) => url.pathname === "/");
    await admin.getByRole("link", { name: en.nav.admin }).click();
    await admin.waitForURL((url) => url.pathname === "/admin");
    expect(await text(heading(admin))).toBe(en.admin.title);
    await admin.getByRole("table", { name: en.admin.listLabel }).waitFor();
    await admin.getByText(fill(en.admin.range, { from: "1", to: "2", total: "2" })).waitFor();
    await screenshotBothSizes(admin, "admin-users");
  });

  it("says why the list could not be loaded, and loads it again on request", async () => {
    // The next list request fails as it would while the database is away.
    const unavailable = { code: "SERVICE_UNAVAILABLE", message: "Service temporarily unavailable" };
    await admin.route(
      "**/api/auth/admin/list-users**",
      (route) => route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify(unavailable) }),
      { times: 1 },
    );
    await admin.getByLabel(en.admin.search).fill("rita");
    const retry = admin.getByRole("button", { name: en.common.tryAgain });
    await retry.waitFor();
    expect(await admin.getByRole("table", { name: en.admin.listLabel }).count()).toBe(0);
    await screenshotBothSizes(admin, "admin-users-failed");

    await retry.click();
    await admin.getByText(fill(en.admin.range, { from: "1", to: "1", total: "1" })).waitFor();
    expect(await retry.count()).toBe(0);
    await admin.getByLabel(en.admin.search).fill("");
    await admin.getByText(fill(en.admin.range, { from: "1", to: "2", total: "2" })).waitFor();
  });

  it("finds a user by search and shows the empty state for no match", async () => {
    await admin.getByLabel(en.admin.search).fill("nobody-like-this");
    await admin.getByText(en.admin.empty).waitFor();
    await screenshotBothSizes(admin, "admin-users-empty");

    await admin.getByLabel(en.admin.search).fill("grace@");
    await admin.getByText(fill(en.admin.range, { from: "1", to: "1", total: "1" })).waitFor();
    await admin.getByRole("link", { name: GRACE.name }).click();
    await admin.waitForURL((url) => url.pathname === `/admin/users/${graceId}`);
    expect(await text(heading(admin))).toBe(GRACE.name);
    await admin.getByRole("list", { name: en.admin.user.sessionsLabel }).waitFor();
    await screenshotBothSizes(admin, "admin-user");
  });

  it("bans the user: their sign-in fails with the ban message; unbanning lets them in again", async () => {
    await admin.getByLabel(en.admin.user.banReason).fill("Spamming the forum");
    await admin.getByLabel(en.admin.user.banExpiry).selectOption({ label: en.admin.user.expiryWeek });
    await admin.getByRole("button", { name: en.admin.user.ban }).click();
    await admin.getByText(fill(en.admin.user.didBan, { name: GRACE.name })).waitFor();
    await admin.getByText(fill(en.admin.user.bannedReason, { reason: "Spamming the forum" })).waitFor();
    // Banning ended her sessions.
    await admin.getByText(en.admin.user.noSessions).waitFor();
    await screenshotBothSizes(admin, "admin-user-banned");

    await fillSignIn(grace, GRACE);
    await grace.getByText(BAN_MESSAGE).waitFor();
    expect(new URL(grace.url()).pathname).toBe("/sign-in");
    await screenshotBothSizes(grace, "sign-in-banned");

    await admin.getByRole("button", { name: en.admin.user.unban }).click();
    await admin.getByText(fill(en.admin.user.didUnban, { name: GRACE.name })).waitFor();
    await fillSignIn(grace, GRACE);
    await grace.waitForURL((url) => url.pathname === "/");
  });

  it("impersonates the user with a banner on every page, and stops", async () => {
    await admin.getByRole("button", { name: en.admin.user.impersonate }).click();
    await admin.waitForURL((url) => url.pathname === "/");
    const banner = admin.getByText(fill(en.impersonation.banner, { name: GRACE.name, email: GRACE.email }));
    await banner.waitFor();
    expect(await admin.getByRole("link", { name: en.nav.admin }).count()).toBe(0);
    await screenshotBothSizes(admin, "impersonating");

    await admin.getByRole("link", { name: en.nav.account, exact: true }).click();
    await admin.waitForURL((url) => url.pathname === "/account");
    await banner.waitFor();
    // Pages outside the signed-in frame show it too.
    await admin.goto("/no-such-page");
    expect(await text(heading(admin))).toBe(en.notFound.heading);
    await banner.waitFor();
    await admin.goto("/account");
    await banner.waitFor();

    await admin.getByRole("button", { name: en.impersonation.stop }).click();
    await admin.waitForURL((url) => url.pathname === `/admin/users/${graceId}`);
    await admin.getByRole("heading", { level: 1, name: GRACE.name }).waitFor();
    expect(await banner.count()).toBe(0);
    await admin.getByRole("link", { name: en.nav.admin }).waitFor();
  });
});

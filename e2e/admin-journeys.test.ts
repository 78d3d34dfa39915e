import { join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en } from "../web/src/i18n/en.js";
import { ru } from "../web/src/i18n/ru.js";
import { LANGUAGE_STORAGE_KEY } from "../web/src/i18n/languages.js";
import { signUpWithSession } from "./helpers/api.js";
import { ARTIFACTS, launchBrowser, nextFrames, pageOpener, screenshotBothSizes, VIEWPORTS } from "./helpers/browser.js";
import { fill, heading, headingIs, look, signIn, signUpByApi, text } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";

/**
 * An administrator's journeys through the built web app against the real service: find a user, ban and
 * unban them (their sign-in fails meanwhile with the ban message), act as them and stop. Then what issue #14
 * found: a phone's users table that hid Role, Status and Created in a scroller, an impersonation banner that
 * scrolled away, "Impersonate user" offered for administrators (whom the service refuses), no organizations
 * view, and no way to edit a user's name or email or mark the address verified. Pages are photographed at
 * desktop and phone sizes into e2e/artifacts/ and checked with axe-core.
 */

const ROOT = { name: "Rita Root", email: "rita@example.com", password: "administrator-password-1" };
const ADA = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical-engine-1843" };
const ORGANIZATION = { name: "Analytical Engines", slug: "analytical-engines" };
const a = en.admin;
const GRACE = { name: "Grace Hopper", email: "grace@example.com", password: "cobol-compiler-1959" };
const ALAN = { name: "Alan Turing", email: "alan@example.com", password: "universal-machine-1936" };

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

/** Where an element is drawn, relative to the window. */
const rect = (locator: Locator) =>
  locator.evaluate((element) => {
    const { top, bottom, left, right } = element.getBoundingClientRect();
    return { top, bottom, left, right };
  });

/** Whether the element is drawn whole inside the window, neither scrolled off nor cut at a side. */
async function inWindow(locator: Locator): Promise<boolean> {
  const box = await rect(locator);
  const size = locator.page().viewportSize()!;
  return box.top >= 0 && box.left >= 0 && box.bottom <= size.height + 0.5 && box.right <= size.width + 0.5;
}

/** Whether the page, or a scroller on it, would need a sideways scroll to show everything. */
const scrollsSideways = (page: Page) =>
  page.evaluate(() =>
    [document.documentElement, ...Array.from(document.querySelectorAll("main *"))].some(
      (element) => element.scrollWidth > element.clientWidth + 1 && ["auto", "scroll"].includes(getComputedStyle(element).overflowX),
    ) || document.documentElement.scrollWidth > window.innerWidth,
  );

/** Every cell of every row of a table, which at phone size must all be shown: none hidden, none off to the side. */
async function expectEveryCellShown(page: Page, table: Locator): Promise<void> {
  const cells = table.getByRole("cell");
  const count = await cells.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const cell = cells.nth(i);
    expect(await cell.isVisible(), `cell ${i}: ${await cell.textContent()}`).toBe(true);
    const box = await rect(cell);
    expect(box.right, `cell ${i} ends inside the window`).toBeLessThanOrEqual(page.viewportSize()!.width);
    expect(box.left).toBeGreaterThanOrEqual(0);
  }
  expect(await scrollsSideways(page)).toBe(false);
}

/**
 * #14: the impersonation banner and its Stop button stay in the window however far the page is scrolled, at
 * desktop and phone sizes; in the signed-in frame the header stays too, below it rather than under it.
 */
async function expectBannerInView(
  page: Page,
  { belowIt, name, messages = en }: { belowIt: "header" | "nothing"; name?: string; messages?: { impersonation: { stop: string } } },
): Promise<void> {
  const banner = page.getByRole("region", { name: messages.impersonation.stop });
  const stop = banner.getByRole("button", { name: messages.impersonation.stop });
  for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await nextFrames(page);
    expect(await inWindow(banner), `banner at ${viewport.width} px`).toBe(true);
    expect(await inWindow(stop), `stop button at ${viewport.width} px`).toBe(true);
    if (name) {
      // What the window shows at the bottom of the page (the full-page screenshots start at the top).
      await page.screenshot({ path: join(ARTIFACTS, `${name}-${viewport.width}.png`), animations: "disabled" });
    }
    if (belowIt === "header") {
      const header = page.getByRole("banner");
      expect((await rect(header)).top).toBeGreaterThanOrEqual((await rect(banner)).bottom - 1);
      expect(await inWindow(header)).toBe(true);
    }
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.evaluate(() => window.scrollTo(0, 0));
}

describe("administrator journeys", () => {
  let graceId = "";
  let adaId = "";
  let organizationId = "";

  beforeAll(async () => {
    [service, browser] = await Promise.all([startService(), launchBrowser()]);
    [admin, grace] = await Promise.all([newPage(), newPage()]);
    await signUpByApi(service.url, ROOT);
    await signUpByApi(service.url, GRACE);
    // Ada owns an organization the administrator is no member of.
    const ada = await signUpWithSession(service.url, ADA);
    adaId = ada.userId;
    organizationId = (await ada.call<{ id: string }>("/organization/create", ORGANIZATION)).id;
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
    await signIn(grace, GRACE.email, GRACE.password, { clearCookies: true, wait: false });
    await grace.waitForURL((url) => url.pathname === "/");
    await expect.poll(() => grace.getByRole("link", { name: en.nav.admin }).count(), { timeout: 10_000 }).toBe(0);
    await grace.goto("/admin");
    expect(await text(heading(grace))).toBe(en.notFound.heading);
    // The 404 sits inside the signed-in frame: its one navigation, no second layout of its own.
    await expect.poll(() => grace.getByRole("link", { name: en.nav.account, exact: true }).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => grace.getByRole("banner").count(), { timeout: 10_000 }).toBe(1);
    await screenshotBothSizes(grace, "admin-not-found");

    await signIn(admin, ROOT.email, ROOT.password, { clearCookies: true, wait: false });
    await admin.waitForURL((url) => url.pathname === "/");
    await admin.getByRole("link", { name: en.nav.admin }).click();
    await admin.waitForURL((url) => url.pathname === "/admin");
    // The page's chunk may still be on its way when the address changes: wait for its heading.
    await headingIs(admin, en.admin.title);
    await admin.getByRole("table", { name: en.admin.listLabel }).waitFor();
    await admin.getByText(fill(en.admin.range, { from: "1", to: "3", total: "3" })).waitFor();
    await look(admin, "admin-users");
  });

  it("#14: on a phone every user row shows its role, status and creation date, with no sideways scroller", async () => {
    const table = admin.getByRole("table", { name: a.listLabel });
    await admin.setViewportSize(VIEWPORTS.phone);
    try {
      await expectEveryCellShown(admin, table);
      const rita = table.getByRole("row").filter({ hasText: ROOT.email });
      for (const shown of [a.roleAdmin, a.active]) expect(await rita.getByText(shown, { exact: true }).isVisible()).toBe(true);
      // Each value carries its column's name where the header row is out of sight.
      for (const label of [a.columnRole, a.columnStatus, a.columnCreated]) {
        expect(await rita.getByText(label, { exact: true }).isVisible()).toBe(true);
      }
    } finally {
      await admin.setViewportSize(VIEWPORTS.desktop);
    }
    // On a desktop the header row names the columns, once.
    expect(await table.getByRole("columnheader", { name: a.columnCreated }).isVisible()).toBe(true);
    await expect.poll(() => table.getByText(a.columnCreated, { exact: true }).filter({ visible: true }).count(), { timeout: 10_000 }).toBe(1);
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
    await expect.poll(() => admin.getByRole("table", { name: en.admin.listLabel }).count(), { timeout: 10_000 }).toBe(0);
    await look(admin, "admin-users-failed");

    await retry.click();
    await admin.getByText(fill(en.admin.range, { from: "1", to: "1", total: "1" })).waitFor();
    await expect.poll(() => retry.count(), { timeout: 10_000 }).toBe(0);
    await admin.getByLabel(en.admin.search).fill("");
    await admin.getByText(fill(en.admin.range, { from: "1", to: "3", total: "3" })).waitFor();
  });

  it("finds a user by search and shows the empty state for no match", async () => {
    await admin.getByLabel(en.admin.search).fill("nobody-like-this");
    await admin.getByText(en.admin.empty).waitFor();
    await look(admin, "admin-users-empty");

    await admin.getByLabel(en.admin.search).fill("grace@");
    await admin.getByText(fill(en.admin.range, { from: "1", to: "1", total: "1" })).waitFor();
    await admin.getByRole("link", { name: GRACE.name }).click();
    await admin.waitForURL((url) => url.pathname === `/admin/users/${graceId}`);
    expect(await text(heading(admin))).toBe(GRACE.name);
    await admin.getByRole("list", { name: en.admin.user.sessionsLabel }).waitFor();
    await look(admin, "admin-user");
  });

  it("bans the user: their sign-in fails with the ban message; unbanning lets them in again", async () => {
    await admin.getByLabel(en.admin.user.banReason).fill("Spamming the forum");
    await admin.getByLabel(en.admin.user.banExpiry).selectOption({ label: en.admin.user.expiryWeek });
    await admin.getByRole("button", { name: en.admin.user.ban }).click();
    await admin.getByText(fill(en.admin.user.didBan, { name: GRACE.name })).waitFor();
    await admin.getByText(fill(en.admin.user.bannedReason, { reason: "Spamming the forum" })).waitFor();
    // Banning ended her sessions.
    await admin.getByText(en.admin.user.noSessions).waitFor();
    await look(admin, "admin-user-banned");
    // A banned user cannot be impersonated: the card says so instead of offering a button that would fail.
    await expect.poll(() => admin.getByRole("button", { name: a.user.impersonate }).count(), { timeout: 10_000 }).toBe(0);
    await admin.getByText(a.user.cannotImpersonateBanned).waitFor();

    await signIn(grace, GRACE.email, GRACE.password, { clearCookies: true, wait: false });
    // The service's default ban message, said in the app's own words (translated in every language).
    await grace.getByText(en.serverErrors.BANNED_USER).waitFor();
    expect(new URL(grace.url()).pathname).toBe("/sign-in");
    await screenshotBothSizes(grace, "sign-in-banned");

    await admin.getByRole("button", { name: en.admin.user.unban }).click();
    await admin.getByText(fill(en.admin.user.didUnban, { name: GRACE.name })).waitFor();
    await signIn(grace, GRACE.email, GRACE.password, { clearCookies: true, wait: false });
    await grace.waitForURL((url) => url.pathname === "/");
  });

  it("impersonates the user with a banner on every page, and stops", async () => {
    await admin.getByRole("button", { name: en.admin.user.impersonate }).click();
    await admin.waitForURL((url) => url.pathname === "/");
    const banner = admin.getByText(fill(en.impersonation.banner, { name: GRACE.name, email: GRACE.email }));
    await banner.waitFor();
    await expect.poll(() => admin.getByRole("link", { name: en.nav.admin }).count(), { timeout: 10_000 }).toBe(0);
    await look(admin, "impersonating");

    await admin.getByRole("link", { name: en.nav.account, exact: true }).click();
    await admin.waitForURL((url) => url.pathname === "/account");
    await banner.waitFor();
    await expectBannerInView(admin, { belowIt: "header", name: "impersonating-scrolled" });
    // Pages outside the signed-in frame show it too.
    await admin.goto("/no-such-page");
    expect(await text(heading(admin))).toBe(en.notFound.heading);
    await banner.waitFor();
    await expectBannerInView(admin, { belowIt: "nothing" });
    await admin.goto("/account");
    await banner.waitFor();

    await admin.getByRole("button", { name: en.impersonation.stop }).click();
    await admin.waitForURL((url) => url.pathname === `/admin/users/${graceId}`);
    await admin.getByRole("heading", { level: 1, name: GRACE.name }).waitFor();
    await expect.poll(() => banner.count(), { timeout: 10_000 }).toBe(0);
    await admin.getByRole("link", { name: en.nav.admin }).waitFor();
  });

  it("#14: does not offer to impersonate an administrator, and says why", async () => {
    // Another administrator (the service refuses impersonating administrators).
    const { users } = service.gatehouse.runtime.stores;
    await signUpByApi(service.url, ALAN);
    const alan = (await users.findUserByEmail(ALAN.email))!;
    await users.updateUser(alan.id, { role: "admin", updatedAt: new Date() });
    await admin.goto(`/admin/users/${alan.id}`);
    await headingIs(admin, ALAN.name);
    await admin.getByText(a.user.cannotImpersonateAdmin).waitFor();
    await expect.poll(() => admin.getByRole("button", { name: a.user.impersonate }).count(), { timeout: 10_000 }).toBe(0);
    await look(admin, "admin-user-administrator");
    // Another user is offered it.
    await admin.goto(`/admin/users/${graceId}`);
    await headingIs(admin, GRACE.name);
    await admin.getByRole("button", { name: a.user.impersonate }).waitFor();
  });

  it("#14: on their own page an administrator is offered no ban, impersonation or deletion (the service refuses them)", async () => {
    const rita = (await service.gatehouse.runtime.stores.users.findUserByEmail(ROOT.email))!;
    await admin.goto(`/admin/users/${rita.id}`);
    await headingIs(admin, ROOT.name);
    await admin.getByText(a.user.ownAccount).waitFor();
    await admin.getByRole("heading", { name: a.user.roleHeading, exact: true }).waitFor();
    for (const name of [a.user.banHeading, a.user.impersonateHeading, a.user.deleteHeading]) {
      expect(await admin.getByRole("heading", { name, exact: true }).count(), name).toBe(0);
    }
    await look(admin, "admin-user-own");
  });

  it("#14: edits a user's name and email; a new address is unverified until marked verified", async () => {
    const p = a.user.profile;
    await admin.goto(`/admin/users/${graceId}`);
    await headingIs(admin, GRACE.name);
    const name = admin.getByLabel(p.name, { exact: true });
    const email = admin.getByLabel(p.email, { exact: true });
    const verified = admin.getByLabel(p.verified);
    expect(await name.inputValue()).toBe(GRACE.name);

    // Someone else's address (in another case) is refused beside the field.
    await email.fill(ROOT.email.toUpperCase());
    await admin.getByRole("button", { name: p.save }).click();
    await admin.getByText(p.emailTaken).waitFor();
    expect(await email.getAttribute("aria-invalid")).toBe("true");
    await look(admin, "admin-user-profile-error");

    // Marked verified by hand, then a new address: the box clears itself, and the saved address is unverified.
    await email.fill(GRACE.email);
    await verified.check();
    await admin.getByRole("button", { name: p.save }).click();
    await admin.getByText(p.saved).waitFor();
    await admin.getByText(a.user.emailVerified, { exact: true }).waitFor();
    await name.fill("Grace Brewster Hopper");
    await email.fill("grace.hopper@example.com");
    expect(await verified.isChecked()).toBe(false);
    await admin.getByRole("button", { name: p.save }).click();
    await admin.getByText(p.saved).waitFor();
    await headingIs(admin, "Grace Brewster Hopper");
    await admin.getByText(a.user.emailUnverified, { exact: true }).waitFor();
    let stored = (await service.gatehouse.runtime.stores.users.findUserById(graceId))!;
    expect(stored).toMatchObject({ name: "Grace Brewster Hopper", email: "grace.hopper@example.com", emailVerified: false });

    await verified.check();
    await admin.getByRole("button", { name: p.save }).click();
    await admin.getByText(p.saved).waitFor();
    await admin.getByText(a.user.emailVerified, { exact: true }).waitFor();
    stored = (await service.gatehouse.runtime.stores.users.findUserById(graceId))!;
    expect(stored.emailVerified).toBe(true);
    await look(admin, "admin-user-profile-saved");

    // She signs in with the new address.
    await signIn(grace, "grace.hopper@example.com", GRACE.password, { clearCookies: true, wait: false });
    await grace.waitForURL((url) => url.pathname === "/");
  });

  it("#14: lists every organization, though the administrator belongs to none, and opens one with its members", async () => {
    const o = a.organizations;
    await admin.goto("/admin");
    await admin.getByRole("navigation", { name: a.sections }).getByRole("link", { name: o.title }).click();
    await admin.waitForURL((url) => url.pathname === "/admin/organizations");
    await headingIs(admin, o.title);
    const table = admin.getByRole("table", { name: o.listLabel });
    const row = table.getByRole("row").filter({ hasText: ORGANIZATION.name });
    await row.waitFor();
    expect(await row.getByRole("cell").nth(1).textContent()).toContain("1");
    await look(admin, "admin-organizations");
    await admin.setViewportSize(VIEWPORTS.phone);
    try {
      await expectEveryCellShown(admin, table);
    } finally {
      await admin.setViewportSize(VIEWPORTS.desktop);
    }

    await admin.getByLabel(o.search).fill("no-such-organization");
    await admin.getByText(o.noMatch).waitFor();
    await look(admin, "admin-organizations-empty");
    await admin.getByLabel(o.search).fill("ANALYTICAL");
    await admin.getByText(fill(a.range, { from: "1", to: "1", total: "1" })).waitFor();

    await table.getByRole("link", { name: ORGANIZATION.name }).click();
    await admin.waitForURL((url) => url.pathname === `/admin/organizations/${organizationId}`);
    await headingIs(admin, ORGANIZATION.name);
    const members = admin.getByRole("table", { name: o.membersHeading });
    const ada = members.getByRole("row").filter({ hasText: ADA.email });
    await ada.getByText(en.organization.roles.owner, { exact: true }).waitFor();
    await admin.getByText(fill(o.memberCount, { count: "1" })).waitFor();
    await look(admin, "admin-organization");
    await admin.setViewportSize(VIEWPORTS.phone);
    try {
      await expectEveryCellShown(admin, members);
    } finally {
      await admin.setViewportSize(VIEWPORTS.desktop);
    }

    // A member leads to their user page.
    await ada.getByRole("link", { name: ADA.name }).click();
    await admin.waitForURL((url) => url.pathname === `/admin/users/${adaId}`);
    await headingIs(admin, ADA.name);

    // An unknown organization says so.
    await admin.goto("/admin/organizations/no-such-id");
    await admin.getByText(en.serverErrors.ORGANIZATION_NOT_FOUND).waitFor();
    await admin.getByRole("link", { name: o.back }).waitFor();
  });

  it("#14: the administration pages in Russian", async () => {
    const r = ru.admin;
    await admin.evaluate((key) => window.localStorage.setItem(key, "ru"), LANGUAGE_STORAGE_KEY);
    try {
      await admin.goto("/admin");
      await headingIs(admin, r.title);
      await admin.getByRole("table", { name: r.listLabel }).waitFor();
      await look(admin, "admin-users-ru");
      await admin.goto("/admin/organizations");
      await headingIs(admin, r.organizations.title);
      await admin.getByRole("table", { name: r.organizations.listLabel }).waitFor();
      await look(admin, "admin-organizations-ru");
      await admin.goto(`/admin/organizations/${organizationId}`);
      await headingIs(admin, ORGANIZATION.name);
      await look(admin, "admin-organization-ru");
      await admin.goto(`/admin/users/${adaId}`);
      await headingIs(admin, ADA.name);
      await admin.getByLabel(r.user.profile.verified).waitFor();
      await look(admin, "admin-user-ru");

      await admin.getByRole("button", { name: r.user.impersonate }).click();
      await admin.waitForURL((url) => url.pathname === "/");
      const banner = admin.getByText(fill(ru.impersonation.banner, { name: ADA.name, email: ADA.email }));
      await banner.waitFor();
      await admin.goto("/account");
      await banner.waitFor();
      await look(admin, "impersonating-ru");
      await expectBannerInView(admin, { belowIt: "header", name: "impersonating-scrolled-ru", messages: ru });
      await admin.getByRole("button", { name: ru.impersonation.stop }).click();
      await admin.waitForURL((url) => url.pathname === `/admin/users/${adaId}`);
    } finally {
      await admin.evaluate((key) => window.localStorage.setItem(key, "en"), LANGUAGE_STORAGE_KEY);
    }
  });
});

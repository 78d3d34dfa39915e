import { readFile } from "node:fs/promises";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { de as deMessages } from "../web/src/i18n/de.js";
import { en } from "../web/src/i18n/en.js";
import { ru } from "../web/src/i18n/ru.js";
import { signUpWithSession, type ApiSession } from "./helpers/api.js";
import { launchBrowser, pageOpener, VIEWPORTS } from "./helpers/browser.js";
import { chooseLanguage, fill, headingIs, look, openOrganization, signIn, signUpByApi } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";

/**
 * Issue #17's pages in Chromium against the real service: an administrator bans a user, finds the ban in the
 * audit log by its type and exports it as CSV (the file holds the row); a long log loads page after page; a user
 * signed in on a second browser sees that sign-in in their security activity and signs that browser out from its
 * row (its session is then refused); an organization's owners see its activity, its plain members do not. Pages
 * are photographed at 1280 and 390 px (e2e/artifacts/) and checked with axe-core.
 */

const a = en.activity;
const de = deMessages.activity;
const ROOT = { name: "Rita Root", email: "rita-audit@example.com", password: "administrator-password-1" };
const GRACE = { name: "Grace Hopper", email: "grace-audit@example.com", password: "cobol-compiler-1959" };
const ALAN = { name: "Alan Turing", email: "alan-audit@example.com", password: "universal-machine-1936" };
const ADA = { name: "Ada Lovelace", email: "ada-audit@example.com", password: "analytical-engine-1843" };
const BAN_REASON = "Spam from the sign-up form";
/** The second browser: another system and browser than the headless Chromium of the first. */
const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";
const JOURNEY_TIMEOUT = 120_000;

/** The CSV's header, as the service writes it (events-api.md). */
const CSV_COLUMNS = "id,seq,createdAt,type,actorId,actorEmail,userId,userEmail,organizationId,ipAddress,userAgent,data";

let service: RunningService;
let browser: Browser;
const { newPage, closeAll } = pageOpener(
  () => browser,
  () => service.url,
);

beforeAll(async () => {
  [service, browser] = await Promise.all([startService(), launchBrowser()]);
});

afterAll(async () => {
  await closeAll();
  await browser?.close();
  await service?.close();
});

/** A CSV file's records (RFC 4180: quoted cells, doubled quotes, line breaks inside quotes). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      record.push(cell);
      cell = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i++;
      record.push(cell);
      records.push(record);
      record = [];
      cell = "";
    } else cell += char;
  }
  if (cell !== "" || record.length > 0) records.push([...record, cell]);
  return records;
}

/** The audit log's table, and its rows below the header. */
const eventTable = (page: Page, messages: { admin: { listLabel: string } } = a) => page.getByRole("table", { name: messages.admin.listLabel });
const eventRows = (page: Page, messages: { admin: { listLabel: string } } = a) =>
  eventTable(page, messages).getByRole("rowgroup").nth(1).getByRole("row");

/** An activity card's rows: the list's own items, not the lists of details inside them. */
const rowsOf = (list: Locator) => list.locator(":scope > li");

/** Every cell of the table drawn inside the window at phone width, with nothing to scroll sideways. */
async function expectCellsInWindow(page: Page, table: Locator): Promise<void> {
  await page.setViewportSize(VIEWPORTS.phone);
  try {
    const cells = table.getByRole("cell");
    const count = await cells.count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) {
      const box = await cells.nth(i).boundingBox();
      expect(box, `cell ${i} is drawn`).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, `cell ${i} ends inside the window`).toBeLessThanOrEqual(VIEWPORTS.phone.width + 0.5);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
  } finally {
    await page.setViewportSize(VIEWPORTS.desktop);
  }
}

describe("the audit log (administrators)", () => {
  let admin: Page;
  let graceId = "";

  beforeAll(async () => {
    await signUpByApi(service.url, ROOT);
    await signUpByApi(service.url, GRACE);
    await signUpByApi(service.url, ALAN);
    // No route hands out the first administrator role: storage does, as `gatehouse create-admin` would.
    const { users } = service.gatehouse.runtime.stores;
    const root = await users.findUserByEmail(ROOT.email);
    await users.updateUser(root!.id, { role: "admin", updatedAt: new Date() });
    graceId = (await users.findUserByEmail(GRACE.email))!.id;
    admin = await newPage();
    await signIn(admin, ROOT.email, ROOT.password);
  });

  it(
    "bans a user, finds the ban by its type in the audit log, and exports it: the CSV holds that row",
    async () => {
      await admin.goto(`/admin/users/${graceId}`);
      await headingIs(admin, GRACE.name);
      await admin.getByLabel(en.admin.user.banReason).fill(BAN_REASON);
      await admin.getByRole("button", { name: en.admin.user.ban }).click();
      await admin.getByText(fill(en.admin.user.didBan, { name: GRACE.name })).waitFor();

      // The user page links to the log of what was done to this account.
      await admin.getByRole("link", { name: a.admin.eventsOfUser }).click();
      await admin.waitForURL((url) => url.pathname === "/admin/audit-log" && url.searchParams.get("user") === graceId);
      await headingIs(admin, a.admin.title);
      // Unfiltered by type, the account's log has her sign-up too.
      await eventRows(admin).filter({ hasText: a.types.user.created }).first().waitFor();

      await admin.getByLabel(a.admin.category).selectOption("user.*");
      await admin.getByLabel(a.admin.type, { exact: true }).selectOption("user.banned");
      await admin.waitForURL((url) => url.searchParams.get("type") === "user.banned");
      await expect.poll(() => eventRows(admin).filter({ hasText: a.types.user.created }).count(), { timeout: 10_000 }).toBe(0);
      const rows = eventRows(admin);
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
      const ban = rows.first();
      for (const shown of [a.types.user.banned, fill(a.details.reason, { reason: BAN_REASON }), a.details.noEnd, ROOT.name, ROOT.email, GRACE.name, GRACE.email]) {
        expect(await ban.getByText(shown, { exact: true }).count(), shown).toBeGreaterThan(0);
      }
      // The administrator's browser, read from the user agent the ban came with.
      expect(await ban.getByText("Chrome on Linux").count()).toBe(1);
      await look(admin, "audit-log-ban");
      await expectCellsInWindow(admin, eventTable(admin));

      // The export is the same search: the link carries the filters, and the file holds the ban and nothing else.
      const exportLink = admin.getByRole("link", { name: a.admin.export });
      const href = new URL((await exportLink.getAttribute("href"))!, service.url);
      expect(href.pathname).toBe("/api/auth/admin/export-events");
      expect(Object.fromEntries(href.searchParams)).toEqual({ userId: graceId, type: "user.banned" });
      const [download] = await Promise.all([admin.waitForEvent("download"), exportLink.click()]);
      expect(download.suggestedFilename()).toMatch(/^audit-log-.*\.csv$/);
      const csv = parseCsv(await readFile((await download.path())!, "utf8"));
      expect(csv[0]!.join(",")).toBe(CSV_COLUMNS);
      const records = csv.slice(1).filter((record) => record.some((cell) => cell !== ""));
      expect(records).toHaveLength(1);
      const row = Object.fromEntries(CSV_COLUMNS.split(",").map((column, i) => [column, records[0]![i]]));
      expect(row).toMatchObject({ type: "user.banned", actorEmail: ROOT.email, userId: graceId, userEmail: GRACE.email });
      expect(JSON.parse(row.data!)).toMatchObject({ reason: BAN_REASON, expiresAt: null });
      // The page stayed where it was.
      expect(new URL(admin.url()).pathname).toBe("/admin/audit-log");
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "finds a user by address, loads a long log page after page, and says when nothing matches",
    async () => {
      // 55 refused sign-ins of Alan's: more than one page (50).
      for (let i = 0; i < 55; i++) {
        const response = await fetch(`${service.url}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: service.url },
          body: JSON.stringify({ email: ALAN.email, password: `wrong-password-${i}` }),
        });
        expect(response.status).toBe(401);
      }
      const alanId = (await service.gatehouse.runtime.stores.users.findUserByEmail(ALAN.email))!.id;
      await admin.goto("/admin");
      await admin.getByRole("navigation", { name: en.admin.sections }).getByRole("link", { name: a.admin.title }).click();
      await headingIs(admin, a.admin.title);
      await admin.getByLabel(a.admin.category).selectOption("sign_in.*");
      await admin.getByLabel(a.admin.type, { exact: true }).selectOption("sign_in.failed");
      // The address is looked up, and the log asked for that user's refused sign-ins once typing has paused.
      const answered = admin.waitForResponse((response) => {
        const url = new URL(response.url());
        return url.pathname.endsWith("/admin/list-events") && url.searchParams.get("userId") === alanId && url.searchParams.get("type") === "sign_in.failed";
      });
      await admin.getByLabel(a.admin.user, { exact: true }).fill(ALAN.email);
      await answered;
      const rows = eventRows(admin);
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(50);
      expect(await rows.first().getByText(a.reasons.invalid_credentials).count()).toBe(1);
      expect(await rows.first().getByText(a.admin.noActor).count()).toBe(1);

      const more = admin.getByRole("button", { name: a.loadMore });
      await more.click();
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(55);
      // Nothing older: the button goes, and focus moves to the words that say so.
      const end = admin.getByText(a.end);
      await end.waitFor();
      expect(await more.count()).toBe(0);
      expect(await end.evaluate((element) => element === document.activeElement)).toBe(true);
      // Newest first, each event once.
      const times = await rows.locator("time").evaluateAll((elements) => elements.map((element) => element.getAttribute("datetime")!));
      expect(new Set(times).size).toBeLessThanOrEqual(55);
      expect([...times].sort().reverse()).toEqual(times);
      await look(admin, "audit-log-all-loaded");

      // An address nobody has: said at the field, and nothing is listed.
      await admin.getByLabel(a.admin.user, { exact: true }).fill("nobody-here@example.com");
      await admin.getByText(a.admin.noSuchUser).first().waitFor();
      await expect.poll(() => eventTable(admin).count(), { timeout: 10_000 }).toBe(0);
      await admin.getByRole("button", { name: a.admin.clear }).click();
      await expect.poll(() => new URL(admin.url()).search, { timeout: 10_000 }).toBe("");
      await eventRows(admin).first().waitFor();

      // In Russian (long words, another date order), filtered to the ban: every label in that language.
      await admin.goto(`/admin/audit-log?type=user.banned`);
      await chooseLanguage(admin, en, "ru");
      await headingIs(admin, ru.activity.admin.title);
      await eventRows(admin, ru.activity).filter({ hasText: ru.activity.types.user.banned }).first().waitFor();
      expect(await admin.getByRole("link", { name: ru.activity.admin.export }).count()).toBe(1);
      await look(admin, "audit-log-ru");
      await expectCellsInWindow(admin, eventTable(admin, ru.activity));
      await chooseLanguage(admin, ru, "en");
    },
    JOURNEY_TIMEOUT,
  );
});

describe("security activity (every user)", () => {
  it(
    "shows a sign-in from a second browser with its device, and signs that browser out from its row",
    async () => {
      await signUpByApi(service.url, ADA);
      const laptop = await newPage();
      const other = await newPage({ userAgent: FIREFOX_ON_WINDOWS });
      await signIn(laptop, ADA.email, ADA.password);
      await signIn(other, ADA.email, ADA.password);

      await laptop.goto("/account/security");
      await headingIs(laptop, en.security.heading);
      const card = laptop.getByRole("region", { name: a.security.heading });
      const list = card.getByRole("list", { name: a.security.listLabel });
      await list.waitFor();
      const signIns = rowsOf(list).filter({ hasText: a.types.sign_in.succeeded });
      // This browser's sign-in is marked, and offers no sign-out; the other one's can be signed out.
      const mine = signIns.filter({ hasText: "Chrome on Linux" });
      await expect.poll(() => mine.getByText(a.security.thisDevice, { exact: true }).count(), { timeout: 10_000 }).toBe(1);
      expect(await mine.getByRole("button").count()).toBe(0);
      const theirs = signIns.filter({ hasText: "Firefox on Windows" });
      expect(await theirs.count()).toBe(1);
      for (const shown of [fill(a.details.via, { method: a.methods.email }), a.security.stillSignedIn, fill(en.account.sessions.ipAddress, { ip: "127.0.0.1" })]) {
        expect(await theirs.getByText(shown, { exact: true }).count(), shown).toBe(1);
      }
      const signOut = theirs.getByRole("button", { name: /^Sign out this device \(Firefox on Windows, signed in .+\)$/ });
      expect(await signOut.textContent()).toBe(a.security.signOut);
      await look(laptop, "security-activity");

      await signOut.click();
      const notice = laptop.getByText(fill(a.security.signedOut, { device: "Firefox on Windows" }));
      await notice.waitFor();
      // The row stays (it is history) without its button; the sign-out is the newest event.
      await expect.poll(() => theirs.getByRole("button").count(), { timeout: 10_000 }).toBe(0);
      expect(await theirs.getByText(a.security.stillSignedIn).count()).toBe(0);
      await expect.poll(() => rowsOf(list).first().textContent(), { timeout: 10_000 }).toContain(a.types.session.revoked);
      expect(await rowsOf(list).first().getByText(a.details.revokedOne).count()).toBe(1);
      await look(laptop, "security-activity-signed-out");

      // The second browser's session is refused: the service has no session for its cookie, and the app sends it to sign in.
      const session = await other.request.get("/api/auth/get-session");
      expect(await session.json()).toBeNull();
      await other.goto("/account");
      await other.waitForURL((url) => url.pathname === "/sign-in");

      // The narrower views: only sign-ins and sign-outs, or only changes (none yet).
      await card.getByLabel(a.show).selectOption("changes");
      await expect.poll(() => rowsOf(list).filter({ hasText: a.types.sign_in.succeeded }).count(), { timeout: 10_000 }).toBe(0);
      await card.getByLabel(a.show).selectOption("signIns");
      // The sign-up's own sign-in, and the two browsers'.
      await expect.poll(() => rowsOf(list).filter({ hasText: a.types.sign_in.succeeded }).count(), { timeout: 10_000 }).toBe(3);
      expect(await rowsOf(list).filter({ hasText: a.types.user.created }).count()).toBe(0);

      // In German: the card and its rows in that language.
      await chooseLanguage(laptop, en, "de");
      const german = laptop.getByRole("region", { name: de.security.heading });
      await german.getByRole("list", { name: de.security.listLabel }).getByText(de.types.sign_in.succeeded).first().waitFor();
      expect(await german.getByText(fill(deMessages.activity.security.signedOut, { device: "Firefox unter Windows" })).count()).toBe(1);
      await look(laptop, "security-activity-de");
    },
    JOURNEY_TIMEOUT,
  );
});

describe("organization activity (owners and admins)", () => {
  it(
    "shows the owner what happened in the organization, by whom; a plain member sees no activity",
    async () => {
      const owner = { name: "Olga Owner", email: "olga-audit@example.com", password: "owner-password-1" };
      const member = { name: "Mona Member", email: "mona-audit@example.com", password: "member-password-1" };
      const olga: ApiSession = await signUpWithSession(service.url, owner);
      const mona: ApiSession = await signUpWithSession(service.url, member);
      const organization = await olga.call<{ id: string; name: string }>("/organization/create", { name: "Difference Engines", slug: "difference-engines" });
      const invitation = await olga.call<{ id: string }>("/organization/invite-member", { email: member.email, role: "member", organizationId: organization.id });
      // Mona has proved her address, so she may answer the invitation.
      await service.gatehouse.runtime.stores.users.updateUser(mona.userId, { emailVerified: true, updatedAt: new Date() });
      await mona.call("/organization/accept-invitation", { invitationId: invitation.id });
      await olga.call("/organization/invite-member", { email: "someone-else@example.com", role: "admin", organizationId: organization.id });

      const page = await newPage();
      await signIn(page, owner.email, owner.password);
      await openOrganization(page, organization);
      const card = page.getByRole("region", { name: a.organization.heading });
      const list = card.getByRole("list", { name: a.organization.listLabel });
      await list.waitFor();
      const items = rowsOf(list);
      const invited = items.filter({ hasText: fill(a.details.invited, { email: "someone-else@example.com" }) });
      await expect.poll(() => invited.count(), { timeout: 10_000 }).toBe(1);
      expect(await invited.getByText(fill(a.organization.by, { name: owner.name })).count()).toBe(1);
      expect(await items.filter({ hasText: a.types.organization.created }).count()).toBe(1);
      expect(await items.filter({ hasText: a.types.invitation.accepted }).filter({ hasText: fill(a.organization.by, { name: member.name }) }).count()).toBe(1);
      await look(page, "organization-activity");

      await card.getByLabel(a.show).selectOption("invitations");
      // The filtered list replaces the whole one, and may be empty for a moment while it loads: wait for both counts.
      const counts = async () => [
        await items.filter({ hasText: a.types.organization.created }).count(),
        await items.filter({ hasText: a.types.invitation.created }).count(),
      ];
      await expect.poll(counts, { timeout: 10_000 }).toEqual([0, 2]);

      // A plain member's page has no activity, and the service refuses them the list.
      const plain = await newPage();
      await signIn(plain, member.email, member.password);
      await openOrganization(plain, organization);
      await plain.getByRole("heading", { name: en.organization.members.heading }).first().waitFor();
      expect(await plain.getByRole("region", { name: a.organization.heading }).count()).toBe(0);
      const refused = await plain.request.get(`/api/auth/organization/list-events?organizationId=${organization.id}`);
      expect(refused.status()).toBe(403);
      expect((await refused.json()).code).toBe("YOU_ARE_NOT_ALLOWED_TO_LIST_THIS_ORGANIZATIONS_EVENTS");
    },
    JOURNEY_TIMEOUT,
  );
});

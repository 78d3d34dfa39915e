import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en } from "../web/src/i18n/en.js";
import { launchBrowser, pageOpener } from "./helpers/browser.js";
import { headingIs, look, signIn, signUpByApi } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";

/**
 * #14: the web app counts as administrators whom the service does (admin.adminRoles, here ["superuser"]), never a
 * role merely called "admin". A superuser gets the console; a user whose role is "admin" gets neither its link nor
 * its pages; the users list labels and filters by the service's flag; the role pickers offer the roles the service
 * accepts; and on their own page an administrator is offered no ban, impersonation or deletion.
 */

const SAM = { name: "Sam Superuser", email: "sam@example.com", password: "superuser-password-1" };
const ADAM = { name: "Adam Named-Admin", email: "adam@example.com", password: "named-admin-password-1" };
const a = en.admin;
const superuserLabel = a.roleAdminNamed.replace("{{role}}", "superuser");

let service: RunningService;
let browser: Browser;
let sam: Page;
let adam: Page;
const ids: Record<string, string> = {};
const { newPage, closeAll } = pageOpener(
  () => browser,
  () => service.url,
);

/** The service's answer on whether the console is open to the page's user, which the header waits for. */
const administratorAnswer = (page: Page) => page.waitForResponse((response) => response.url().includes("/api/auth/admin/has-permission"));

/** A select by its label. */
const select = (page: Page, label: string) => page.getByRole("combobox", { name: label, exact: true });

/** The labels of a select's options, in order. */
const optionLabels = (page: Page, label: string) => select(page, label).locator("option").allTextContents();

describe("administrators by the service's roles (adminRoles: superuser)", () => {
  beforeAll(async () => {
    [service, browser] = await Promise.all([startService({ options: { admin: { adminRoles: ["superuser"] } } }), launchBrowser()]);
    [sam, adam] = await Promise.all([newPage(), newPage()]);
    const { users } = service.gatehouse.runtime.stores;
    for (const [person, role] of [
      [SAM, "superuser"],
      [ADAM, "admin"],
    ] as const) {
      await signUpByApi(service.url, person);
      const user = (await users.findUserByEmail(person.email))!;
      await users.updateUser(user.id, { role, updatedAt: new Date() });
      ids[person.email] = user.id;
    }
  });

  afterAll(async () => {
    await closeAll();
    await browser?.close();
    await service?.close();
  });

  it("a user whose role is named admin, but is no administrator here, sees no console link and gets a 404", async () => {
    const adamAsked = administratorAnswer(adam);
    await signIn(adam, ADAM.email, ADAM.password);
    expect((await adamAsked).ok()).toBe(true);
    expect(await adam.getByRole("link", { name: en.nav.admin }).count()).toBe(0);
    await adam.goto("/admin");
    await headingIs(adam, en.notFound.heading);
  });

  it("a superuser gets the console; the list says who is an administrator and filters by it", async () => {
    const samAsked = administratorAnswer(sam);
    await signIn(sam, SAM.email, SAM.password);
    expect((await samAsked).ok()).toBe(true);
    await sam.getByRole("link", { name: en.nav.admin }).click();
    await sam.waitForURL((url) => url.pathname === "/admin");
    await headingIs(sam, a.title);
    const table = sam.getByRole("table", { name: a.listLabel });
    const row = (email: string) => table.getByRole("row").filter({ hasText: email });
    await expect.poll(() => table.getByRole("row").count(), { timeout: 10_000 }).toBe(3);
    expect(await row(SAM.email).getByText(a.roleAdmin, { exact: true }).count()).toBe(1);
    expect(await row(ADAM.email).getByText(a.roleUser, { exact: true }).count()).toBe(1);

    await sam.getByLabel(a.show).selectOption({ label: a.filterAdmins });
    await expect.poll(() => table.getByRole("row").count(), { timeout: 10_000 }).toBe(2);
    expect(await row(SAM.email).count()).toBe(1);

    await sam.getByRole("button", { name: a.createUser }).click();
    expect(await optionLabels(sam, a.columnRole)).toEqual([a.roleUser, superuserLabel]);
  });

  it("on their own page an administrator is offered no ban, impersonation or deletion", async () => {
    await sam.goto(`/admin/users/${ids[SAM.email]}`);
    await headingIs(sam, SAM.name);
    await sam.getByText(a.user.ownAccount).waitFor();
    await sam.getByRole("heading", { name: a.user.roleHeading, exact: true }).waitFor();
    for (const name of [a.user.banHeading, a.user.impersonateHeading, a.user.deleteHeading]) {
      expect(await sam.getByRole("heading", { name, exact: true }).count(), name).toBe(0);
    }
    expect(await optionLabels(sam, a.user.roleHeading)).toEqual([a.roleUser, superuserLabel]);
    await look(sam, "admin-user-own-superuser");
  });

  it("the role picker offers the service's roles; making the user a superuser makes them an administrator", async () => {
    await sam.goto(`/admin/users/${ids[ADAM.email]}`);
    await headingIs(sam, ADAM.name);
    // Not an administrator here, so impersonation is offered; the stored role "admin" is shown as it is.
    await sam.getByRole("button", { name: a.user.impersonate }).waitFor();
    expect(await optionLabels(sam, a.user.roleHeading)).toEqual([a.roleUser, superuserLabel, "admin"]);
    expect(await select(sam, a.user.roleHeading).inputValue()).toBe("admin");
    await look(sam, "admin-user-custom-role");

    await select(sam, a.user.roleHeading).selectOption("superuser");
    await sam.getByRole("button", { name: a.user.saveRole }).click();
    await sam.getByText(a.user.roleSaved).waitFor();
    await sam.getByText(a.user.cannotImpersonateAdmin).waitFor();
    expect(await sam.getByRole("button", { name: a.user.impersonate }).count()).toBe(0);
    expect(await optionLabels(sam, a.user.roleHeading)).toEqual([a.roleUser, superuserLabel]);

    // Adam now has the console too, once his session is read again.
    await adam.reload();
    await adam.getByRole("link", { name: en.nav.admin }).waitFor();
  });
});

import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { en } from "../web/src/i18n/en.js";
import { signUpWithSession } from "./helpers/api.js";
import { expectNoAxeViolations, expectPageAccessible } from "./helpers/axe.js";
import { launchBrowser, pageOpener } from "./helpers/browser.js";
import { outboxLink } from "./helpers/outbox.js";
import { fill, signIn, signUpByApi } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";

/**
 * Issue #13: axe-core (WCAG 2.x A and AA, and best practice) finds nothing on any page of the app, in each state a
 * visitor can meet it in: signed out, signed in, as an administrator, with the service's markers and errors. The
 * service keeps its mail in the development outbox, where the reset and invitation links are read.
 */

const PASSWORD = "correct-horse-battery-staple";
const ROOT = { name: "Rita Root", email: "rita-root@example.com", password: PASSWORD };
const MIA = { name: "Mia Member", email: "mia-member@example.com", password: PASSWORD };
const IVAN = { name: "Ivan Invitee", email: "ivan-invitee@example.com", password: PASSWORD };
const ORGANIZATION = { name: "Acme Anvils", slug: "acme-anvils" };
/** Each test walks many pages. */
const TIMEOUT = 120_000;

let service: RunningService;
let browser: Browser;
const { newPage, closeAll } = pageOpener(
  () => browser,
  () => service.url,
);

describe("every page passes axe-core", () => {
  let invitationPath = "";
  let miaId = "";
  let organizationId = "";

  beforeAll(async () => {
    [service, browser] = await Promise.all([startService(), launchBrowser()]);
    await signUpByApi(service.url, ROOT);
    await signUpByApi(service.url, IVAN);
    const mia = await signUpWithSession(service.url, MIA);
    miaId = mia.userId;
    organizationId = (await mia.call<{ id: string }>("/organization/create", ORGANIZATION)).id;
    await mia.call("/organization/invite-member", { email: IVAN.email, role: "member", organizationId });
    invitationPath = new URL(await outboxLink(service, IVAN.email, "/invitation/")).pathname;
    // No route hands out the first administrator role: storage does, as `gatehouse create-admin` would.
    const { users } = service.gatehouse.runtime.stores;
    const root = await users.findUserByEmail(ROOT.email);
    await users.updateUser(root!.id, { role: "admin", updatedAt: new Date() });
    // Ivan has proved his address, so his invitation can be answered from the home page.
    const ivan = await users.findUserByEmail(IVAN.email);
    await users.updateUser(ivan!.id, { emailVerified: true, updatedAt: new Date() });
  });

  afterAll(async () => {
    await closeAll();
    await browser?.close();
    await service?.close();
  });

  it("signed out: sign-in, sign-up, sign-in by link and code, the link's page, the second step, forgot and reset password, verify-email, account-deleted, invitation, error, 404, outbox", async () => {
    const page = await newPage();
    await expectPageAccessible(page, "/sign-in", en.signIn.heading);
    await expectPageAccessible(page, "/sign-up", en.signUp.heading);

    // Sign-in by a mailed link or code, the page a mailed link opens, and the second step (#15).
    await expectPageAccessible(page, "/sign-in/link", en.emailSignIn.link.heading);
    await expectPageAccessible(page, "/sign-in/link?error=INVALID_TOKEN", en.emailSignIn.link.heading, "sign-in/link, spent link");
    await expectPageAccessible(page, "/sign-in/code", en.emailSignIn.code.heading);
    await page.getByLabel(en.emailSignIn.email).fill(MIA.email);
    await page.getByRole("button", { name: en.emailSignIn.code.submit }).click();
    await expectPageAccessible(page, null, en.emailSignIn.code.enterHeading, "sign-in/code, code sent");
    await expectPageAccessible(page, "/magic-link?token=abc", en.emailSignIn.landing.heading);
    await expectPageAccessible(page, "/magic-link", en.emailSignIn.landing.invalidHeading, "magic-link without a token");
    await expectPageAccessible(page, "/two-factor", en.twoFactor.heading, "two-factor, no pending sign-in");
    await page.getByRole("button", { name: en.twoFactor.useBackup }).click();
    await page.getByText(en.twoFactor.backupLead).waitFor();
    await expectNoAxeViolations(page, "two-factor, backup code");

    await expectPageAccessible(page, "/forgot-password", en.forgotPassword.heading);
    await page.getByLabel(en.forgotPassword.email).fill(MIA.email);
    await page.getByRole("button", { name: en.forgotPassword.submit }).click();
    await expectPageAccessible(page, null, en.forgotPassword.sentHeading, "forgot-password, sent");

    // The mailed link goes through the service, which sends the browser on with its token.
    await page.goto(await outboxLink(service, MIA.email, "/api/auth/reset-password/"));
    await expectPageAccessible(page, null, en.resetPassword.heading, "reset-password, form");
    await expectPageAccessible(page, "/reset-password", en.resetPassword.invalidHeading, "reset-password without a token");

    await expectPageAccessible(page, "/verify-email", en.verifyEmail.unknownHeading, "verify-email, signed out");
    await expectPageAccessible(page, "/verify-email?verified=true", en.verifyEmail.verifiedHeading);
    await expectPageAccessible(page, "/verify-email?error=invalid_token", en.verifyEmail.invalidHeading);
    await expectPageAccessible(page, "/verify-email?error=token_expired", en.verifyEmail.expiredHeading);
    await expectPageAccessible(page, "/verify-email?error=user_not_found", en.verifyEmail.userNotFoundHeading);

    await expectPageAccessible(page, "/account-deleted", en.accountDeleted.unknownHeading, "account-deleted, no marker");
    await expectPageAccessible(page, "/account-deleted?deleted=true", en.accountDeleted.heading);
    await expectPageAccessible(page, "/account-deleted?error=invalid_token", en.accountDeleted.invalidHeading);

    await expectPageAccessible(page, invitationPath, en.organization.invitation.heading, "invitation, signed out");
    await expectPageAccessible(page, "/error?error=state_not_found", en.errorPage.heading, "error, known code");
    await expectPageAccessible(page, "/error?error=no_such_code", en.errorPage.heading, "error, unknown code");
    await expectPageAccessible(page, "/no/such/page", en.notFound.heading, "not found, signed out");

    await expectPageAccessible(page, "/dev/outbox", en.devOutbox.heading);
    await page.getByRole("list", { name: en.devOutbox.listLabel }).getByRole("article").first().waitFor();
    await expectNoAxeViolations(page, "dev outbox with mail");
  }, TIMEOUT);

  it("signed in: home with an invitation, the invitation, account, security, verify-email, new organization, organization, 404", async () => {
    const ivan = await newPage();
    await signIn(ivan, IVAN.email, IVAN.password);
    await expectPageAccessible(ivan, "/", fill(en.home.heading, { name: IVAN.name }), "home");
    await ivan.getByRole("button", { name: en.organization.invitation.accept }).first().waitFor();
    await expectNoAxeViolations(ivan, "home with an invitation");
    await expectPageAccessible(ivan, invitationPath, ORGANIZATION.name, "invitation, signed in");

    await expectPageAccessible(ivan, "/account/security", en.security.heading);
    await ivan.getByText(en.security.passkeys.none).waitFor();
    await expectNoAxeViolations(ivan, "security with its passkeys");

    await expectPageAccessible(ivan, "/account", en.account.heading);
    await ivan.getByRole("list", { name: en.account.sessions.listLabel }).getByRole("listitem").first().waitFor();
    await expectNoAxeViolations(ivan, "account with its sessions");

    await expectPageAccessible(ivan, "/verify-email", en.verifyEmail.alreadyVerifiedHeading, "verify-email, signed in, verified");
    await expectPageAccessible(ivan, "/verify-email?error=invalid_token", en.verifyEmail.spentHeading, "verify-email, spent link");
    await expectPageAccessible(ivan, "/account-deleted?deleted=true", en.accountDeleted.stillSignedInHeading, "account-deleted, signed in");
    await expectPageAccessible(ivan, "/organization", en.organization.page.title, "organization, none active");

    await expectPageAccessible(ivan, "/organizations/new", en.organization.create.heading);
    await ivan.getByLabel(en.organization.create.name, { exact: true }).fill("Ivan's Instruments");
    await ivan.getByLabel(en.organization.create.slug, { exact: true }).fill("ivans-instruments");
    await ivan.getByText(en.organization.create.slugAvailable).waitFor();
    await expectNoAxeViolations(ivan, "new organization, filled in");
    await ivan.getByRole("button", { name: en.organization.create.submit }).click();
    await expectPageAccessible(ivan, null, "Ivan's Instruments", "organization");

    await expectPageAccessible(ivan, "/no/such/page", en.notFound.heading, "not found, signed in");
    // The administration pages do not exist for a member: the 404 inside the signed-in frame.
    await expectPageAccessible(ivan, "/admin", en.notFound.heading, "admin, as a member");

    // Mia never proved her address: the signed-in pages say so.
    const mia = await newPage();
    await signIn(mia, MIA.email, MIA.password);
    await expectPageAccessible(mia, "/verify-email", en.verifyEmail.pendingHeading, "verify-email, signed in, pending");
    // Her organization was made from another device: this browser's session makes it the active one.
    await mia.evaluate(async (id) => {
      const response = await fetch("/api/auth/organization/set-active", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ organizationId: id }),
      });
      if (!response.ok) throw new Error(`set-active answered ${response.status}`);
    }, organizationId);
    await expectPageAccessible(mia, "/organization", ORGANIZATION.name, "organization, as its owner with an invitation out");
    await mia.getByText(IVAN.email).first().waitFor();
    await expectNoAxeViolations(mia, "organization with members and invitations");
  }, TIMEOUT);

  it("as an administrator: users, a user, organizations, an organization, webhooks, applications", async () => {
    const root = await newPage();
    await signIn(root, ROOT.email, ROOT.password);
    await expectPageAccessible(root, "/admin", en.admin.title, "admin users");
    await root.getByRole("table", { name: en.admin.listLabel }).getByRole("cell", { name: MIA.email }).waitFor();
    await expectNoAxeViolations(root, "admin users, listed");

    await expectPageAccessible(root, `/admin/users/${miaId}`, MIA.name, "admin user");
    await expectPageAccessible(root, "/admin/organizations", en.admin.organizations.title);
    await root.getByRole("cell", { name: ORGANIZATION.name }).first().waitFor();
    await expectNoAxeViolations(root, "admin organizations, listed");
    await expectPageAccessible(root, `/admin/organizations/${organizationId}`, ORGANIZATION.name, "admin organization");
    // Webhooks with no endpoint (e2e/webhooks-journeys.test.ts checks the pages with endpoints and deliveries).
    await expectPageAccessible(root, "/admin/webhooks", en.admin.webhooks.title, "admin webhooks");
    await root.getByText(en.admin.webhooks.none).waitFor();
    await expectNoAxeViolations(root, "admin webhooks, none yet");

    // The OpenID Provider's applications (#16; e2e/oidc-admin-journeys.test.ts walks them through): none yet, the
    // form to add one, its secret shown once, and its page.
    const apps = en.admin.applications;
    await expectPageAccessible(root, "/admin/applications", apps.title, "admin applications");
    await root.getByText(apps.none).waitFor();
    await expectNoAxeViolations(root, "admin applications, none yet");
    await root.getByRole("button", { name: apps.add }).click();
    await root.getByLabel(apps.form.name, { exact: true }).fill("Acme Dashboard");
    await root.getByLabel(apps.form.redirectURLs).fill("https://dashboard.acme.example/callback");
    await expectNoAxeViolations(root, "admin applications, the new application's form");
    await root.getByRole("button", { name: apps.form.submit, exact: true }).click();
    await root.getByLabel(apps.secret.label).waitFor();
    await expectNoAxeViolations(root, "admin applications, the secret shown once");
    await root.getByRole("button", { name: apps.secret.done }).click();
    await root.getByRole("link", { name: "Acme Dashboard" }).click();
    await expectPageAccessible(root, null, "Acme Dashboard", "admin application");
    await root.getByRole("button", { name: apps.client.edit, exact: true }).click();
    await root.getByRole("button", { name: apps.form.save }).waitFor();
    await expectNoAxeViolations(root, "admin application, editing");
  }, TIMEOUT);
});

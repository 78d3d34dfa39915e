import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSmtp, type TestSmtp } from "../server/test/helpers/smtp.js";
import { en } from "../web/src/i18n/en.js";
import { ru } from "../web/src/i18n/ru.js";
import { signUpWithSession, type ApiSession } from "./helpers/api.js";
import { launchBrowser, pageOpener } from "./helpers/browser.js";
import { fill, headingIs, linkTo, look, signIn } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";

/**
 * An invitation from the invitee's side (issue #14): signing up from a mailed invitation, verifying the address
 * by a link that comes back to the invitation, declining it; and the pending invitations the home page and the
 * header's organization switcher list, with accept and decline. In English and in Russian, photographed at
 * desktop and phone sizes and checked with axe-core.
 */

const PASSWORD = "correct-horse-battery";
const JOURNEY_TIMEOUT = 120_000;
const o = en.organization;

let smtp: TestSmtp;
let service: RunningService;
let browser: Browser;
const { newPage, closeAll } = pageOpener(
  () => browser,
  () => service.url,
);

beforeAll(async () => {
  smtp = await startTestSmtp();
  [service, browser] = await Promise.all([startService({ smtpUrl: smtp.url }), launchBrowser()]);
});

afterAll(async () => {
  await closeAll();
  await browser?.close();
  await service?.close();
  await smtp?.close();
});

/** A verified user with a session of their own (the verification link opened with it, as their browser would). */
async function verifiedUser(name: string, email: string): Promise<ApiSession> {
  const api = await signUpWithSession(service.url, { name, email, password: PASSWORD });
  await api.open(linkTo(await smtp.waitFor(email), "/api/auth/verify-email"));
  return api;
}

/** An owner with organizations of these names (each slug is the name in lower case). */
async function ownerOf(email: string, ...names: string[]) {
  const owner = await signUpWithSession(service.url, { name: `Owner of ${names[0]}`, email, password: PASSWORD });
  const organizations = [];
  for (const name of names) {
    organizations.push(await owner.call<{ id: string; name: string }>("/organization/create", { name, slug: name.toLowerCase() }));
  }
  return { owner, organizations };
}

describe("invitation journeys", () => {
  it(
    "#14: signing up from an invitation keeps it: the verification link comes back to it, and a declined one says only that",
    async () => {
      const { owner, organizations } = await ownerOf("owner-initech@example.com", "Initech");
      const email = "nina-invited@example.com";
      await owner.call("/organization/invite-member", { email, role: "member", organizationId: organizations[0]!.id });
      const invitationLink = linkTo(await smtp.waitFor(email), "/invitation/");
      const invitationPath = new URL(invitationLink).pathname;

      // Signed out, the invitee creates an account from the invitation and comes back to it, unverified.
      const page = await newPage();
      await page.goto(invitationLink);
      await headingIs(page, o.invitation.heading);
      await page.getByRole("link", { name: o.invitation.signUp }).click();
      await page.waitForURL((url) => url.pathname === "/sign-up");
      await page.getByLabel(en.signUp.name, { exact: true }).fill("Nina Newcomer");
      await page.getByLabel(en.signUp.email, { exact: true }).fill(email);
      await page.getByLabel(en.signUp.password, { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: en.signUp.submit }).click();
      await page.waitForURL((url) => url.pathname === invitationPath);
      // Not a dead end: it says what to do, and offers a new link.
      await headingIs(page, o.invitation.verifyHeading);
      await page.getByText(fill(o.invitation.verifyLead, { email })).waitFor();
      await look(page, "invitation-verify");

      // The link mailed on sign-up leads back to the invitation, and so does a new one sent from here.
      const signUpLink = linkTo(await smtp.waitFor(email), "/api/auth/verify-email");
      expect(new URL(signUpLink).searchParams.get("callbackURL")).toBe(invitationPath);
      await page.getByRole("button", { name: o.invitation.resend }).click();
      await page.getByRole("status").filter({ hasText: fill(o.invitation.resent, { email }) }).waitFor();
      const resentLink = linkTo(await smtp.waitFor(email), "/api/auth/verify-email");
      expect(new URL(resentLink).searchParams.get("callbackURL")).toBe(invitationPath);

      await page.goto(resentLink);
      await page.waitForURL((url) => url.pathname === invitationPath);
      await headingIs(page, "Initech");
      await page.getByRole("button", { name: o.invitation.accept }).waitFor();
      await look(page, "invitation-verified");

      // Declining asks first, then the page says only that it was declined.
      await page.getByRole("button", { name: o.invitation.reject, exact: true }).click();
      const dialog = page.getByRole("dialog", { name: fill(o.invitation.rejectTitle, { organization: "Initech" }) });
      await dialog.waitFor();
      await look(page, "invitation-decline-dialog");
      await dialog.getByRole("button", { name: o.invitation.rejectConfirm }).click();
      await headingIs(page, o.invitation.rejectedHeading);
      await page.getByText(fill(o.invitation.rejected, { organization: "Initech" })).waitFor();
      await look(page, "invitation-declined");

      // Reopened, the answered invitation is closed, and nothing says "You're invited".
      await page.reload();
      await headingIs(page, o.invitation.closedHeading);
      await expect.poll(() => page.getByText(o.invitation.heading).count(), { timeout: 10_000 }).toBe(0);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "#14: the home page and the organization switcher list pending invitations, with accept and decline",
    async () => {
      const { owner, organizations } = await ownerOf("owner-umbrella@example.com", "Umbrella", "Hooli");
      const email = "uma-invited@example.com";
      await verifiedUser("Uma Undecided", email);
      for (const organization of organizations) {
        await owner.call("/organization/invite-member", { email, role: "member", organizationId: organization.id });
      }

      const page = await newPage();
      await page.goto("/sign-in");
      await signIn(page, email, PASSWORD, { open: false });
      const card = page.getByRole("region", { name: o.invitation.pendingHeading });
      await card.locator('li[data-invitation="Umbrella"]').waitFor();
      await card.locator('li[data-invitation="Hooli"]').waitFor();
      const trigger = page.getByRole("button", { name: `${o.switcher.label}:` });
      await trigger.getByText(fill(o.switcher.invitationCount, { count: "2" })).waitFor();
      await look(page, "home-invitations");

      // Declining from the home page asks, then says so; the invitation leaves the list and the count.
      await card.getByRole("button", { name: `${o.invitation.reject}: Hooli` }).click();
      const dialog = page.getByRole("dialog", { name: fill(o.invitation.rejectTitle, { organization: "Hooli" }) });
      await dialog.waitFor();
      await dialog.getByRole("button", { name: o.invitation.rejectConfirm }).click();
      await page.getByRole("status").filter({ hasText: fill(o.invitation.rejected, { organization: "Hooli" }) }).waitFor();
      await expect.poll(() => card.locator('li[data-invitation="Hooli"]').count(), { timeout: 10_000 }).toBe(0);
      await trigger.getByText(fill(o.switcher.invitationCount, { count: "1" })).waitFor();

      // The switcher shows the other one; accepting there joins and opens the organization, which says so.
      await trigger.click();
      const panelInvitation = page.locator(`#${await trigger.getAttribute("aria-controls")}`).locator('li[data-invitation="Umbrella"]');
      await panelInvitation.waitFor();
      await look(page, "switcher-invitations");
      // Escape closes the panel and puts focus back on its button.
      await page.keyboard.press("Escape");
      await panelInvitation.waitFor({ state: "hidden" });
      expect(await trigger.evaluate((element) => element === document.activeElement)).toBe(true);
      await trigger.click();
      await panelInvitation.getByRole("button", { name: `${o.invitation.accept}: Umbrella` }).click();
      await page.waitForURL((url) => url.pathname === "/organization");
      await headingIs(page, "Umbrella");
      await page.getByRole("status").filter({ hasText: fill(o.notices.joined, { name: "Umbrella" }) }).waitFor();
      await trigger.getByText("Umbrella").waitFor();
      await expect.poll(() => trigger.getByText(fill(o.switcher.invitationCount, { count: "1" })).count(), { timeout: 10_000 }).toBe(0);
      await page.goto("/");
      await headingIs(page, fill(en.home.heading, { name: "Uma Undecided" }));
      await expect.poll(() => page.getByRole("region", { name: o.invitation.pendingHeading }).count(), { timeout: 10_000 }).toBe(0);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "#14: in Russian, pending invitations on the home page, in the switcher and on the invitation page",
    async () => {
      const r = ru.organization;
      const { owner, organizations } = await ownerOf("owner-roga@example.com", "Roga");
      const email = "ulyana-invited@example.com";
      await verifiedUser("Ульяна", email);
      await owner.call("/organization/invite-member", { email, role: "admin", organizationId: organizations[0]!.id });
      const invitationLink = linkTo(await smtp.waitFor(email), "/invitation/");

      const page = await newPage();
      await page.addInitScript(() => window.localStorage.setItem("gatehouse.language", "ru"));
      await page.goto("/sign-in");
      await signIn(page, email, PASSWORD, { open: false, messages: ru });
      await page.getByRole("region", { name: r.invitation.pendingHeading }).locator('li[data-invitation="Roga"]').waitFor();
      await look(page, "home-invitations-ru");
      const trigger = page.getByRole("button", { name: `${r.switcher.label}:` });
      await trigger.click();
      await page.getByRole("button", { name: `${r.invitation.accept}: Roga` }).last().waitFor();
      await look(page, "switcher-invitations-ru");
      await page.keyboard.press("Escape");
      await page.goto(invitationLink);
      await headingIs(page, "Roga");
      await look(page, "invitation-ru");
      await page.getByRole("button", { name: r.invitation.reject, exact: true }).click();
      await page.getByRole("dialog", { name: fill(r.invitation.rejectTitle, { organization: "Roga" }) }).waitFor();
      await look(page, "invitation-decline-dialog-ru");
    },
    JOURNEY_TIMEOUT,
  );
});

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSmtp, type ReceivedMail, type TestSmtp } from "../server/test/helpers/smtp.js";
import { en } from "../web/src/i18n/en.js";
import { launchBrowser, pageOpener, screenshotBothSizes } from "./helpers/browser.js";
import { headingIs, signUpByApi } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";

/**
 * An organization's life through the web app, with invitations mailed to a real SMTP server: an owner
 * creates it, invites a second user, who opens the mailed link, signs in, accepts and is placed in a team;
 * the owner changes their role; the member leaves. Pages are photographed at desktop and phone sizes.
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

function linkTo(mail: ReceivedMail, path: string): string {
  const found = mail.links.find((l) => new URL(l).pathname.startsWith(path));
  if (!found) throw new Error(`no ${path} link in "${mail.subject}": ${mail.links.join(", ")}`);
  return found;
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.getByLabel(en.signIn.email).fill(email);
  await page.getByLabel(en.signIn.password, { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: en.signIn.submit }).click();
  await page.waitForURL((url) => url.pathname !== "/sign-in");
}

const memberRow = (page: Page, email: string) => page.locator(`li[data-member="${email}"]`);

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

describe("organization journeys", () => {
  it(
    "creates an organization, invites by mail, places the new member in a team, changes their role, and they leave",
    async () => {
      const owner = { name: "Olivia Owner", email: "olivia-org@example.com", password: PASSWORD };
      const invitee = { name: "Ivan Invitee", email: "ivan-org@example.com", password: PASSWORD };
      await signUpByApi(service.url, owner);
      await signUpByApi(service.url, invitee);
      // The invitee verifies the address (invitations are answered only by verified addresses).
      const verification = await smtp.waitFor(invitee.email);
      await fetch(linkTo(verification, "/api/auth/verify-email"), { redirect: "manual" });

      // The owner creates the organization from the header's switcher; the slug follows the name and is checked.
      const ownerPage = await newPage();
      await ownerPage.goto("/sign-in");
      await signIn(ownerPage, owner.email);
      await ownerPage.getByLabel(o.switcher.label).selectOption({ label: `+ ${o.switcher.create}` });
      await ownerPage.waitForURL((url) => url.pathname === "/organizations/new");
      await ownerPage.getByLabel(o.create.name).fill("Acme Labs");
      expect(await ownerPage.getByLabel(o.create.slug).inputValue()).toBe("acme-labs");
      await ownerPage.getByText(o.create.slugAvailable).waitFor();
      await screenshotBothSizes(ownerPage, "organization-new");
      await ownerPage.getByRole("button", { name: o.create.submit }).click();
      await ownerPage.waitForURL((url) => url.pathname === "/organization");
      await headingIs(ownerPage, "Acme Labs");

      // A team, and an invitation mailed to the second user.
      await ownerPage.getByLabel(o.teams.name).fill("Core");
      await ownerPage.getByRole("button", { name: o.teams.create }).click();
      await ownerPage.locator('li[data-team="Core"]').waitFor();
      await ownerPage.getByLabel(o.invitations.email).fill(invitee.email);
      await ownerPage.getByRole("button", { name: o.invitations.send }).click();
      await ownerPage.getByText(o.invitations.sent.replace("{{email}}", invitee.email)).waitFor();
      await screenshotBothSizes(ownerPage, "organization-owner");

      const mail = await smtp.waitFor(invitee.email);
      const invitationLink = linkTo(mail, "/invitation/");

      // The invitee opens the link signed out, signs in, comes back and accepts.
      const inviteePage = await newPage();
      await inviteePage.goto(invitationLink);
      await headingIs(inviteePage, o.invitation.heading);
      await screenshotBothSizes(inviteePage, "invitation-signed-out");
      await inviteePage.getByRole("link", { name: en.common.signIn }).click();
      await signIn(inviteePage, invitee.email);
      await inviteePage.waitForURL((url) => url.pathname.startsWith("/invitation/"));
      await headingIs(inviteePage, "Acme Labs");
      await screenshotBothSizes(inviteePage, "invitation");
      await inviteePage.getByRole("button", { name: o.invitation.accept }).click();
      await inviteePage.waitForURL((url) => url.pathname === "/organization");
      await headingIs(inviteePage, "Acme Labs");
      // A plain member sees no settings, no invitations and no controls to change others.
      expect(await inviteePage.getByRole("button", { name: o.invitations.send }).count()).toBe(0);
      expect(await inviteePage.getByRole("region", { name: o.settings.heading }).count()).toBe(0);

      // The owner places the new member in the team and makes them an admin.
      await ownerPage.reload();
      await memberRow(ownerPage, invitee.email).waitFor();
      await ownerPage.getByLabel(o.teams.addMemberTo.replace("{{team}}", "Core")).selectOption({ label: invitee.name });
      await ownerPage.locator('li[data-team="Core"]').getByText(o.teams.members.replace("{{names}}", invitee.name)).waitFor();
      await ownerPage.getByLabel(o.members.roleOf.replace("{{name}}", invitee.name)).selectOption("admin");
      await ownerPage.waitForFunction(
        () => document.querySelector<HTMLSelectElement>('li[data-member="ivan-org@example.com"] select')?.value === "admin",
      );
      await screenshotBothSizes(ownerPage, "organization-members");

      // Now an admin, the member sees the invitations; then leaves.
      await inviteePage.reload();
      await inviteePage.getByRole("button", { name: o.invitations.send }).waitFor();
      await screenshotBothSizes(inviteePage, "organization-admin");
      await memberRow(inviteePage, invitee.email).getByRole("button", { name: o.members.leave }).click();
      await inviteePage.waitForURL((url) => url.pathname === "/");

      await ownerPage.reload();
      await memberRow(ownerPage, owner.email).waitFor();
      expect(await memberRow(ownerPage, invitee.email).count()).toBe(0);
    },
    JOURNEY_TIMEOUT,
  );
});

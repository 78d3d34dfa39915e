import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en } from "../web/src/i18n/en.js";
import { signUpWithSession, type ApiSession } from "./helpers/api.js";
import { launchBrowser, pageOpener } from "./helpers/browser.js";
import { fill, headingIs, look, openOrganization, person, signIn } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";
import { authenticatorApp, freshCode } from "./helpers/totp.js";

/**
 * Issue #15 item 8 in Chromium (README "Organization policy and administrators"): an owner turns on two-step sign-in
 * for their organization once their own account has it; a member without it is told why the organization does not
 * open (organization page, home page, switcher) and led to the Security page, and gets in once enrolled. An
 * administrator sees a user's sign-in factors and resets them, after which the user signs in with the password
 * alone. Pages are photographed at 1280 and 390 px and checked with axe-core.
 */

const PASSWORD = "correct-horse-battery";
const JOURNEY_TIMEOUT = 120_000;
const p = en.organization.policy;
const f = en.admin.user.factors;

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


/** Turns on an authenticator app on the Security page the browser shows now (password, setup key, first code). */
async function enrolOnSecurityPage(page: Page, password: string): Promise<void> {
  await headingIs(page, en.security.heading);
  const card = page.getByRole("region", { name: en.security.twoFactor.heading });
  await card.getByRole("button", { name: en.security.twoFactor.setUpApp }).click();
  await card.getByLabel(en.security.password, { exact: true }).fill(password);
  await card.getByRole("button", { name: en.security.twoFactor.confirm }).click();
  const setupKey = (await card.locator("[data-secret]").getAttribute("data-secret")) ?? "";
  expect(setupKey).toMatch(/^[A-Z2-7]{32,}$/);
  await card.getByLabel(en.security.twoFactor.code).fill(await freshCode(authenticatorApp(setupKey), new Set()));
  await card.getByRole("button", { name: en.security.twoFactor.turnOn }).click();
  await card.getByText(en.security.twoFactor.enabled).waitFor();
  await card.getByRole("button", { name: en.security.backupCodes.done }).click();
}

/** An authenticator app enrolled over the API (enable with the password, confirm with a code). */
async function enrolByApi(session: ApiSession): Promise<void> {
  const { totpURI } = await session.call<{ totpURI: string }>("/two-factor/enable", { password: PASSWORD });
  const setupKey = new URL(totpURI).searchParams.get("secret")!;
  await session.call("/two-factor/verify-totp", { code: await freshCode(authenticatorApp(setupKey), new Set()) });
}

describe("an organization that requires two-step sign-in", () => {
  it(
    "is turned on by an owner only once they have it; a member without it is told why and led to enrol, then gets in",
    async () => {
      const owner = person("Olga Owner", PASSWORD, "-policy");
      const member = person("Max Member", PASSWORD, "-policy");
      const ownerApi = await signUpWithSession(service.url, owner);
      const memberApi = await signUpWithSession(service.url, member);
      const organization = await ownerApi.call<{ id: string; name: string }>("/organization/create", {
        name: "Vault Works",
        slug: "vault-works",
      });
      await service.gatehouse.api.addMember({ body: { userId: memberApi.userId, role: "member", organizationId: organization.id } });

      // The member's browser has the organization open before the policy exists.
      const memberPage = await newPage();
      await signIn(memberPage, member.email, member.password);
      await openOrganization(memberPage, organization);

      // The owner, without two-step sign-in, may not turn it on: the card says so and leads to Security.
      const ownerPage = await newPage();
      await signIn(ownerPage, owner.email, owner.password);
      await openOrganization(ownerPage, organization);
      const card = ownerPage.getByRole("region", { name: p.heading });
      await card.getByText(p.needOwn).waitFor();
      expect(await card.getByRole("button", { name: p.turnOn }).isDisabled()).toBe(true);
      await look(ownerPage, "organization-policy-needs-own");
      await card.getByRole("link", { name: p.securityLink }).click();
      await enrolOnSecurityPage(ownerPage, owner.password);

      // Now it can (enrolling replaced the session, which starts without an active organization).
      await openOrganization(ownerPage, organization);
      await card.getByRole("button", { name: p.turnOn }).click();
      await card.getByText(p.turnedOn).waitFor();
      await card.getByText(p.required, { exact: true }).waitFor();
      await look(ownerPage, "organization-policy-on");

      // The member's organization page no longer opens: why, and the way to Security.
      await memberPage.reload();
      await headingIs(memberPage, organization.name);
      const refusal = memberPage.getByRole("region", { name: fill(p.refusedTitle, { name: organization.name }) });
      await refusal.getByText(p.refusedText).waitFor();
      expect(await memberPage.getByRole("region", { name: en.organization.members.heading }).count()).toBe(0);
      await look(memberPage, "organization-two-factor-required");

      // The home page says it too, and the switcher marks it and says why it does not open.
      await memberPage.goto("/");
      await memberPage.getByRole("region", { name: fill(p.refusedTitle, { name: organization.name }) }).waitFor();
      await look(memberPage, "home-two-factor-required");
      const switcher = memberPage.getByRole("button", { name: new RegExp(`^${en.organization.switcher.label}`) });
      const options = memberPage.getByRole("list", { name: en.organization.switcher.organizationsHeading });
      const option = options.getByRole("button", { name: new RegExp(organization.name) });
      await switcher.click();
      await option.getByText(p.badge).waitFor();
      // It is the active one still: clear it first, then choose it again.
      await options.getByRole("button", { name: en.organization.switcher.none }).click();
      await switcher.click();
      await option.click();
      const said = memberPage.getByRole("alert").filter({ hasText: en.serverErrors.TWO_FACTOR_REQUIRED_BY_ORGANIZATION });
      await said.waitFor();
      await look(memberPage, "organization-switcher-two-factor-required");
      await said.getByRole("link", { name: p.refusedLink }).click();

      // Enrolled, the member gets in.
      await enrolOnSecurityPage(memberPage, member.password);
      await openOrganization(memberPage, organization);
      await memberPage.getByRole("region", { name: en.organization.members.heading }).waitFor();
      await expect.poll(() => memberPage.getByRole("region", { name: fill(p.refusedTitle, { name: organization.name }) }).count()).toBe(0);
    },
    JOURNEY_TIMEOUT,
  );
});

describe("an administrator and a user's sign-in factors", () => {
  it(
    "shows them (no secret), resets them after a confirmation, and the user then signs in with the password alone",
    async () => {
      const root = person("Ronja Root", PASSWORD, "-factors");
      const user = person("Uwe Lostphone", PASSWORD, "-factors");
      await signUpWithSession(service.url, root);
      const userApi = await signUpWithSession(service.url, user);
      await enrolByApi(userApi);
      const { users } = service.gatehouse.runtime.stores;
      const rootId = (await users.findUserByEmail(root.email))!.id;
      await users.updateUser(rootId, { role: "admin", updatedAt: new Date() });

      // Before: the password leads to the second step.
      const userPage = await newPage();
      await signIn(userPage, user.email, user.password, { wait: false });
      await userPage.waitForURL((url) => url.pathname === "/two-factor");

      const admin = await newPage();
      await signIn(admin, root.email, root.password);
      await admin.goto(`/admin/users/${userApi.userId}`);
      await headingIs(admin, user.name);
      const card = admin.getByRole("region", { name: f.heading });
      await card.getByText(f.app).waitFor();
      await card.getByText(f.on, { exact: true }).waitFor();
      await expect.poll(async () => (await card.textContent()) ?? "").toContain(f.backupCodes);
      const shown = (await card.textContent()) ?? "";
      expect(shown).toMatch(/10/);
      await look(admin, "admin-user-factors");

      // Reset, after the dialog.
      await card.getByRole("button", { name: f.reset }).click();
      const dialog = admin.getByRole("dialog", { name: fill(f.resetTitle, { name: user.name }) });
      await dialog.getByText(f.resetText).waitFor();
      await look(admin, "admin-user-factors-reset-dialog");
      await dialog.getByRole("button", { name: f.resetConfirm }).click();
      await admin.getByText(fill(f.didReset, { name: user.name })).waitFor();
      await card.getByText(f.off, { exact: true }).waitFor();
      expect(await card.getByRole("button", { name: f.reset }).isDisabled()).toBe(true);

      // The user signs in with the password alone.
      await userPage.context().clearCookies();
      await signIn(userPage, user.email, user.password);
      expect(new URL(userPage.url()).pathname).toBe("/");
      await headingIs(userPage, fill(en.home.heading, { name: user.name }));
    },
    JOURNEY_TIMEOUT,
  );
});

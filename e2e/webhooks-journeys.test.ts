import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configEndpointId } from "../server/src/config/webhook-options.js";
import { newWebhookSecret } from "../server/src/webhooks/secrets.js";
import { startReceiver, verifyStandardWebhook, type WebhookReceiver } from "../server/test/helpers/webhook-receiver.js";
import { en } from "../web/src/i18n/en.js";
import { launchBrowser, pageOpener, VIEWPORTS } from "./helpers/browser.js";
import { fill, headingIs, look, person, signIn, signUpByApi } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";

/**
 * Issue #17's webhooks in Chromium against the real service and a real receiver: an administrator adds an endpoint
 * for chosen events and copies its signing secret, shown once; the receiver checks each delivery's signature with
 * that secret; the endpoint's page lists the deliveries with their answers, one that failed is sent again with
 * "Resend"; the endpoint is turned off and deleted; the configuration file's endpoint is shown read-only. Pages
 * are photographed at 1280 and 390 px (e2e/artifacts/) and checked with axe-core.
 */

const w = en.admin.webhooks;
const ROOT = person("Wanda Webhook", "administrator-password-1", "-hooks");
const JOURNEY_TIMEOUT = 120_000;

let service: RunningService;
let browser: Browser;
let receiver: WebhookReceiver;
let fileReceiver: WebhookReceiver;
const fileSecret = newWebhookSecret();
const { newPage, closeAll } = pageOpener(
  () => browser,
  () => service.url,
);

beforeAll(async () => {
  [receiver, fileReceiver] = await Promise.all([startReceiver("/crm/hooks"), startReceiver("/config-hooks")]);
  [service, browser] = await Promise.all([
    startService({
      options: {
        webhooks: {
          // The receivers listen on 127.0.0.1.
          allowPrivateTargets: true,
          retrySchedule: [0.3, 0.3],
          endpoints: [{ url: fileReceiver.url, secret: fileSecret, events: ["user.banned"], description: "Security team's SIEM" }],
        },
      },
    }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await closeAll();
  await browser?.close();
  await service?.close();
  await receiver?.close();
  await fileReceiver?.close();
});

const endpointTable = (page: Page) => page.getByRole("table", { name: w.listLabel });
const deliveryRows = (page: Page) => page.getByRole("table", { name: w.deliveries.listLabel }).getByRole("rowgroup").nth(1).getByRole("row");

describe("webhooks (administrators)", () => {
  let admin: Page;

  beforeAll(async () => {
    await signUpByApi(service.url, ROOT);
    const { users } = service.gatehouse.runtime.stores;
    const root = await users.findUserByEmail(ROOT.email);
    await users.updateUser(root!.id, { role: "admin", updatedAt: new Date() });
    admin = await newPage();
    await signIn(admin, ROOT.email, ROOT.password);
  });

  it(
    "adds an endpoint for chosen events and shows its secret once; the receiver verifies each delivery with it",
    async () => {
      await admin.goto("/admin");
      await admin.getByRole("navigation", { name: en.admin.sections }).getByRole("link", { name: w.title }).click();
      await headingIs(admin, w.title);
      // The configuration file's endpoint is listed, marked as such.
      const fileRow = endpointTable(admin).getByRole("row").filter({ hasText: fileReceiver.url });
      await fileRow.getByText(w.fromFile).waitFor();

      await admin.getByRole("button", { name: w.add }).click();
      // A URL is needed, and at least one event once "Chosen events" is picked.
      await admin.getByRole("button", { name: w.create.submit, exact: true }).click();
      await admin.getByText(w.create.urlRequired).waitFor();
      await admin.getByLabel(w.create.url, { exact: true }).fill(receiver.url);
      await admin.getByLabel(w.create.descriptionLabel).fill("CRM");
      await admin.getByRole("radio", { name: w.create.chosenEvents }).check();
      await admin.getByRole("button", { name: w.create.submit, exact: true }).click();
      await admin.getByText(w.create.chooseOne).waitFor();
      const accounts = admin.getByRole("group", { name: en.activity.nouns.user, exact: true });
      await accounts.getByRole("checkbox", { name: w.create.wholeKind }).check();
      // A whole kind checks and locks its events.
      expect(await accounts.getByRole("checkbox", { name: en.activity.types.user.banned }).isDisabled()).toBe(true);
      await admin.getByRole("group", { name: en.activity.nouns.sign_in, exact: true }).getByRole("checkbox", { name: en.activity.types.sign_in.succeeded }).check();
      await look(admin, "webhooks-new-endpoint");
      await admin.getByRole("button", { name: w.create.submit, exact: true }).click();

      // The secret, once.
      const secretText = admin.getByLabel(w.secret.label, { exact: true });
      await secretText.waitFor();
      const secret = (await secretText.textContent())!.trim();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      await look(admin, "webhooks-secret");
      await admin.getByRole("button", { name: w.secret.done }).click();
      await expect(admin.getByText(secret).count()).resolves.toBe(0);
      const row = endpointTable(admin).getByRole("row").filter({ hasText: receiver.url });
      await row.getByText(`${fill(w.everyOfKind, { kind: en.activity.nouns.user })}, ${en.activity.types.sign_in.succeeded}`).waitFor();
      await row.getByText(w.on, { exact: true }).waitFor();
      await look(admin, "webhooks-list");
      await admin.reload();
      await headingIs(admin, w.title);
      await expect(admin.getByText(secret).count()).resolves.toBe(0);

      // A sign-up: user.created and sign_in.succeeded reach the receiver, signed with the secret shown.
      await signUpByApi(service.url, person("Grace Hopper", "cobol-compiler-1959", "-hooks"));
      await receiver.waitFor((r) => r.length >= 2);
      const types = receiver.received.map((message) => JSON.parse(message.body).type as string).sort();
      expect(types).toEqual(["sign_in.succeeded", "user.created"]);
      for (const message of receiver.received) expect(verifyStandardWebhook(secret, message)).toBe(true);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "lists the endpoint's deliveries with their answers, and sends a failed one again",
    async () => {
      await admin.goto("/admin/webhooks");
      await endpointTable(admin).getByRole("link", { name: receiver.url }).click();
      await headingIs(admin, receiver.url);
      await deliveryRows(admin).filter({ hasText: en.activity.types.user.created }).getByText(w.deliveries.delivered).waitFor();
      await deliveryRows(admin).first().getByText(fill(w.deliveries.httpStatus, { status: 200 })).waitFor();

      // The receiver fails: the next sign-up's deliveries fail three times (a try and two retries).
      receiver.answer = () => 500;
      const before = receiver.received.length;
      await signUpByApi(service.url, person("Alan Turing", "universal-machine-1936", "-hooks"));
      await receiver.waitFor((r) => r.length >= before + 6);
      await admin.getByRole("button", { name: w.deliveries.refresh }).click();
      await admin.getByLabel(w.deliveries.show).selectOption("failed");
      const failed = deliveryRows(admin).filter({ hasText: en.activity.types.user.created });
      await failed.getByText(fill(w.deliveries.httpStatus, { status: 500 })).waitFor();
      await failed.getByText(fill(w.deliveries.tries, { count: 3 })).waitFor();
      await look(admin, "webhook-deliveries-failed");

      receiver.answer = () => 200;
      await failed.getByRole("button", { name: new RegExp(`^${w.deliveries.resend}`) }).click();
      await admin.getByText(w.deliveries.resent).waitFor();
      await receiver.waitFor((r) => r.some((m) => m.status === 200 && JSON.parse(m.body).type === "user.created" && r.indexOf(m) >= before));
      await admin.getByLabel(w.deliveries.show).selectOption("delivered");
      await expect
        .poll(
          async () => {
            await admin.getByRole("button", { name: w.deliveries.refresh }).click();
            return deliveryRows(admin).filter({ hasText: en.activity.types.user.created }).count();
          },
          { timeout: 10_000 },
        )
        .toBe(2);
      await admin.getByLabel(w.deliveries.show).selectOption("");
      await look(admin, "webhook-deliveries");

      // Every cell fits a phone's width: nothing to scroll sideways.
      await admin.setViewportSize(VIEWPORTS.phone);
      try {
        expect(await admin.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      } finally {
        await admin.setViewportSize(VIEWPORTS.desktop);
      }
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "turns the endpoint off, then deletes it; the configuration file's endpoint is read-only",
    async () => {
      await admin.goto("/admin/webhooks");
      await endpointTable(admin).getByRole("link", { name: receiver.url }).click();
      await headingIs(admin, receiver.url);
      await admin.getByRole("button", { name: w.endpoint.turnOff }).click();
      await admin.getByText(w.endpoint.turnedOff).waitFor();
      await admin.getByRole("button", { name: w.endpoint.turnOn }).waitFor();
      const count = receiver.received.length;
      await signUpByApi(service.url, person("Ada Lovelace", "analytical-engine-1843", "-hooks"));
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(receiver.received.length).toBe(count);

      await admin.getByRole("button", { name: w.endpoint.delete }).click();
      const dialog = admin.getByRole("dialog", { name: w.endpoint.deleteQuestion });
      await dialog.getByText(fill(w.endpoint.deleteText, { url: receiver.url })).waitFor();
      await look(admin, "webhook-delete-dialog");
      await dialog.getByRole("button", { name: w.endpoint.delete }).click();
      await admin.waitForURL((url) => url.pathname === "/admin/webhooks");
      await admin.getByText(fill(w.deleted, { url: receiver.url })).waitFor();
      await expect(endpointTable(admin).getByRole("link", { name: receiver.url }).count()).resolves.toBe(0);

      // The file's endpoint: its settings say where it changes, and offer no button to change it.
      await endpointTable(admin).getByRole("link", { name: fileReceiver.url }).click();
      await headingIs(admin, fileReceiver.url);
      await admin.getByText(w.endpoint.fromFileNote).waitFor();
      for (const name of [w.endpoint.turnOff, w.endpoint.rotate, w.endpoint.delete]) {
        await expect(admin.getByRole("button", { name, exact: true }).count()).resolves.toBe(0);
      }
      expect(admin.url()).toContain(configEndpointId(fileReceiver.url));
      await look(admin, "webhook-from-file");
    },
    JOURNEY_TIMEOUT,
  );
});

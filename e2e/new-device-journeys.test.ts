import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uk as ukMail } from "../server/src/email/locales/uk.js";
import { startTestSmtp, type ReceivedMail, type TestSmtp } from "../server/test/helpers/smtp.js";
import { en } from "../web/src/i18n/en.js";
import { uk } from "../web/src/i18n/uk.js";
import { launchBrowser, pageOpener, screenshotBothSizes } from "./helpers/browser.js";
import { chooseLanguage, headingIs, person, signIn, signUp } from "./helpers/pages.js";
import { startService, type RunningService } from "./helpers/service.js";

/**
 * New-device mail (issue #17 point 5): a user whose language is Ukrainian signs in from a fresh browser; the mail
 * reaches the SMTP server in Ukrainian, naming that browser, its system and address; in the browser they always use,
 * its first link opens the account page, where they end the other session, and its second the Security page.
 */

const PASSWORD = "correct-horse-battery";
const JOURNEY_TIMEOUT = 90_000;
/** The fresh browser says it is Firefox on Windows, so the mail and the sessions list can tell it from the usual one. */
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";

let smtp: TestSmtp;
let service: RunningService;
let browser: Browser;
const { newPage, closeAll } = pageOpener(
  () => browser,
  () => service.url,
);

beforeAll(async () => {
  smtp = await startTestSmtp();
  // SMTP configured and newDeviceEmail left unset: the mail is on by default.
  [service, browser] = await Promise.all([startService({ smtpUrl: smtp.url }), launchBrowser()]);
});

afterAll(async () => {
  await closeAll();
  await browser?.close();
  await service?.close();
  await smtp?.close();
});

const isNewDevice = (mail: ReceivedMail) => mail.subject === ukMail.newDevice.subject.replace("{appName}", "Gatehouse");

describe("new-device mail", () => {
  it(
    "a Ukrainian-speaking user signs in from a fresh browser: the mail arrives in Ukrainian, and from it they end that session and open Security",
    async () => {
      const taras = person("Taras Shevchenko", PASSWORD, "-newdevice");

      // The usual browser: signs up (its own first sign-in mails nothing) and chooses Ukrainian, saved on the account.
      const usual = await newPage();
      await signUp(usual, taras);
      await chooseLanguage(usual, en, "uk");
      await expect.poll(async () => (await service.gatehouse.runtime.stores.users.findUserByEmail(taras.email))?.lang).toBe("uk");

      // A fresh browser context, in English: nothing of this user's in it.
      const fresh = await newPage({ userAgent: FIREFOX_WINDOWS });
      await signIn(fresh, taras.email, PASSWORD);
      await fresh.locator('html[lang="uk"]').waitFor(); // the app follows the account's language once signed in

      const mail = await smtp.waitFor(taras.email, isNewDevice);
      expect(mail.subject).toBe("Новий вхід до вашого облікового запису Gatehouse");
      expect(mail.text).toContain("Вітаємо, Taras Shevchenko!");
      expect(mail.text).toContain("Браузер: Firefox 128");
      expect(mail.text).toContain("Система: Windows");
      expect(mail.text).toContain("IP-адреса: 127.0.0.1");
      expect(mail.text).toMatch(/Коли: .+ \d{4} р\. о \d{2}:\d{2} UTC/);
      const sessionsLink = `${service.url}/account#sessions`;
      const securityLink = `${service.url}/account/security`;
      expect(mail.links).toEqual([sessionsLink, securityLink]);
      // Only that one: the sign-up's own sign-in and the usual browser mailed nothing.
      expect(smtp.received.filter((m) => m.to === taras.email && isNewDevice(m))).toHaveLength(1);

      // The mail as a mail client draws it, at desktop and phone widths.
      const reader = await newPage();
      await reader.setContent(mail.html);
      await reader.getByRole("link", { name: ukMail.newDevice.action }).waitFor();
      await screenshotBothSizes(reader, "new-device-mail");

      // In the usual browser, the first link: the account page's sessions; the fresh browser's session is ended there.
      await usual.goto(sessionsLink);
      const sessions = usual.getByRole("list", { name: uk.account.sessions.listLabel });
      await sessions.waitFor();
      const other = sessions.getByRole("listitem").filter({ hasText: "Firefox" });
      await expect.poll(() => other.count()).toBe(1);
      await expect.poll(() => sessions.getByRole("listitem").count()).toBe(2);
      await other.getByRole("button", { name: uk.account.sessions.revoke }).click();
      await expect.poll(() => sessions.getByRole("listitem").count(), { timeout: 10_000 }).toBe(1);
      await fresh.goto("/account");
      await fresh.waitForURL((url) => url.pathname === "/sign-in");

      // The second link: the Security page.
      await usual.goto(securityLink);
      await headingIs(usual, uk.security.heading);
      expect(new URL(usual.url()).pathname).toBe("/account/security");
      await screenshotBothSizes(usual, "new-device-security-page");
    },
    JOURNEY_TIMEOUT,
  );
});

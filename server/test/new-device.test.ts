import { request as httpRequest } from "node:http";
import { sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../src/config/index.js";
import { serializeCookie, signCookieValue, type CookieAttributes } from "../src/http/cookies.js";
import { newDeviceId, presentedDeviceId, setDeviceCookie } from "../src/new-device/device-cookie.js";
import { parseUserAgent } from "../src/new-device/user-agent.js";
import { totpCode } from "../src/two-factor/totp.js";
import { signUpAdmin } from "./helpers/admin.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail, type TestResponse } from "./helpers/http-client.js";
import { startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";
import { startTestSmtp, type ReceivedMail, type TestSmtp } from "./helpers/smtp.js";

/**
 * New-device mail (issue #17 point 5, README "New-device mail"), over real HTTP and a real SMTP server, on both
 * databases: the sign-up's own sign-in mails nothing, the same browser again nothing, another browser (or another
 * user on a shared one, a cleared cookie, a forged or tampered cookie, a cookie carried to another browser) mails
 * when, which browser and system, the IP and links on BASE_URL, in the user's language; the ways in that are not a
 * sign-in of the user mail nothing; the option turns it off; a failing mail server never fails the sign-in.
 */

const ORIGIN = "http://app.test";
const DEVICE_COOKIE = "better-auth.device";
const SUBJECT = "New sign-in to your Gatehouse account";

const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";
const CHROME_ANDROID =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.122 Mobile Safari/537.36";
const SAFARI_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";
const EDGE_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87";

/** A browser: a cookie jar, a user agent, the address it comes from (the proxy's X-Forwarded-For) and its language. */
class Browser extends TestClient {
  constructor(
    base: string,
    readonly userAgent: string,
    readonly ip: string,
    readonly language = "en-US,en;q=0.8",
  ) {
    super(base, ORIGIN);
  }

  override request<T = any>(method: string, path: string, opts: Parameters<TestClient["request"]>[2] = {}): Promise<TestResponse<T>> {
    const headers = { "user-agent": this.userAgent, "x-forwarded-for": this.ip, "accept-language": this.language };
    return super.request<T>(method, path, { ...opts, headers: { ...headers, ...opts.headers } });
  }

  signIn(email: string, password = PASSWORD) {
    return this.post("/sign-in/email", { email, password });
  }
}

/** The Set-Cookie line of the device cookie in an answer, or undefined. */
const deviceCookieLine = (res: TestResponse) => res.setCookies.find((line) => line.startsWith(`${DEVICE_COOKIE}=`));

const isNewDevice = (mail: ReceivedMail) => mail.subject === SUBJECT || mail.subject.startsWith("Neue Anmeldung");

describe("the user-agent reader (new-device/user-agent.ts)", () => {
  it("names the browser and system of common user agents, telling Chromium browsers apart", () => {
    const cases: [string, Partial<ReturnType<typeof parseUserAgent>>][] = [
      [FIREFOX_WINDOWS, { browser: "Firefox", browserVersion: "128", system: "Windows" }],
      [CHROME_ANDROID, { browser: "Chrome", browserVersion: "126", system: "Android", systemVersion: "14" }],
      [SAFARI_MAC, { browser: "Safari", browserVersion: "17", system: "macOS" }],
      [EDGE_WINDOWS, { browser: "Edge", browserVersion: "126", system: "Windows" }],
      [
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
        { browser: "Safari", browserVersion: "17", system: "iOS", systemVersion: "17" },
      ],
      [
        "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1",
        { browser: "Chrome", system: "iPadOS", systemVersion: "16" },
      ],
      [
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/111.0.0.0",
        { browser: "Opera", browserVersion: "111", system: "Linux" },
      ],
      [
        "Mozilla/5.0 (Linux; Android 13; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
        { browser: "Samsung Internet", system: "Android", systemVersion: "13" },
      ],
      [
        "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
        { browser: "Chrome", system: "ChromeOS" },
      ],
      [
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36",
        { browser: "Headless Chrome", system: "Linux" },
      ],
      ["curl/8.5.0", { browser: "curl", browserVersion: "8", system: null }],
      ["", { browser: null, browserVersion: null, system: null, systemVersion: null }],
      ["something else entirely", { browser: null, system: null }],
    ];
    for (const [ua, expected] of cases) expect(parseUserAgent(ua), ua).toMatchObject(expected);
  });

  it("reads a very long header in bounded time and cuts it", () => {
    const long = `Mozilla/5.0 (iPhone; ${"x ".repeat(50_000)}) Firefox/1`;
    expect(parseUserAgent(long)).toMatchObject({ system: null });
  });
});

describe("newDeviceEmail's configuration", () => {
  it("is unset by default; set to true in production it needs SMTP_URL", () => {
    expect(resolveConfig({ secret: TEST_SECRET }).newDeviceEmail.enabled).toBeUndefined();
    expect(() =>
      resolveConfig(
        {
          secret: TEST_SECRET,
          newDeviceEmail: { enabled: true },
          emailVerification: { enabled: false },
          emailAndPassword: { resetPassword: { enabled: false } },
          user: { changeEmail: { enabled: false } },
          magicLink: { enabled: false },
          emailOTP: { enabled: false },
        },
        { nodeEnv: "production" },
      ),
    ).toThrow(/new-device mail \(newDeviceEmail\.enabled\)/);
    expect(() => resolveConfig({ secret: TEST_SECRET, newDeviceEmail: { enabled: "yes" } as never })).toThrow(
      /newDeviceEmail\.enabled/,
    );
  });
});

describe("the device cookie (new-device/device-cookie.ts)", () => {
  it("is __Secure- prefixed and Secure behind an https BASE_URL, and reads back only with its own signature", () => {
    const config = resolveConfig({ secret: TEST_SECRET, baseURL: "https://auth.example.com" });
    const lines: string[] = [];
    const cookies = new Map<string, string>();
    const jar = {
      cookie: (name: string) => cookies.get(name),
      setCookie(name: string, value: string, attributes?: CookieAttributes) {
        lines.push(serializeCookie(name, value, attributes));
        cookies.set(name, value);
      },
    };
    const id = newDeviceId();
    setDeviceCookie(jar, config, id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^__Secure-better-auth\.device=/);
    expect(lines[0]).toMatch(/; Secure/);
    expect(lines[0]).toMatch(/; HttpOnly/);
    expect(lines[0]).toMatch(/; SameSite=Lax/);
    expect(lines[0]).toMatch(/; Max-Age=31536000/);
    expect(presentedDeviceId(jar, config)).toBe(id);
    // Another secret's signature does not hold.
    const other = resolveConfig({ secret: `${TEST_SECRET}-other`, baseURL: "https://auth.example.com" });
    expect(presentedDeviceId(jar, other)).toBeNull();
  });
});

describe.each(DIALECTS)("new-device mail on %s", (dialect) => {
  let smtp: TestSmtp;
  /** Mail through SMTP, the option unset (so on), addresses from X-Forwarded-For as behind a proxy. */
  let server: TestServer;
  /** The same, with newDeviceEmail.enabled false. */
  let off: TestServer;
  /** No mail server (the development outbox): off unless set; and one with it set to true. */
  let outbox: TestServer;
  let outboxOn: TestServer;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    const common = {
      baseURL: ORIGIN,
      email: { smtpUrl: smtp.url, from: "Gatehouse <auth@app.test>" },
      advanced: { ipAddress: { ipAddressHeaders: ["x-forwarded-for"] } },
      // The verification link of each sign-up is not what these tests are about.
      emailVerification: { sendOnSignUp: false },
    };
    [server, off, outbox, outboxOn] = await Promise.all([
      startTestServer(dialect, common),
      startTestServer(dialect, { ...common, newDeviceEmail: { enabled: false } }),
      startTestServer(dialect, { baseURL: ORIGIN }),
      startTestServer(dialect, { baseURL: ORIGIN, newDeviceEmail: { enabled: true } }),
    ]);
  });
  afterAll(async () => {
    await Promise.allSettled([server?.close(), off?.close(), outbox?.close(), outboxOn?.close()]);
    await smtp?.close();
  });

  const browser = (ua: string, ip: string, language?: string, on: TestServer = server) => new Browser(on.base, ua, ip, language);

  /** The new-device mails to `email` received so far (taken or not). */
  const newDeviceMails = (email: string) => smtp.received.filter((mail) => mail.to === email.toLowerCase() && isNewDevice(mail));

  /**
   * Lets any mail the sign-ins before it queued arrive: a password-reset mail asked for after them is waited for
   * (mail goes out in the order it was queued, and each is sent in the background right away), then a moment more.
   */
  async function settle(email: string, on: TestServer = server) {
    const asked = await new TestClient(on.base, ORIGIN).post("/request-password-reset", { email, redirectTo: "/reset" });
    expect(asked.status).toBe(200);
    await smtp.waitFor(email, (mail) => mail.subject === "Reset your password");
    await new Promise((resolve) => setTimeout(resolve, 150));
  }

  it("mails nothing for the sign-up's own sign-in nor the same browser again; another browser gets when, which browser and system, the IP and links on BASE_URL", async () => {
    const laptop = browser(FIREFOX_WINDOWS, "203.0.113.7");
    const signedUp = await laptop.post("/sign-up/email", { name: "Ada Lovelace", email: uniqueEmail("ada"), password: PASSWORD });
    expect(signedUp.status).toBe(200);
    const email: string = signedUp.body.user.email;
    // The device cookie: signed, HttpOnly, SameSite=Lax, for a year (not Secure: BASE_URL is http here).
    const line = deviceCookieLine(signedUp)!;
    expect(line).toBeDefined();
    expect(line).toMatch(/; Max-Age=31536000/);
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; SameSite=Lax/);
    expect(line).not.toMatch(/; Secure/);
    const laptopCookie = laptop.cookie(DEVICE_COOKIE)!;

    expect((await laptop.post("/sign-out", {})).status).toBe(200);
    expect(laptop.cookie(DEVICE_COOKIE)).toBe(laptopCookie); // signing out keeps the browser's id
    const again = await laptop.signIn(email);
    expect(again.status).toBe(200);
    expect(laptop.cookie(DEVICE_COOKIE)).toBe(laptopCookie); // renewed, same id
    expect(deviceCookieLine(again)).toBeDefined();

    // Another browser, its request with a forged Host: the links still point at BASE_URL.
    const phone = browser(CHROME_ANDROID, "198.51.100.23");
    const before = Date.now();
    const raw = await rawSignIn(server, { email, password: PASSWORD }, {
      host: "evil.test",
      "x-forwarded-host": "evil.test",
      "user-agent": CHROME_ANDROID,
      "x-forwarded-for": "198.51.100.23",
      origin: ORIGIN,
    });
    expect(raw.status).toBe(200);
    const phoneCookie = raw.setCookies.find((line) => line.startsWith(`${DEVICE_COOKIE}=`))!;
    phone.jar.set(DEVICE_COOKIE, phoneCookie.slice(DEVICE_COOKIE.length + 1).split(";")[0]!);
    const mail = await smtp.waitFor(email, isNewDevice);
    expect(mail.subject).toBe(SUBJECT);
    expect(mail.text).toContain(`Your account ${email} was just signed in to from a browser it had not been used with before.`);
    expect(mail.text).toContain("Browser: Chrome 126");
    expect(mail.text).toContain("System: Android 14");
    expect(mail.text).toContain("IP address: 198.51.100.23");
    const when = /When: (.+) UTC/.exec(mail.text)?.[1];
    expect(when).toBeDefined();
    // "Month D, YYYY at H:MM AM" in UTC: the minute of the sign-in (or the next, at a minute's turn).
    const stamp = new Date(`${when!.replace(" at ", " ")} UTC`).getTime();
    expect(stamp).toBeGreaterThanOrEqual(Math.floor(before / 60_000) * 60_000);
    expect(stamp).toBeLessThanOrEqual(Date.now());
    expect(mail.links).toEqual([`${ORIGIN}/account#sessions`, `${ORIGIN}/account/security`]);
    expect(mail.html).toContain(`href="${ORIGIN}/account#sessions"`);
    expect(mail.html).toContain("198.51.100.23");
    expect(mail.text).not.toMatch(/evil\.test/);

    // The phone again, with the cookie it got, and the laptop again: nothing more.
    expect((await phone.signIn(email)).status).toBe(200);
    expect((await phone.signIn(email)).status).toBe(200);
    expect((await laptop.signIn(email)).status).toBe(200);
    await settle(email);
    expect(newDeviceMails(email)).toHaveLength(1);
  });

  it("mails a user whose language is German in German, whatever the browser asks for", async () => {
    const home = browser(SAFARI_MAC, "192.0.2.10");
    const { email } = await signUp(home, { name: "Grete", lang: "de" });
    const office = browser(EDGE_WINDOWS, "192.0.2.99", "en-US,en;q=0.9");
    expect((await office.signIn(email)).status).toBe(200);
    const mail = await smtp.waitFor(email, isNewDevice);
    expect(mail.subject).toBe("Neue Anmeldung bei deinem Gatehouse-Konto");
    expect(mail.text).toContain("Hallo Grete,");
    expect(mail.text).toContain("Browser: Edge 126");
    expect(mail.text).toContain("System: Windows");
    expect(mail.text).toContain("IP-Adresse: 192.0.2.99");
    // The German long date: "3. Mai 2026 um 14:05 UTC".
    expect(mail.text).toMatch(/Wann: \d{1,2}\. \S+ \d{4} um \d{2}:\d{2} UTC/);
    expect(mail.text).toContain(`Sitzungen und Passwort prüfen: ${ORIGIN}/account#sessions`);
    expect(mail.html).toContain('<html lang="de">');
  });

  it("mails another user on a shared browser their own first time there, and only them", async () => {
    const shared = browser(FIREFOX_WINDOWS, "203.0.113.50");
    const first = await signUp(shared);
    const second = await signUp(browser(SAFARI_MAC, "203.0.113.51"));
    const sharedCookie = shared.cookie(DEVICE_COOKIE);

    expect((await shared.signIn(second.email)).status).toBe(200);
    expect(shared.cookie(DEVICE_COOKIE)).toBe(sharedCookie); // one browser, one id, whoever signs in
    const mail = await smtp.waitFor(second.email, isNewDevice);
    expect(mail.text).toContain("Browser: Firefox 128");
    // Each user's browser is theirs: the second signs in there again, the first comes back; nothing more.
    expect((await shared.signIn(second.email)).status).toBe(200);
    expect((await shared.signIn(first.email)).status).toBe(200);
    await settle(second.email);
    await settle(first.email);
    expect(newDeviceMails(second.email)).toHaveLength(1);
    expect(newDeviceMails(first.email)).toHaveLength(0);
  });

  it("takes a cleared, forged or tampered device cookie, or one carried to another browser, as a new browser and replaces it", async () => {
    const laptop = browser(FIREFOX_WINDOWS, "203.0.113.60");
    const { email } = await signUp(laptop);
    const original = laptop.cookie(DEVICE_COOKIE)!;
    const id = decodeURIComponent(original).split(".")[0]!;

    // Cleared: a new id, and a mail.
    laptop.jar.delete(DEVICE_COOKIE);
    expect((await laptop.signIn(email)).status).toBe(200);
    const renewed = laptop.cookie(DEVICE_COOKIE)!;
    expect(renewed).not.toBe(original);
    await smtp.waitFor(email, isNewDevice);

    // Tampered: the id changed under the old signature.
    const other = id.slice(0, -1) + (id.endsWith("a") ? "b" : "a");
    const signature = decodeURIComponent(original).split(".")[1]!;
    laptop.jar.set(DEVICE_COOKIE, encodeURIComponent(`${other}.${signature}`));
    expect((await laptop.signIn(email)).status).toBe(200);
    const afterTamper = decodeURIComponent(laptop.cookie(DEVICE_COOKIE)!).split(".")[0];
    expect(afterTamper).not.toBe(other);
    expect(afterTamper).not.toBe(id);
    await smtp.waitFor(email, isNewDevice);

    // Forged with the service secret itself (the key other cookies use): the device cookie's key is its own.
    laptop.jar.set(DEVICE_COOKIE, encodeURIComponent(signCookieValue(id, TEST_SECRET)));
    expect((await laptop.signIn(email)).status).toBe(200);
    expect(decodeURIComponent(laptop.cookie(DEVICE_COOKIE)!).split(".")[0]).not.toBe(id);
    await smtp.waitFor(email, isNewDevice);

    // The laptop's valid cookie, copied into another browser: the browser does not match, so it is new.
    const copy = browser(CHROME_ANDROID, "203.0.113.61");
    copy.jar.set(DEVICE_COOKIE, laptop.cookie(DEVICE_COOKIE)!);
    expect((await copy.signIn(email)).status).toBe(200);
    const carried = await smtp.waitFor(email, isNewDevice);
    expect(carried.text).toContain("Browser: Chrome 126");

    // A device cookie that is not even in the signed format.
    const junk = browser(SAFARI_MAC, "203.0.113.62");
    junk.jar.set(DEVICE_COOKIE, "nonsense");
    const res = await junk.signIn(email);
    expect(res.status).toBe(200);
    expect(decodeURIComponent(junk.cookie(DEVICE_COOKIE)!)).toMatch(/^[A-Za-z0-9]{32}\.[A-Za-z0-9+/]{43}=$/);
    await smtp.waitFor(email, isNewDevice);
  });

  /** A mailed sign-in link's token, asked for by `asker`. */
  async function magicLinkToken(asker: TestClient, email: string): Promise<string> {
    expect((await asker.post("/sign-in/magic-link", { email })).status).toBe(200);
    const link = await smtp.waitFor(email, (mail) => mail.subject === "Your sign-in link");
    return new URL(link.links.find((l) => l.includes("token="))!).searchParams.get("token")!;
  }

  it("mails after the other ways in too: a magic link opened in another browser, and a username sign-in", async () => {
    const laptop = browser(FIREFOX_WINDOWS, "203.0.113.70");
    const { email, user } = await signUp(laptop, { username: `user_${Date.now().toString(36)}` });
    const username = (await laptop.get("/get-session")).body.user.username as string;
    // A verified address: a link on an unverified account is its mailbox owner taking it over (the next test).
    await server.gatehouse.runtime.stores.users.updateUser(user.id, { emailVerified: true, updatedAt: new Date() });

    const token = await magicLinkToken(laptop, email);
    const phone = browser(CHROME_ANDROID, "203.0.113.71");
    const verified = await phone.get(`/magic-link/verify?token=${token}`);
    expect(verified.status).toBe(200);
    expect(deviceCookieLine(verified)).toBeDefined();
    const byLink = await smtp.waitFor(email, isNewDevice);
    expect(byLink.text).toContain("IP address: 203.0.113.71");

    const tablet = browser(SAFARI_MAC, "203.0.113.72");
    expect((await tablet.post("/sign-in/username", { username, password: PASSWORD })).status).toBe(200);
    const byUsername = await smtp.waitFor(email, isNewDevice);
    expect(byUsername.text).toContain("Browser: Safari 17");
    // The phone again, by password: its cookie is known now.
    expect((await phone.signIn(email)).status).toBe(200);
    await settle(email);
    expect(newDeviceMails(email)).toHaveLength(2);
  });

  it("forgets the browsers of an account its mailbox owner takes over: the owner's sign-in is the first, and mails nothing", async () => {
    const squatter = browser(FIREFOX_WINDOWS, "203.0.113.75");
    const { email, user } = await signUp(squatter); // unverified: whoever typed the address
    const token = await magicLinkToken(new Browser(server.base, SAFARI_MAC, "203.0.113.76"), email);
    const owner = browser(CHROME_ANDROID, "203.0.113.77");
    expect((await owner.get(`/magic-link/verify?token=${token}`)).status).toBe(200);
    await settle(email);
    expect(newDeviceMails(email)).toHaveLength(0);
    const db = server.gatehouse.database.db as any;
    const rows = await db.selectFrom("signInDevice").select(["browser", "system"]).where("userId", "=", user.id).execute();
    expect(rows).toEqual([{ browser: "Chrome", system: "Android" }]);
  });

  /**
   * Makes the COMMIT of any transaction that records a browser of `userId` fail, as a constraint checked at commit
   * does (after every statement of the sign-in, the device check's included): on PostgreSQL a deferred constraint
   * trigger that raises, on SQLite a deferred foreign key left dangling. Answers how to undo it.
   */
  async function refuseCommitsRecordingBrowserOf(userId: string): Promise<() => Promise<void>> {
    const db = server.gatehouse.database.db as Kysely<any>;
    const user = sql.lit(userId);
    if (dialect === "postgres") {
      await sql`create function "testRefuseCommit"() returns trigger language plpgsql as $$ begin raise exception 'commit refused by the test'; end $$`.execute(db);
      await sql`create constraint trigger "testRefuseCommit" after insert on "signInDevice" deferrable initially deferred
        for each row when (new."userId" = ${user}) execute function "testRefuseCommit"()`.execute(db);
      return async () => {
        await sql`drop trigger "testRefuseCommit" on "signInDevice"`.execute(db);
        await sql`drop function "testRefuseCommit"()`.execute(db);
      };
    }
    await sql`create table "testNothing" ("id" text primary key)`.execute(db);
    await sql`create table "testRefuseCommit" ("userId" text references "testNothing" ("id") deferrable initially deferred)`.execute(db);
    await sql`create trigger "testRefuseCommit" after insert on "signInDevice" when new."userId" = ${user}
      begin insert into "testRefuseCommit" values (new."userId"); end`.execute(db);
    return async () => {
      await sql`drop trigger "testRefuseCommit"`.execute(db);
      await sql`drop table "testRefuseCommit"`.execute(db);
      await sql`drop table "testNothing"`.execute(db);
    };
  }

  it("mails only once the sign-in is committed: a magic link whose transaction fails after the device check mails nothing", async () => {
    const laptop = browser(FIREFOX_WINDOWS, "203.0.113.120");
    const { email, user } = await signUp(laptop);
    await server.gatehouse.runtime.stores.users.updateUser(user.id, { emailVerified: true, updatedAt: new Date() });
    const db = server.gatehouse.database.db as Kysely<any>;
    const browsers = () => db.selectFrom("signInDevice").select("browser").where("userId", "=", user.id).orderBy("createdAt").execute();
    const phone = browser(CHROME_ANDROID, "203.0.113.121");

    const undo = await refuseCommitsRecordingBrowserOf(user.id);
    try {
      const token = await magicLinkToken(laptop, email);
      const failed = await phone.get(`/magic-link/verify?token=${token}`);
      expect(failed.status).toBeGreaterThanOrEqual(400);
      expect((await phone.get("/get-session")).body).toBeNull();
      // The commit failed on the phone's row the device check wrote: that row went with the transaction.
      expect(await browsers()).toEqual([{ browser: "Firefox" }]);
    } finally {
      await undo();
    }
    await settle(email);
    expect(newDeviceMails(email)).toHaveLength(0);

    // The same sign-in, committed: the mail leaves.
    const token = await magicLinkToken(laptop, email);
    expect((await phone.get(`/magic-link/verify?token=${token}`)).status).toBe(200);
    const mail = await smtp.waitFor(email, isNewDevice);
    expect(mail.text).toContain("IP address: 203.0.113.121");
    expect(await browsers()).toEqual([{ browser: "Firefox" }, { browser: "Chrome" }]);
    await settle(email);
    expect(newDeviceMails(email)).toHaveLength(1);
  });

  it("with a second factor, mails once the second step is passed, not at the password", async () => {
    const laptop = browser(FIREFOX_WINDOWS, "203.0.113.85");
    const { email } = await signUp(laptop);
    const enable = await laptop.post("/two-factor/enable", { password: PASSWORD });
    expect(enable.status, enable.text).toBe(200);
    const secret = new URL(enable.body.totpURI).searchParams.get("secret")!;
    const confirmed = await laptop.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 6, period: 30 }, new Date()) });
    expect(confirmed.status, confirmed.text).toBe(200);

    const phone = browser(CHROME_ANDROID, "203.0.113.86");
    const first = await phone.signIn(email);
    expect(first.body).toMatchObject({ twoFactorRedirect: true });
    expect(deviceCookieLine(first)).toBeUndefined();
    await settle(email);
    expect(newDeviceMails(email)).toHaveLength(0);

    const second = await phone.post("/two-factor/verify-backup-code", { code: enable.body.backupCodes[0] });
    expect(second.status, second.text).toBe(200);
    expect(deviceCookieLine(second)).toBeDefined();
    const mail = await smtp.waitFor(email, isNewDevice);
    expect(mail.text).toContain("IP address: 203.0.113.86");
  });

  it("mails nothing for what is not a sign-in of the user: an administrator's impersonation, a password change's new session", async () => {
    const own = browser(FIREFOX_WINDOWS, "203.0.113.80");
    const target = await signUp(own);
    const adminBrowser = browser(SAFARI_MAC, "203.0.113.81");
    await signUpAdmin(server, adminBrowser);
    const impersonated = await adminBrowser.post("/admin/impersonate-user", { userId: target.user.id });
    expect(impersonated.status).toBe(200);
    expect(deviceCookieLine(impersonated)).toBeUndefined();

    const changed = await own.post("/change-password", { currentPassword: PASSWORD, newPassword: "another long passphrase", revokeOtherSessions: true });
    expect(changed.status).toBe(200);
    expect(deviceCookieLine(changed)).toBeUndefined();
    await settle(target.email);
    expect(newDeviceMails(target.email)).toHaveLength(0);
  });

  it("never fails a sign-in on the mail server's account: a refused mail is a log line", async () => {
    const { email } = await signUp(browser(FIREFOX_WINDOWS, "203.0.113.90"));
    const phone = browser(CHROME_ANDROID, "203.0.113.91");
    smtp.refuse(true);
    try {
      const res = await phone.signIn(email);
      expect(res.status).toBe(200);
      expect(res.body.user.email).toBe(email);
    } finally {
      await new Promise((resolve) => setTimeout(resolve, 300));
      smtp.refuse(false);
    }
    // The browser was recorded all the same: it does not mail again.
    expect((await phone.signIn(email)).status).toBe(200);
    await settle(email);
    expect(newDeviceMails(email)).toHaveLength(0);
  });

  it("keeps the user's browsers in the database with only a per-user digest of the id, and removes them with the user", async () => {
    const laptop = browser(FIREFOX_WINDOWS, "203.0.113.95");
    const { email, user } = await signUp(laptop);
    await browser(CHROME_ANDROID, "203.0.113.96").signIn(email);
    await smtp.waitFor(email, isNewDevice);
    const db = server.gatehouse.database.db as any;
    const rows = await db.selectFrom("signInDevice").selectAll().where("userId", "=", user.id).orderBy("createdAt").execute();
    expect(rows.map((row: any) => [row.browser, row.system])).toEqual([
      ["Firefox", "Windows"],
      ["Chrome", "Android"],
    ]);
    const id = decodeURIComponent(laptop.cookie(DEVICE_COOKIE)!).split(".")[0]!;
    for (const row of rows) {
      expect(row.deviceKey).toMatch(/^[0-9a-f]{64}$/);
      expect(row.deviceKey).not.toContain(id);
    }
    await server.gatehouse.runtime.stores.users.deleteUser(user.id);
    expect(await db.selectFrom("signInDevice").selectAll().where("userId", "=", user.id).execute()).toEqual([]);
  });

  it("with newDeviceEmail.enabled false: no device cookie, no mail", async () => {
    const first = new Browser(off.base, FIREFOX_WINDOWS, "203.0.113.100");
    const { email } = await signUp(first);
    expect(first.cookie(DEVICE_COOKIE)).toBeUndefined();
    const other = new Browser(off.base, CHROME_ANDROID, "203.0.113.101");
    const res = await other.signIn(email);
    expect(res.status).toBe(200);
    expect(deviceCookieLine(res)).toBeUndefined();
    await settle(email, off);
    expect(newDeviceMails(email)).toHaveLength(0);
  });

  it("with the development outbox: off unless set; set to true, the mail goes to the outbox", async () => {
    const quiet = new Browser(outbox.base, FIREFOX_WINDOWS, "203.0.113.110");
    const { email } = await signUp(quiet);
    expect(quiet.cookie(DEVICE_COOKIE)).toBeUndefined();
    expect((await new Browser(outbox.base, CHROME_ANDROID, "203.0.113.111").signIn(email)).status).toBe(200);

    const on = new Browser(outboxOn.base, FIREFOX_WINDOWS, "203.0.113.112");
    const signed = await signUp(on);
    expect(on.cookie(DEVICE_COOKIE)).toBeDefined();
    expect((await new Browser(outboxOn.base, CHROME_ANDROID, "203.0.113.113").signIn(signed.email)).status).toBe(200);
    await expect
      .poll(() => outboxOn.gatehouse.runtime.mailer.outbox!.filter((m) => m.to === signed.email && m.kind === "newDevice").length)
      .toBe(1);
    expect(outbox.gatehouse.runtime.mailer.outbox!.filter((m) => m.kind === "newDevice")).toEqual([]);
  });
});

/** POST /sign-in/email over node:http, so that the Host header is the caller's (fetch does not let a caller set it). */
function rawSignIn(server: TestServer, body: unknown, headers: Record<string, string>): Promise<{ status: number; setCookies: string[] }> {
  const target = new URL(`${server.base}/sign-in/email`);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname: target.hostname, port: target.port, path: target.pathname, method: "POST", headers: { "content-type": "application/json", ...headers } },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, setCookies: res.headers["set-cookie"] ?? [] }));
      },
    );
    req.on("error", reject);
    req.end(text);
  });
}

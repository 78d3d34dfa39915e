import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpCode } from "../src/two-factor/totp.js";
import { manualClock } from "./helpers/clock.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/**
 * Issue #15 (the web app's security page): GET /two-factor/get-factors answers what the signed-in user holds as
 * second factors (never a secret), and POST /two-factor/forget-trusted-devices makes one trusted browser, or every
 * one, meet the second step again. Through the real HTTP API on SQLite and PostgreSQL.
 */
const PARAMS = { digits: 6, period: 30 };
const STEP = 30_000;
const TRUST = "better-auth.trust_device";
const PENDING = "better-auth.two_factor";

/** A client that says which browser it is (a trusted device records it). */
class Browser extends TestClient {
  constructor(
    base: string,
    readonly userAgent: string,
  ) {
    super(base);
  }

  override request<T = any>(method: string, path: string, opts: Parameters<TestClient["request"]>[2] = {}) {
    return super.request<T>(method, path, { ...opts, headers: { "user-agent": this.userAgent, ...opts.headers } });
  }
}

describe.each(DIALECTS)("own second factors on %s", (dialect) => {
  let server: TestServer;
  const clock = manualClock();

  beforeAll(async () => {
    server = await startTestServer(dialect, {}, { now: clock.now });
  });
  afterAll(async () => {
    await server?.close();
  });

  const client = (userAgent = "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0") => new Browser(server.base, userAgent);

  /** A user with a confirmed authenticator; the client holds their session. */
  async function enrolled() {
    const c = client();
    const { email } = await signUp(c);
    const enable = await c.post("/two-factor/enable", { password: PASSWORD });
    expect(enable.status, enable.text).toBe(200);
    const secret = new URL(enable.body.totpURI).searchParams.get("secret")!;
    const confirmed = await c.post("/two-factor/verify-totp", { code: totpCode(secret, PARAMS, clock.now()) });
    expect(confirmed.status, confirmed.text).toBe(200);
    clock.advance(STEP);
    return { c, email, secret };
  }

  /** Signs in on a new browser through the second step, trusting it; answers that browser's client. */
  async function trustedBrowser(email: string, secret: string, userAgent: string) {
    const browser = client(userAgent);
    const first = await browser.post("/sign-in/email", { email, password: PASSWORD });
    expect(first.body.twoFactorRedirect).toBe(true);
    const verified = await browser.post("/two-factor/verify-totp", { code: totpCode(secret, PARAMS, clock.now()), trustDevice: true });
    expect(verified.status, verified.text).toBe(200);
    expect(browser.cookie(TRUST)).toBeTruthy();
    clock.advance(STEP);
    return browser;
  }

  it("answers 401 without a session, and to a pending second step", async () => {
    expect((await client().get("/two-factor/get-factors")).status).toBe(401);
    expect((await client().post("/two-factor/forget-trusted-devices", {})).status).toBe(401);
    const { email } = await enrolled();
    const pending = client();
    await pending.post("/sign-in/email", { email, password: PASSWORD });
    expect(pending.cookie(PENDING)).toBeTruthy();
    expect((await pending.get("/two-factor/get-factors")).status).toBe(401);
    expect((await pending.post("/two-factor/forget-trusted-devices", {})).status).toBe(401);
  });

  it("says a user without factors has none, and an enrolled one has an authenticator, ten backup codes and no trusted browser", async () => {
    const fresh = client();
    await signUp(fresh);
    expect((await fresh.get("/two-factor/get-factors")).body).toEqual({
      twoFactorEnabled: false,
      totp: null,
      emailCode: null,
      backupCodes: { remaining: 0 },
      trustedDevices: [],
    });
    // An authenticator waiting for its first code is no factor yet.
    await fresh.post("/two-factor/enable", { password: PASSWORD });
    expect((await fresh.get("/two-factor/get-factors")).body.totp).toBeNull();

    const { c, secret } = await enrolled();
    const factors = await c.get("/two-factor/get-factors");
    expect(factors.status).toBe(200);
    expect(factors.body).toMatchObject({ twoFactorEnabled: true, emailCode: null, backupCodes: { remaining: 10 }, trustedDevices: [] });
    expect(Date.parse(factors.body.totp.enabledAt)).not.toBeNaN();
    // Metadata only: nothing of the secret anywhere in the answer.
    expect(factors.text).not.toContain(secret);
  });

  it("lists the trusted browsers (this one marked), forgets one, then every one; a forgotten browser meets the second step again", async () => {
    const { email, secret } = await enrolled();
    const laptop = await trustedBrowser(email, secret, "Mozilla/5.0 (Macintosh) Firefox/141.0");
    const phone = await trustedBrowser(email, secret, "Mozilla/5.0 (iPhone) Safari/605.1");

    const listed = (await laptop.get("/two-factor/get-factors")).body.trustedDevices as { id: string; userAgent: string; current: boolean }[];
    expect(listed).toHaveLength(2);
    expect(listed.find((device) => device.current)?.userAgent).toContain("Firefox");
    expect(listed.filter((device) => device.current)).toHaveLength(1);
    const phoneId = listed.find((device) => !device.current)!.id;

    // Another user's id removes nothing.
    const stranger = await enrolled();
    expect((await stranger.c.post("/two-factor/forget-trusted-devices", { id: phoneId })).body).toEqual({ status: true, removed: 0 });
    expect((await laptop.post("/two-factor/forget-trusted-devices", { id: "" })).status).toBe(400);

    // The phone is forgotten from the laptop: its next sign-in meets the second step; the laptop's does not.
    expect((await laptop.post("/two-factor/forget-trusted-devices", { id: phoneId })).body).toEqual({ status: true, removed: 1 });
    expect((await phone.post("/sign-in/email", { email, password: PASSWORD })).body.twoFactorRedirect).toBe(true);
    const again = await laptop.post("/sign-in/email", { email, password: PASSWORD });
    expect(again.body.twoFactorRedirect).toBeUndefined();
    expect(again.body.token).toEqual(expect.any(String));

    // Every one: the laptop's own cookie goes with it.
    const all = await laptop.post("/two-factor/forget-trusted-devices", {});
    expect(all.body).toEqual({ status: true, removed: 1 });
    expect(all.headers.getSetCookie().some((line) => line.startsWith(`${TRUST}=;`))).toBe(true);
    expect((await laptop.get("/two-factor/get-factors")).body.trustedDevices).toEqual([]);
    expect((await laptop.post("/sign-in/email", { email, password: PASSWORD })).body.twoFactorRedirect).toBe(true);
  });
});

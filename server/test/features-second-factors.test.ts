import { describe, expect, it } from "vitest";
import { DIALECTS } from "./helpers/databases.js";
import { TestClient } from "./helpers/http-client.js";
import { startTestServer } from "./helpers/server.js";

/**
 * Issue #15: GET /features says which ways in and factors are on, so the web app shows only those (the sign-in
 * page's passkey, link and code buttons; the security page's cards).
 */
describe.each(DIALECTS)("GET /features, second factors and passwordless sign-in, on %s", (dialect) => {
  it("says each of twoFactor, passkey, magicLink and emailOTP is on by default, and off when turned off", async () => {
    const on = await startTestServer(dialect);
    const off = await startTestServer(dialect, {
      twoFactor: { enabled: false },
      passkey: { enabled: false },
      magicLink: { enabled: false },
      emailOTP: { enabled: false },
    });
    try {
      const defaults = (await new TestClient(on.base).get("/features")).body;
      expect(defaults.twoFactor).toEqual({ enabled: true });
      expect(defaults.passkey).toEqual({ enabled: true });
      expect(defaults.magicLink.enabled).toBe(true);
      expect(defaults.emailOTP.enabled).toBe(true);
      const turnedOff = (await new TestClient(off.base).get("/features")).body;
      expect(turnedOff.twoFactor).toEqual({ enabled: false });
      expect(turnedOff.passkey).toEqual({ enabled: false });
      expect(turnedOff.magicLink.enabled).toBe(false);
      expect(turnedOff.emailOTP.enabled).toBe(false);
    } finally {
      await Promise.all([on.close(), off.close()]);
    }
  });
});

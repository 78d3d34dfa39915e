import { URI, type TOTP } from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "./helpers/clock.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { SoftAuthenticator } from "./helpers/soft-authenticator.js";

/**
 * #15 items 4 and 5: a passkey sign-in whose assertion carries user verification (a PIN or biometric) counts as
 * both factors; without it, a user with a second factor meets the second step, as on every other way in.
 */
const SESSION_COOKIE = "better-auth.session_token";
const PENDING_COOKIE = "better-auth.two_factor";

describe.each(DIALECTS)("passkeys and the second step on %s", (dialect) => {
  let server: TestServer;
  let origin: string;
  const clock = manualClock();

  beforeAll(async () => {
    server = await startTestServer(dialect, {}, { now: clock.now });
    origin = new URL(server.url).origin;
  });
  afterAll(async () => server?.close());
  afterEach(() => clock.reset());

  const client = () => new TestClient(server.base);
  /** The authenticator app's current code, on the server's clock. */
  const codeOf = (totp: TOTP) => totp.generate({ timestamp: clock.now().getTime() });

  async function registerPasskey(c: TestClient, authenticator: SoftAuthenticator) {
    const options = await c.get("/passkey/generate-register-options");
    const res = await c.post("/passkey/verify-registration", { response: authenticator.createCredential(options.body) });
    expect(res.status).toBe(200);
    return res.body as { id: string; credentialID: string };
  }

  async function signInWithPasskey(authenticator: SoftAuthenticator, userVerified: boolean) {
    const c = client();
    const options = await c.get("/passkey/generate-authenticate-options");
    const res = await c.post("/passkey/verify-authentication", { response: authenticator.getAssertion(options.body, { userVerified }) });
    return { c, res };
  }

  /** A user with a passkey and a confirmed authenticator app (TOTP). */
  async function userWithTotp() {
    const c = client();
    const { user } = await signUp(c);
    const authenticator = new SoftAuthenticator(origin);
    const passkey = await registerPasskey(c, authenticator);
    const enabled = await c.post("/two-factor/enable", { password: PASSWORD });
    expect(enabled.status).toBe(200);
    const totp = URI.parse(enabled.body.totpURI) as TOTP;
    expect((await c.post("/two-factor/verify-totp", { code: codeOf(totp) })).status).toBe(200);
    return { c, user, authenticator, passkey, totp };
  }

  it("with user verification, a passkey is both factors: a session, no second step", async () => {
    const { user, authenticator } = await userWithTotp();
    const { c, res } = await signInWithPasskey(authenticator, true);
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
    expect(c.cookie(SESSION_COOKIE)).toBeDefined();
    expect(c.cookie(PENDING_COOKIE)).toBeUndefined();
  });

  it("without user verification, a user with a second factor meets the second step, and then holds a passkey session", async () => {
    const { c: first, user, authenticator, totp } = await userWithTotp();
    const { c, res } = await signInWithPasskey(authenticator, false);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
    expect(c.cookie(SESSION_COOKIE)).toBeUndefined();
    expect(c.cookie(PENDING_COOKIE)).toBeDefined();
    // The pending step is not a session.
    expect((await c.get("/passkey/list-user-passkeys")).status).toBe(401);

    clock.advance(30_000); // the enrolment's code is spent for its window
    const done = await c.post("/two-factor/verify-totp", { code: codeOf(totp) });
    expect(done.status).toBe(200);
    expect(c.cookie(SESSION_COOKIE)).toBeDefined();
    expect((await c.get("/get-session")).body.user.id).toBe(user.id);

    // That session signed in with a passkey: it removes a passkey another session registered, without the password.
    const other = await registerPasskey(first, new SoftAuthenticator(origin));
    const deleted = await c.post("/passkey/delete-passkey", { id: other.id });
    expect(deleted.status).toBe(200);
  });
});

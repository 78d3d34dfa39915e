import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../src/logger.js";
import { totpCode } from "../src/two-factor/totp.js";
import { signUpAdmin } from "./helpers/admin.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient } from "./helpers/http-client.js";
import { fastHasher } from "./helpers/organization.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { startTestSmtp, type TestSmtp } from "./helpers/smtp.js";
import { SoftAuthenticator } from "./helpers/soft-authenticator.js";

/**
 * Issue #15 item 8, the administrators' half (README "Organization policy and administrators"): GET
 * /admin/list-user-factors shows a user's factors (kinds, dates, counts, passkeys by name; never a secret) and POST
 * /admin/reset-user-factors removes them, both behind the `factors` permission and both logged with the
 * administrator's id. Through the HTTP API with a real SMTP catcher and a software authenticator, on SQLite and
 * PostgreSQL.
 */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PARAMS = { digits: 6, period: 30 };
const isCodeMail = (mail: { text: string }) => /^\s*\d{6}\s*$/m.test(mail.text);

describe.each(DIALECTS)("a user's factors, for administrators, on %s", (dialect) => {
  let server: TestServer;
  let smtp: TestSmtp;
  const logLines: Record<string, unknown>[] = [];
  const logs = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) logLines.push(JSON.parse(line));
      done();
    },
  });

  beforeAll(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer(
      dialect,
      { email: { smtpUrl: smtp.url }, emailVerification: { sendOnSignUp: false } },
      { hasher: fastHasher(), logger: createLogger("info", logs) },
    );
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const client = () => new TestClient(server.base);
  const db = () => server.gatehouse.database.db as any;

  async function administrator() {
    const c = client();
    const { user } = await signUpAdmin(server, c);
    return { c, id: user.id };
  }

  /**
   * A user with every kind of factor: a passkey ("Laptop"), an authenticator app, the email code (proven over SMTP),
   * one backup code used (so nine left) in a sign-in that trusted the browser. Answers what must never show.
   */
  async function fullyEquipped() {
    const c = client();
    const { email, user } = await signUp(c);
    const authenticator = new SoftAuthenticator(new URL(server.url).origin);
    const options = await c.get("/passkey/generate-register-options");
    const registered = await c.post("/passkey/verify-registration", { response: authenticator.createCredential(options.body), name: "Laptop" });
    expect(registered.status, registered.text).toBe(200);

    const enable = await c.post("/two-factor/enable", { password: PASSWORD });
    expect(enable.status, enable.text).toBe(200);
    const secret = new URL(enable.body.totpURI).searchParams.get("secret")!;
    const backupCodes = enable.body.backupCodes as string[];
    const confirmed = await c.post("/two-factor/verify-totp", { code: totpCode(secret, PARAMS, new Date()) });
    expect(confirmed.status, confirmed.text).toBe(200);

    expect((await c.post("/two-factor/enable", { password: PASSWORD, method: "otp" })).status).toBe(200);
    expect((await c.post("/two-factor/send-otp")).status).toBe(200);
    const mail = await smtp.waitFor(email, isCodeMail);
    const mailed = /^\s*(\d{6})\s*$/m.exec(mail.text)![1]!;
    const proven = await c.post("/two-factor/verify-otp", { code: mailed });
    expect(proven.status, proven.text).toBe(200);

    // A new browser: password, then a backup code, trusting the browser.
    const browser = client();
    const first = await browser.post("/sign-in/email", { email, password: PASSWORD });
    expect(first.body).toMatchObject({ twoFactorRedirect: true });
    const second = await browser.post("/two-factor/verify-backup-code", { code: backupCodes[0], trustDevice: true });
    expect(second.status, second.text).toBe(200);

    const row = await db().selectFrom("twoFactor").selectAll().where("userId", "=", user.id).executeTakeFirst();
    const passkey = await db().selectFrom("passkey").selectAll().where("userId", "=", user.id).executeTakeFirst();
    const hashes = await db().selectFrom("twoFactorBackupCode").select("codeHash").where("userId", "=", user.id).execute();
    const secrets = [
      secret,
      row.secret as string,
      ...backupCodes,
      ...backupCodes.map((code) => code.replace("-", "")),
      ...hashes.map((h: { codeHash: string }) => h.codeHash),
      passkey.publicKey as string,
      passkey.credentialID as string,
      mailed,
    ];
    return { c, email, userId: user.id as string, authenticator, secrets };
  }

  it("are shown to an administrator: kinds, dates and counts, passkeys by name, never a secret; the view is logged", async () => {
    const admin = await administrator();
    const { userId, secrets } = await fullyEquipped();
    logLines.length = 0;
    const res = await admin.c.get(`/admin/list-user-factors?userId=${userId}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      userId,
      twoFactorEnabled: true,
      totp: { enabledAt: expect.stringMatching(ISO) },
      totpPending: false,
      emailCode: { enabledAt: expect.stringMatching(ISO) },
      backupCodes: { remaining: 9 },
      trustedDevices: { count: 1 },
      lockedUntil: null,
      passkeys: [{ id: expect.any(String), name: "Laptop", createdAt: expect.stringMatching(ISO), deviceType: expect.any(String), backedUp: false }],
    });
    for (const secret of secrets) expect(res.text).not.toContain(secret);
    expect(logLines).toContainEqual(
      expect.objectContaining({ level: "info", msg: "sign-in factors viewed by an administrator", userId, by: admin.id }),
    );

    // A user with none: all empty.
    const plain = client();
    const { user } = await signUp(plain);
    const none = await admin.c.get(`/admin/list-user-factors?userId=${user.id}`);
    expect(none.body).toEqual({
      userId: user.id,
      twoFactorEnabled: false,
      totp: null,
      totpPending: false,
      emailCode: null,
      backupCodes: { remaining: 0 },
      trustedDevices: { count: 0 },
      lockedUntil: null,
      passkeys: [],
    });
  });

  it("are reset by an administrator: second factors, backup codes and trusted devices go, passkeys stay; the user signs in without a second step", async () => {
    const admin = await administrator();
    const { c, email, userId, authenticator } = await fullyEquipped();
    const before = await client().post("/sign-in/email", { email, password: PASSWORD });
    expect(before.body).toMatchObject({ twoFactorRedirect: true });
    logLines.length = 0;

    const res = await admin.c.post("/admin/reset-user-factors", { userId });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      success: true,
      removed: { totp: true, emailCode: true, backupCodes: 9, trustedDevices: 1, passkeys: 0 },
    });
    const line = logLines.find((l) => l.msg === "sign-in factors reset by an administrator");
    expect(line).toMatchObject({ level: "info", userId, by: admin.id, removed: res.body.removed });

    for (const table of ["twoFactor", "twoFactorBackupCode", "twoFactorTrustedDevice", "twoFactorChallenge"]) {
      expect(await db().selectFrom(table).selectAll().where("userId", "=", userId).execute(), table).toEqual([]);
    }
    const after = await admin.c.get(`/admin/list-user-factors?userId=${userId}`);
    expect(after.body).toMatchObject({ twoFactorEnabled: false, totp: null, emailCode: null, backupCodes: { remaining: 0 }, trustedDevices: { count: 0 } });
    expect(after.body.passkeys).toHaveLength(1);

    // The password alone signs in now: a session, no second step.
    const signIn = client();
    const res2 = await signIn.post("/sign-in/email", { email, password: PASSWORD });
    expect(res2.status, res2.text).toBe(200);
    expect(res2.body).toMatchObject({ token: expect.any(String), user: { email, twoFactorEnabled: false } });
    expect(res2.body.twoFactorRedirect).toBeUndefined();
    expect((await signIn.get("/get-session")).body.user.id).toBe(userId);
    // The user's own session survives the reset (revoking sessions is a separate action).
    expect((await c.get("/get-session")).body?.user?.id).toBe(userId);

    // And with includePasskeys, the passkeys go too: signing in with one is refused.
    const again = await admin.c.post("/admin/reset-user-factors", { userId, includePasskeys: true });
    expect(again.body).toEqual({ success: true, removed: { totp: false, emailCode: false, backupCodes: 0, trustedDevices: 0, passkeys: 1 } });
    const browser = client();
    const options = await browser.get("/passkey/generate-authenticate-options");
    const assertion = authenticator.getAssertion(options.body);
    const refused = await browser.post("/passkey/verify-authentication", { response: assertion });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("PASSKEY_NOT_FOUND");
  });

  it("lift an organization's access until the user enrols again", async () => {
    const admin = await administrator();
    const { c, userId } = await fullyEquipped();
    const created = await c.post("/organization/create", { name: "Strict", slug: `strict-${Date.now().toString(36)}` });
    expect(created.status).toBe(200);
    expect((await c.post("/organization/update", { organizationId: created.body.id, data: { requireTwoFactor: true } })).status).toBe(200);
    expect((await c.get("/organization/get-full-organization")).status).toBe(200);
    expect((await admin.c.post("/admin/reset-user-factors", { userId })).status).toBe(200);
    const refused = await c.get("/organization/get-full-organization");
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("TWO_FACTOR_REQUIRED_BY_ORGANIZATION");
  });

  it("need the factors permission: a user is refused with 403, a visitor with 401, and nothing changes", async () => {
    const { userId } = await fullyEquipped();
    const user = client();
    await signUp(user);
    const list = await user.get(`/admin/list-user-factors?userId=${userId}`);
    expect(list.status).toBe(403);
    expect(list.body).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_FACTORS", message: "You are not allowed to list users factors" });
    const reset = await user.post("/admin/reset-user-factors", { userId });
    expect(reset.status).toBe(403);
    expect(reset.body).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_RESET_USERS_FACTORS", message: "You are not allowed to reset users factors" });
    expect((await client().get(`/admin/list-user-factors?userId=${userId}`)).status).toBe(401);
    expect((await client().post("/admin/reset-user-factors", { userId })).status).toBe(401);
    expect(await db().selectFrom("twoFactor").selectAll().where("userId", "=", userId).execute()).toHaveLength(1);
    // has-permission answers for the new resource as for the others.
    expect((await user.post("/admin/has-permission", { permissions: { factors: ["reset"] } })).body).toEqual({ error: null, success: false });
    const admin = await administrator();
    expect((await admin.c.post("/admin/has-permission", { permissions: { factors: ["list", "reset"] } })).body).toEqual({ error: null, success: true });
  });

  it("refuse an unknown user, a malformed request, and an administrator's own factors (theirs go through the step-up)", async () => {
    const admin = await administrator();
    const unknown = await admin.c.get("/admin/list-user-factors?userId=nobody");
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("USER_NOT_FOUND");
    expect((await admin.c.post("/admin/reset-user-factors", { userId: "nobody" })).status).toBe(404);
    for (const res of [
      await admin.c.get("/admin/list-user-factors"),
      await admin.c.post("/admin/reset-user-factors", {}),
      await admin.c.post("/admin/reset-user-factors", { userId: "x".repeat(300) }),
      await admin.c.post("/admin/reset-user-factors", { userId: admin.id, includePasskeys: "yes" }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
    const own = await admin.c.post("/admin/reset-user-factors", { userId: admin.id });
    expect(own.status).toBe(400);
    expect(own.body).toEqual({ code: "YOU_CANNOT_RESET_YOUR_OWN_FACTORS", message: "You cannot reset your own factors" });
    // Viewing one's own is allowed.
    expect((await admin.c.get(`/admin/list-user-factors?userId=${admin.id}`)).status).toBe(200);
  });
});

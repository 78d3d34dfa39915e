import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signCookieValue } from "../src/http/cookies.js";
import { signUpAdmin } from "./helpers/admin.js";
import { manualClock } from "./helpers/clock.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";

const HOUR = 3_600_000;
const cookieLine = (lines: string[], name: string) => lines.find((line) => line.startsWith(`better-auth.${name}=`));

describe.each(DIALECTS)("impersonation on %s", (dialect) => {
  let server: TestServer;
  const clock = manualClock();
  beforeAll(async () => {
    server = await startTestServer(dialect, {}, { now: clock.now });
  });
  afterAll(async () => server?.close());
  const client = () => new TestClient(server.base);

  /** A signed-in administrator, and a user to impersonate (also signed in, in their own browser). */
  async function actors() {
    const admin = client();
    const adminUser = (await signUpAdmin(server, admin)).user;
    const target = client();
    const targetUser = (await signUp(target)).user;
    return { admin, adminUser, target, targetUser };
  }

  describe("POST /admin/impersonate-user", () => {
    it("opens a one-hour session marked impersonatedBy and keeps the admin's session in admin_session", async () => {
      const { admin, adminUser, targetUser } = await actors();
      const adminToken = (await admin.get("/get-session")).body.session.token;
      const before = clock.now().getTime();
      const res = await admin.post("/admin/impersonate-user", { userId: targetUser.id });
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(targetUser.id);
      expect(res.body.session).toMatchObject({ userId: targetUser.id, impersonatedBy: adminUser.id });
      const life = new Date(res.body.session.expiresAt).getTime() - before;
      expect(life).toBeGreaterThanOrEqual(HOUR);
      expect(life).toBeLessThan(HOUR + 60_000);

      const kept = cookieLine(res.setCookies, "admin_session")!;
      expect(kept).toMatch(/Max-Age=604800/);
      expect(kept).toMatch(/HttpOnly/);
      const value = decodeURIComponent(kept.split(";")[0]!.split("=").slice(1).join("="));
      expect(value).toBe(signCookieValue(`${adminToken}:`, TEST_SECRET));
      expect(cookieLine(res.setCookies, "session_token")).not.toMatch(/Max-Age/);
      expect(cookieLine(res.setCookies, "dont_remember")).toBeDefined();

      const now = await admin.get("/get-session");
      expect(now.body.user.id).toBe(targetUser.id);
      expect(now.body.session.impersonatedBy).toBe(adminUser.id);
    });

    it("is hidden from the user's own session list, but shown to administrators", async () => {
      const { admin, target, targetUser } = await actors();
      const ownToken = (await target.get("/get-session")).body.session.token;
      await admin.post("/admin/impersonate-user", { userId: targetUser.id });
      const own = await target.get("/list-sessions");
      expect(own.body.map((s: { token: string }) => s.token)).toEqual([ownToken]);
      const other = await signUpAdmin(server, client());
      const viewer = new TestClient(server.base);
      await viewer.post("/sign-in/email", { email: other.email, password: PASSWORD });
      const all = await viewer.post("/admin/list-user-sessions", { userId: targetUser.id });
      expect(all.body.sessions).toHaveLength(2);
      expect(all.body.sessions.filter((s: { impersonatedBy: string | null }) => s.impersonatedBy)).toHaveLength(1);
    });

    it("expires after its hour, and is never extended", async () => {
      const { admin, targetUser } = await actors();
      await admin.post("/admin/impersonate-user", { userId: targetUser.id });
      clock.advance(HOUR - 60_000);
      try {
        const still = await admin.get("/get-session");
        expect(still.body.user.id).toBe(targetUser.id);
        expect(still.setCookies).toHaveLength(0);
        clock.advance(61_000);
        expect((await admin.get("/get-session")).body ?? null).toBeNull();
      } finally {
        clock.reset();
      }
    });

    it("refuses to impersonate another administrator", async () => {
      const { admin } = await actors();
      const otherAdmin = await signUpAdmin(server, client());
      const res = await admin.post("/admin/impersonate-user", { userId: otherAdmin.user.id });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: "YOU_CANNOT_IMPERSONATE_ADMINS", message: "You cannot impersonate admins" });
      expect(res.setCookies).toHaveLength(0);
    });

    it("#14: get-user tells whether impersonating the user would be accepted, as impersonate-user decides", async () => {
      const { admin, adminUser, targetUser } = await actors();
      const otherAdmin = await signUpAdmin(server, client());
      const plain = await admin.get(`/admin/get-user?id=${targetUser.id}`);
      expect(plain.body).toMatchObject({ id: targetUser.id, administrator: false, impersonable: true });
      // Administrators, the caller among them, are refused by impersonate-user, so they are not impersonable.
      for (const id of [otherAdmin.user.id, adminUser.id]) {
        const res = await admin.get(`/admin/get-user?id=${id}`);
        expect(res.body).toMatchObject({ id, administrator: true, impersonable: false });
        expect((await admin.post("/admin/impersonate-user", { userId: id })).status).toBe(403);
      }
      await admin.post("/admin/ban-user", { userId: targetUser.id });
      expect((await admin.get(`/admin/get-user?id=${targetUser.id}`)).body).toMatchObject({ impersonable: false });
      // A ban that has run out no longer stands in the way.
      await admin.post("/admin/ban-user", { userId: targetUser.id, banExpiresIn: 60 });
      clock.advance(2 * 60_000);
      try {
        expect((await admin.get(`/admin/get-user?id=${targetUser.id}`)).body).toMatchObject({ impersonable: true });
      } finally {
        clock.reset();
      }
    });

    it("refuses a banned user and answers 404 for an unknown one", async () => {
      const { admin, targetUser } = await actors();
      await admin.post("/admin/ban-user", { userId: targetUser.id });
      const banned = await admin.post("/admin/impersonate-user", { userId: targetUser.id });
      expect(banned.status).toBe(403);
      expect(banned.body.code).toBe("BANNED_USER");
      expect((await admin.post("/admin/impersonate-user", { userId: "nobody" })).status).toBe(404);
    });
  });

  describe("POST /admin/stop-impersonating", () => {
    it("deletes the impersonation session and restores the admin's session and cookies", async () => {
      const { admin, adminUser, targetUser } = await actors();
      const adminToken = (await admin.get("/get-session")).body.session.token;
      const started = await admin.post("/admin/impersonate-user", { userId: targetUser.id });
      const res = await admin.post("/admin/stop-impersonating");
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(adminUser.id);
      expect(res.body.session.token).toBe(adminToken);
      expect(cookieLine(res.setCookies, "session_token")).toMatch(/Max-Age=604800/);
      expect(cookieLine(res.setCookies, "admin_session")).toMatch(/Max-Age=0/);
      expect(cookieLine(res.setCookies, "dont_remember")).toMatch(/Max-Age=0/);
      expect(admin.cookie("better-auth.admin_session")).toBeUndefined();

      const now = await admin.get("/get-session");
      expect(now.body.user.id).toBe(adminUser.id);
      const stores = server.gatehouse.runtime.stores;
      expect(await stores.sessions.findSessionAndUser(started.body.session.token)).toBeNull();
    });

    it("restores a remember-me-off admin session as a browser-session cookie", async () => {
      const { adminUser, targetUser } = await actors();
      const admin = client();
      await admin.post("/sign-in/email", { email: adminUser.email, password: PASSWORD, rememberMe: false });
      await admin.post("/admin/impersonate-user", { userId: targetUser.id });
      const res = await admin.post("/admin/stop-impersonating");
      expect(res.status).toBe(200);
      expect(cookieLine(res.setCookies, "session_token")).not.toMatch(/Max-Age/);
      expect(cookieLine(res.setCookies, "dont_remember")).not.toMatch(/Max-Age/);
      expect((await admin.get("/get-session")).body.user.id).toBe(adminUser.id);
    });

    it("answers 400 when the session is not an impersonation, or the admin's session cannot be found", async () => {
      const { admin, targetUser } = await actors();
      const plain = await admin.post("/admin/stop-impersonating");
      expect(plain.status).toBe(400);
      expect(plain.body).toEqual({ code: "YOU_ARE_NOT_IMPERSONATING_ANYONE", message: "You are not impersonating anyone" });

      await admin.post("/admin/impersonate-user", { userId: targetUser.id });
      const kept = admin.cookie("better-auth.admin_session")!;
      admin.jar.set("better-auth.admin_session", encodeURIComponent(signCookieValue("forged-token:", TEST_SECRET)));
      const forged = await admin.post("/admin/stop-impersonating");
      expect(forged.status).toBe(400);
      expect(forged.body.code).toBe("FAILED_TO_FIND_ADMIN_SESSION");
      admin.jar.delete("better-auth.admin_session");
      expect((await admin.post("/admin/stop-impersonating")).body.code).toBe("FAILED_TO_FIND_ADMIN_SESSION");

      // Someone else's admin_session cookie cannot end this impersonation into their session.
      const { admin: other, targetUser: otherTarget } = await actors();
      await other.post("/admin/impersonate-user", { userId: otherTarget.id });
      admin.jar.set("better-auth.admin_session", other.cookie("better-auth.admin_session")!);
      expect((await admin.post("/admin/stop-impersonating")).body.code).toBe("FAILED_TO_FIND_ADMIN_SESSION");
      admin.jar.set("better-auth.admin_session", kept);
      expect((await admin.post("/admin/stop-impersonating")).status).toBe(200);
    });

    it("answers 401 once the impersonation session has expired", async () => {
      const { admin, targetUser } = await actors();
      await admin.post("/admin/impersonate-user", { userId: targetUser.id });
      clock.advance(HOUR + 1000);
      try {
        expect((await admin.post("/admin/stop-impersonating")).status).toBe(401);
      } finally {
        clock.reset();
      }
    });
  });
});

describe.each(DIALECTS)("impersonation options on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, {
      admin: { allowImpersonatingAdmins: true, impersonationSessionDuration: 600 },
    });
  });
  afterAll(async () => server?.close());

  it("with allowImpersonatingAdmins impersonates an administrator, for impersonationSessionDuration", async () => {
    const admin = new TestClient(server.base);
    await signUpAdmin(server, admin);
    const other = await signUpAdmin(server, new TestClient(server.base), { email: uniqueEmail("other-admin") });
    const before = Date.now();
    const res = await admin.post("/admin/impersonate-user", { userId: other.user.id });
    expect(res.status).toBe(200);
    const life = new Date(res.body.session.expiresAt).getTime() - before;
    expect(life).toBeGreaterThanOrEqual(600_000 - 1000);
    expect(life).toBeLessThan(660_000);
  });

  it("#14: with allowImpersonatingAdmins get-user reports administrators as impersonable", async () => {
    const admin = new TestClient(server.base);
    await signUpAdmin(server, admin);
    const other = await signUpAdmin(server, new TestClient(server.base), { email: uniqueEmail("impersonable-admin") });
    const res = await admin.get(`/admin/get-user?id=${other.user.id}`);
    expect(res.body).toMatchObject({ id: other.user.id, administrator: true, impersonable: true });
  });

  it("#12.3.13: with allowImpersonatingAdmins every administrator holds impersonate-admins (has-permission says so)", async () => {
    const admin = new TestClient(server.base);
    await signUpAdmin(server, admin);
    const asks = await admin.post("/admin/has-permission", { permissions: { user: ["impersonate-admins", "ban"] } });
    expect(asks.body).toEqual({ error: null, success: true });
    const plain = new TestClient(server.base);
    await signUp(plain);
    const refused = await plain.post("/admin/has-permission", { permissions: { user: ["impersonate-admins"] } });
    expect(refused.body).toEqual({ error: null, success: false });
  });
});

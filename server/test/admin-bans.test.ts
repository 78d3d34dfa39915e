import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateId } from "../src/crypto/random.js";
import { signCookieValue } from "../src/http/cookies.js";
import { issueEmailToken } from "../src/verification/email-token.js";
import { signUpAdmin } from "./helpers/admin.js";
import { manualClock } from "./helpers/clock.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient } from "./helpers/http-client.js";
import { startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";

const HOUR = 3_600_000;
const BANNED = {
  code: "BANNED_USER",
  message: "You have been banned from this application. Please contact support if you believe this is an error.",
};

let counter = 0;
const uniqueUsername = () => `banned_${++counter}_${Math.random().toString(36).slice(2, 7)}`;

describe.each(DIALECTS)("bans on %s", (dialect) => {
  let server: TestServer;
  let admin: TestClient;
  let adminId: string;
  const clock = manualClock();
  beforeAll(async () => {
    server = await startTestServer(dialect, {}, { now: clock.now });
    admin = new TestClient(server.base);
    adminId = (await signUpAdmin(server, admin)).user.id;
  });
  afterAll(async () => server?.close());
  const client = () => new TestClient(server.base);

  describe("POST /admin/ban-user", () => {
    it("bans with the default reason and no end, and ends every session of the user", async () => {
      const c = client();
      const { user, email } = await signUp(c);
      const other = client();
      await other.post("/sign-in/email", { email, password: PASSWORD });
      const res = await admin.post("/admin/ban-user", { userId: user.id });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ id: user.id, banned: true, banReason: "No reason", banExpires: null });
      for (const session of [c, other]) expect((await session.get("/get-session")).body ?? null).toBeNull();
      const sessions = await admin.post("/admin/list-user-sessions", { userId: user.id });
      expect(sessions.body.sessions).toEqual([]);
    });

    it("refuses the banned user's sign-in by email and by username with 403 BANNED_USER", async () => {
      const username = uniqueUsername();
      const { user, email } = await signUp(client(), { username });
      await admin.post("/admin/ban-user", { userId: user.id, banReason: "abuse" });
      for (const [path, body] of [
        ["/sign-in/email", { email, password: PASSWORD }],
        ["/sign-in/username", { username, password: PASSWORD }],
      ] as const) {
        const res = await client().post(path, body);
        expect(res.status, path).toBe(403);
        expect(res.body).toEqual(BANNED);
        expect(res.setCookies).toHaveLength(0);
      }
    });

    it("checks the password before the ban, so a wrong password does not reveal the ban", async () => {
      const { user, email } = await signUp(client());
      await admin.post("/admin/ban-user", { userId: user.id });
      const res = await client().post("/sign-in/email", { email, password: "not the password" });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("INVALID_EMAIL_OR_PASSWORD");
    });

    it("ends by itself when banExpiresIn has passed: sign-in works again and lifts the ban", async () => {
      const username = uniqueUsername();
      const { user, email } = await signUp(client(), { username });
      const before = clock.now().getTime();
      const res = await admin.post("/admin/ban-user", { userId: user.id, banReason: "cool off", banExpiresIn: 3600 });
      expect(res.body.user).toMatchObject({ banned: true, banReason: "cool off" });
      const ends = new Date(res.body.user.banExpires).getTime();
      expect(ends).toBeGreaterThanOrEqual(before + HOUR);
      expect(ends).toBeLessThan(before + HOUR + 60_000);
      expect((await client().post("/sign-in/email", { email, password: PASSWORD })).status).toBe(403);
      clock.advance(HOUR + 1000);
      try {
        const byUsername = await client().post("/sign-in/username", { username, password: PASSWORD });
        expect(byUsername.status).toBe(200);
        expect(byUsername.body.user).toMatchObject({ banned: false, banReason: null, banExpires: null });
        expect(await server.gatehouse.runtime.stores.users.findUserById(user.id)).toMatchObject({ banned: false });
        expect((await client().post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
      } finally {
        clock.reset();
      }
    });

    it("refuses to ban oneself, and answers 404 for an unknown user", async () => {
      const self = await admin.post("/admin/ban-user", { userId: adminId });
      expect(self.status).toBe(400);
      expect(self.body).toEqual({ code: "YOU_CANNOT_BAN_YOURSELF", message: "You cannot ban yourself" });
      const missing = await admin.post("/admin/ban-user", { userId: "nobody" });
      expect(missing.status).toBe(404);
      const negative = await admin.post("/admin/ban-user", { userId: "nobody", banExpiresIn: -5 });
      expect(negative.body.code).toBe("VALIDATION_ERROR");
    });
  });

  describe("POST /admin/unban-user", () => {
    it("lifts the ban at once", async () => {
      const { user, email } = await signUp(client());
      await admin.post("/admin/ban-user", { userId: user.id });
      const res = await admin.post("/admin/unban-user", { userId: user.id });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ banned: false, banReason: null, banExpires: null });
      expect((await client().post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
      expect((await admin.post("/admin/unban-user", { userId: "nobody" })).status).toBe(404);
    });
  });

  describe("sessions of a banned user", () => {
    it("are refused and deleted when read while the ban holds, and live once it has ended", async () => {
      const { user } = await signUp(client());
      const stores = server.gatehouse.runtime.stores;
      const t = clock.now();
      await stores.users.updateUser(user.id, { banned: true, banExpires: new Date(t.getTime() + HOUR), updatedAt: t });
      // A session made while the ban was being written (a race the ban's own revocation cannot see).
      const straggler = await openSessionCookie(user.id);
      const refused = await client().get("/get-session", { headers: { cookie: straggler.cookie } });
      expect(refused.body ?? null).toBeNull();
      expect(await stores.sessions.findSessionAndUser(straggler.token)).toBeNull();

      const later = await openSessionCookie(user.id);
      clock.advance(HOUR + 1000);
      try {
        const alive = await client().get("/get-session", { headers: { cookie: later.cookie } });
        expect(alive.body.user.id).toBe(user.id);
      } finally {
        clock.reset();
      }
    });
  });

  /** A session row written straight to storage, and the signed cookie that names it. */
  async function openSessionCookie(userId: string) {
    const token = generateId();
    const t = clock.now();
    await server.gatehouse.runtime.stores.sessions.createSession({
      id: generateId(),
      token,
      userId,
      expiresAt: new Date(t.getTime() + 7 * 24 * HOUR),
      ipAddress: "",
      userAgent: "",
      createdAt: t,
      updatedAt: t,
      activeOrganizationId: null,
      activeTeamId: null,
      impersonatedBy: null,
      loginMethod: null,
    });
    return { token, cookie: `better-auth.session_token=${encodeURIComponent(signCookieValue(token, TEST_SECRET))}` };
  }
});

describe.each(DIALECTS)("ban options on %s", (dialect) => {
  let server: TestServer;
  let admin: TestClient;
  const clock = manualClock();
  beforeAll(async () => {
    server = await startTestServer(
      dialect,
      {
        admin: { defaultBanReason: "Spam", defaultBanExpiresIn: 600, bannedUserMessage: "Your account is suspended." },
        emailVerification: { autoSignInAfterVerification: true },
      },
      { now: clock.now },
    );
    admin = new TestClient(server.base);
    await signUpAdmin(server, admin);
  });
  afterAll(async () => server?.close());
  const client = () => new TestClient(server.base);

  it("uses defaultBanReason, defaultBanExpiresIn and bannedUserMessage", async () => {
    const { user, email } = await signUp(client());
    const before = clock.now().getTime();
    const res = await admin.post("/admin/ban-user", { userId: user.id });
    expect(res.body.user.banReason).toBe("Spam");
    expect(new Date(res.body.user.banExpires).getTime() - before).toBeGreaterThanOrEqual(600_000);
    const refused = await client().post("/sign-in/email", { email, password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: "BANNED_USER", message: "Your account is suspended." });
    clock.advance(601_000);
    try {
      expect((await client().post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    } finally {
      clock.reset();
    }
  });

  it("verifies a banned user's address from the mailed link but does not sign them in", async () => {
    const { user, email } = await signUp(client());
    await admin.post("/admin/ban-user", { userId: user.id, banExpiresIn: 3600 });
    const config = server.gatehouse.config;
    const { token } = await issueEmailToken(
      server.gatehouse.runtime.stores,
      { email, userId: user.id, purpose: "verify-email" },
      { secret: config.secret, expiresIn: 3600, now: clock.now() },
    );
    const c = client();
    const res = await c.get(`/verify-email?token=${token}`);
    expect(res.status).toBe(200);
    expect(res.setCookies.some((x) => x.startsWith("better-auth.session_token="))).toBe(false);
    expect((await server.gatehouse.runtime.stores.users.findUserById(user.id))!.emailVerified).toBe(true);
  });
});

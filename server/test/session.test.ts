import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signCookieValue } from "../src/http/cookies.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { manualClock } from "./helpers/clock.js";

const DAY = 86_400_000;

describe.each(DIALECTS)("sessions on %s", (dialect) => {
  let server: TestServer;
  const clock = manualClock();
  beforeAll(async () => {
    server = await startTestServer(dialect, {}, { now: clock.now });
  });
  afterAll(async () => server?.close());
  const client = () => new TestClient(server.base);

  describe("GET /get-session", () => {
    it("answers 200 null without a cookie, with no-store caching headers", async () => {
      const res = await client().get("/get-session");
      expect(res.status).toBe(200);
      expect(res.text).toBe("null");
      expect(res.headers.get("cache-control")).toBe("no-store");
    });

    it("answers null for a forged, unsigned or malformed cookie", async () => {
      const c = client();
      const { token } = await signUp(c);
      const forged = [
        `better-auth.session_token=${token}`,
        `better-auth.session_token=${encodeURIComponent(signCookieValue(token, "another-secret"))}`,
        `better-auth.session_token=${encodeURIComponent(token + ".short=")}`,
        "better-auth.session_token=%E0%A4%A",
        `better-auth.session_token=${"x".repeat(5000)}`,
      ];
      for (const cookie of forged) {
        const res = await client().get("/get-session", { headers: { cookie } });
        expect(res.status).toBe(200);
        expect(res.body ?? null).toBeNull();
      }
    });

    it("returns the session and user with the fields clients read", async () => {
      const c = client();
      await signUp(c);
      const res = await c.get("/get-session");
      expect(Object.keys(res.body.session)).toEqual(
        expect.arrayContaining(["id", "token", "userId", "expiresAt", "createdAt", "updatedAt", "ipAddress", "userAgent"]),
      );
      expect(res.body.session.ipAddress).toBe("127.0.0.1");
      expect(Object.keys(res.body.user)).toEqual(
        expect.arrayContaining(["id", "name", "email", "emailVerified", "image", "createdAt", "updatedAt"]),
      );
    });

    it("extends a session past its update age and re-issues the cookie", async () => {
      const c = client();
      await signUp(c);
      const first = await c.get("/get-session");
      clock.advance(DAY + 60_000);
      try {
        const second = await c.get("/get-session");
        expect(new Date(second.body.session.expiresAt).getTime()).toBeGreaterThan(
          new Date(first.body.session.expiresAt).getTime() + DAY - 120_000,
        );
        expect(second.setCookies.some((x) => x.startsWith("better-auth.session_token=") && /Max-Age=604800/.test(x))).toBe(true);
      } finally {
        clock.reset();
      }
    });

    it("does not extend with disableRefresh, nor a remember-me-off session", async () => {
      const c = client();
      await signUp(c);
      const first = await c.get("/get-session");
      clock.advance(DAY + 60_000);
      try {
        const second = await c.get("/get-session?disableRefresh=true");
        expect(second.body.session.expiresAt).toBe(first.body.session.expiresAt);
        expect(second.setCookies).toHaveLength(0);
      } finally {
        clock.reset();
      }
      const { email } = await signUp(client());
      const d = client();
      await d.post("/sign-in/email", { email, password: PASSWORD, rememberMe: false });
      const before = await d.get("/get-session");
      clock.advance(DAY / 2);
      try {
        const after = await d.get("/get-session");
        expect(after.body.session.expiresAt).toBe(before.body.session.expiresAt);
      } finally {
        clock.reset();
      }
    });

    it("deletes an expired session, clears its cookies and answers null", async () => {
      const c = client();
      const { token } = await signUp(c);
      clock.advance(8 * DAY);
      try {
        const res = await c.get("/get-session");
        expect(res.body ?? null).toBeNull();
        expect(res.setCookies.some((x) => x.startsWith("better-auth.session_token=;") && /Max-Age=0/.test(x))).toBe(true);
      } finally {
        clock.reset();
      }
      const row = await server.gatehouse.runtime.stores.sessions.findSessionAndUser(token);
      expect(row).toBeNull();
    });

    it("answers the same over the socket (node fast path) as through the web-standard handler", async () => {
      const c = client();
      await signUp(c);
      const overSocket = await c.get("/get-session?disableRefresh=1");
      const request = new Request(`${server.base}/get-session?disableRefresh=1`, { headers: { cookie: c.cookieHeader() } });
      const viaHandler = await server.gatehouse.handler(request);
      expect(viaHandler.status).toBe(200);
      expect(viaHandler.headers.get("cache-control")).toBe("no-store");
      expect(await viaHandler.json()).toEqual(overSocket.body);
      const anonymous = await server.gatehouse.handler(new Request(`${server.base}/get-session`));
      expect(await anonymous.json()).toBeNull();
    });

    it("rejects query values that are not booleans", async () => {
      const res = await client().get("/get-session?disableRefresh=maybe");
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid query parameters" });
    });
  });

  describe("POST /sign-out", () => {
    it("deletes the session and clears the cookies", async () => {
      const c = client();
      const { token } = await signUp(c);
      const res = await c.post("/sign-out");
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(res.setCookies.filter((x) => /Max-Age=0/.test(x)).length).toBeGreaterThanOrEqual(2);
      expect(await server.gatehouse.runtime.stores.sessions.findSessionAndUser(token)).toBeNull();
      expect((await c.get("/get-session")).body ?? null).toBeNull();
    });

    it("succeeds without a session", async () => {
      const res = await client().post("/sign-out");
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
    });
  });

  describe("session lists and revocation", () => {
    it("GET /list-sessions lists the user's sessions with their tokens; 401 when signed out", async () => {
      const a = client();
      const { email } = await signUp(a);
      const b = client();
      await b.post("/sign-in/email", { email, password: PASSWORD });
      const res = await a.get("/list-sessions");
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(2);
      expect(res.body.every((s: { token: string }) => /^[A-Za-z0-9]{32}$/.test(s.token))).toBe(true);
      const anonymous = await client().get("/list-sessions");
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ code: "UNAUTHORIZED", message: "Unauthorized" });
    });

    it("POST /revoke-session revokes the caller's own session and no one else's", async () => {
      const a = client();
      const { email } = await signUp(a);
      const b = client();
      const signIn = await b.post("/sign-in/email", { email, password: PASSWORD });
      const stranger = client();
      await signUp(stranger);
      const attempt = await stranger.post("/revoke-session", { token: signIn.body.token });
      expect(attempt.status).toBe(200);
      expect((await b.get("/get-session")).body.session.token).toBe(signIn.body.token);

      const res = await a.post("/revoke-session", { token: signIn.body.token });
      expect(res.body).toEqual({ status: true });
      expect((await b.get("/get-session")).body ?? null).toBeNull();
      expect((await a.get("/get-session")).body.user.email).toBe(email);
    });

    it("POST /revoke-session validates its body", async () => {
      const a = client();
      await signUp(a);
      for (const body of [{}, { token: 42 }, { token: "" }]) {
        const res = await a.post("/revoke-session", body);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe("VALIDATION_ERROR");
      }
    });

    it("POST /revoke-other-sessions keeps only the current session", async () => {
      const a = client();
      const { email } = await signUp(a);
      const others = [client(), client()];
      for (const o of others) await o.post("/sign-in/email", { email, password: PASSWORD });
      const res = await a.post("/revoke-other-sessions");
      expect(res.body).toEqual({ status: true });
      for (const o of others) expect((await o.get("/get-session")).body ?? null).toBeNull();
      expect((await a.get("/list-sessions")).body).toHaveLength(1);
    });

    it("POST /revoke-sessions revokes every session including the current one", async () => {
      const a = client();
      const { email } = await signUp(a);
      const b = client();
      await b.post("/sign-in/email", { email, password: PASSWORD });
      const res = await a.post("/revoke-sessions");
      expect(res.body).toEqual({ status: true });
      expect((await a.get("/get-session")).body ?? null).toBeNull();
      expect((await b.get("/get-session")).body ?? null).toBeNull();
    });
  });

  describe("POST /update-user", () => {
    it("updates name and image", async () => {
      const c = client();
      await signUp(c);
      const res = await c.post("/update-user", { name: "New Name", image: "https://example.com/a.png" });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: true });
      const session = await c.get("/get-session");
      expect(session.body.user).toMatchObject({ name: "New Name", image: "https://example.com/a.png" });
      const cleared = await c.post("/update-user", { image: null });
      expect(cleared.status).toBe(200);
      expect((await c.get("/get-session")).body.user.image).toBeNull();
    });

    it("refuses email, protected fields, empty updates and bad types", async () => {
      const c = client();
      await signUp(c);
      const email = await c.post("/update-user", { email: "x@y.z" });
      expect(email.status).toBe(400);
      expect(email.body).toEqual({ code: "EMAIL_CAN_NOT_BE_UPDATED", message: "Email can not be updated" });
      const role = await c.post("/update-user", { role: "admin" });
      expect(role.body.code).toBe("FIELD_NOT_ALLOWED");
      const none = await c.post("/update-user", {});
      expect(none.body).toEqual({ code: "NO_FIELDS_TO_UPDATE", message: "No fields to update" });
      const wrong = await c.post("/update-user", { name: 12 });
      expect(wrong.body.code).toBe("VALIDATION_ERROR");
      const blank = await c.post("/update-user", { name: "   " });
      expect(blank.body.code).toBe("VALIDATION_ERROR");
      expect((await c.get("/get-session")).body.user.role).toBe("user");
    });

    it("answers 401 without a session", async () => {
      const res = await client().post("/update-user", { name: "x" });
      expect(res.status).toBe(401);
    });
  });
});

describe.each(DIALECTS)("cookie cache on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { session: { cookieCache: { enabled: true, maxAge: 300 } } });
  });
  afterAll(async () => server?.close());

  it("sets a signed session_data cookie and serves get-session from it until disableCookieCache", async () => {
    const c = new TestClient(server.base);
    const { token } = await signUp(c);
    expect(c.cookie("better-auth.session_data")).toBeTruthy();
    // Revoke behind the cache's back: the cache still answers, the database does not.
    await server.gatehouse.runtime.stores.sessions.deleteSessionByToken(token);
    const cached = await c.get("/get-session");
    expect(cached.body.session.token).toBe(token);
    const fresh = await c.get("/get-session?disableCookieCache=true");
    expect(fresh.body ?? null).toBeNull();
  });

  it("drops a tampered cache cookie and asks the database", async () => {
    const c = new TestClient(server.base);
    await signUp(c);
    const raw = c.cookie("better-auth.session_data")!;
    const payload = JSON.parse(Buffer.from(decodeURIComponent(raw), "base64url").toString());
    payload.session.user.role = "admin";
    c.jar.set("better-auth.session_data", Buffer.from(JSON.stringify(payload)).toString("base64url"));
    const res = await c.get("/get-session");
    expect(res.body.user.role).toBe("user");
    expect(res.setCookies.some((x) => x.startsWith("better-auth.session_data=") && !/Max-Age=0/.test(x))).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

const SCRYPT_HASH = /^[0-9a-f]{32}:[0-9a-f]{128}$/;

describe.each(DIALECTS)("email and password on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => server?.close());

  const client = () => new TestClient(server.base);

  describe("POST /sign-up/email", () => {
    it("creates the user, a credential account and a session, and sets the signed cookie", async () => {
      const c = client();
      const email = uniqueEmail("Mixed.Case");
      const res = await c.post("/sign-up/email", { name: "Ada", email, password: PASSWORD });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ name: "Ada", email: email.toLowerCase(), emailVerified: false, image: null });
      expect(res.body.user.id).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(res.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(JSON.stringify(res.body)).not.toMatch(/password/i);
      const cookie = res.setCookies.find((c) => c.startsWith("better-auth.session_token="))!;
      expect(cookie).toMatch(/Max-Age=604800/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      const value = decodeURIComponent(cookie.split(";")[0]!.split("=").slice(1).join("="));
      expect(value.startsWith(res.body.token + ".")).toBe(true);
      expect(value.slice(res.body.token.length + 1)).toMatch(/^[A-Za-z0-9+/]{43}=$/);

      const account = await server.gatehouse.runtime.stores.accounts.findCredentialAccount(res.body.user.id);
      expect(account?.accountId).toBe(res.body.user.id);
      expect(account?.password).toMatch(SCRYPT_HASH);
      const session = await c.get("/get-session");
      expect(session.body.user.email).toBe(email.toLowerCase());
    });

    it("answers 422 User already exists for a taken email, in any case", async () => {
      const { email } = await signUp(client());
      const res = await client().post("/sign-up/email", { name: "B", email: email.toUpperCase(), password: PASSWORD });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ code: "USER_ALREADY_EXISTS", message: "User already exists" });
    });

    it("answers 400 Invalid email for a malformed address", async () => {
      const res = await client().post("/sign-up/email", { name: "B", email: "not-an-email", password: PASSWORD });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "INVALID_EMAIL", message: "Invalid email" });
    });

    it("answers Password too short and Password too long at the 8 and 128 bounds", async () => {
      const short = await client().post("/sign-up/email", { name: "B", email: uniqueEmail(), password: "1234567" });
      expect(short.status).toBe(400);
      expect(short.body).toEqual({ code: "PASSWORD_TOO_SHORT", message: "Password too short" });
      const long = await client().post("/sign-up/email", { name: "B", email: uniqueEmail(), password: "x".repeat(129) });
      expect(long.status).toBe(400);
      expect(long.body).toEqual({ code: "PASSWORD_TOO_LONG", message: "Password too long" });
      const exact = await client().post("/sign-up/email", { name: "B", email: uniqueEmail(), password: "x".repeat(128) });
      expect(exact.status).toBe(200);
    });

    it("refuses fields a client may not set, such as role or emailVerified", async () => {
      for (const field of ["role", "emailVerified", "banned"]) {
        const res = await client().post("/sign-up/email", {
          name: "B",
          email: uniqueEmail(),
          password: PASSWORD,
          [field]: field === "role" ? "admin" : true,
        });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe("FIELD_NOT_ALLOWED");
      }
    });

    it("answers 400 VALIDATION_ERROR with Invalid body parameters for missing or mistyped fields", async () => {
      for (const body of [{}, { name: "x", email: "a@b.co" }, { name: 5, email: "a@b.co", password: PASSWORD }, { name: "x", email: ["a"], password: PASSWORD }]) {
        const res = await client().post("/sign-up/email", body);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe("VALIDATION_ERROR");
        expect(res.body.message).toBe("Invalid body parameters");
        expect(Array.isArray(res.body.issues)).toBe(true);
      }
    });

    it("accepts an HTML form post", async () => {
      const email = uniqueEmail();
      const res = await client().request("POST", "/sign-up/email", {
        rawBody: new URLSearchParams({ name: "Form", email, password: PASSWORD, rememberMe: "false" }).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(res.status).toBe(200);
      expect(res.body.user.email).toBe(email);
      expect(res.setCookies.some((c) => c.startsWith("better-auth.dont_remember="))).toBe(true);
    });

    it("keeps no user behind when two sign-ups race for one email", async () => {
      const email = uniqueEmail("race");
      const results = await Promise.all(
        [1, 2, 3].map(() => client().post("/sign-up/email", { name: "R", email, password: PASSWORD })),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 422)).toHaveLength(2);
    });
  });

  describe("POST /sign-in/email", () => {
    it("signs in with the right password and returns redirect, token and user", async () => {
      const { email } = await signUp(client());
      const c = client();
      const res = await c.post("/sign-in/email", { email: email.toUpperCase(), password: PASSWORD });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ redirect: false, user: { email } });
      expect(res.body.url).toBeUndefined();
      expect(res.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
      const session = await c.get("/get-session");
      expect(session.body.session.token).toBe(res.body.token);
    });

    it("with callbackURL answers redirect true, the url and a Location header", async () => {
      const { email } = await signUp(client());
      const res = await client().post("/sign-in/email", { email, password: PASSWORD, callbackURL: "/dashboard" });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ redirect: true, url: "/dashboard" });
      expect(res.headers.get("location")).toBe("/dashboard");
    });

    it("answers the same 401 for a wrong password and an unknown email", async () => {
      const { email } = await signUp(client());
      const wrong = await client().post("/sign-in/email", { email, password: "wrong password" });
      const unknown = await client().post("/sign-in/email", { email: uniqueEmail("nobody"), password: PASSWORD });
      for (const res of [wrong, unknown]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
        expect(res.setCookies).toHaveLength(0);
      }
    });

    it("answers 400 Invalid email and Password too long before hashing", async () => {
      const bad = await client().post("/sign-in/email", { email: "nope", password: PASSWORD });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe("INVALID_EMAIL");
      const long = await client().post("/sign-in/email", { email: uniqueEmail(), password: "y".repeat(129) });
      expect(long.status).toBe(400);
      expect(long.body.code).toBe("PASSWORD_TOO_LONG");
    });

    it("with rememberMe false sets a browser-session cookie, a dont_remember marker and a one-day session", async () => {
      const { email } = await signUp(client());
      const c = client();
      const before = Date.now();
      const res = await c.post("/sign-in/email", { email, password: PASSWORD, rememberMe: false });
      expect(res.status).toBe(200);
      const tokenCookie = res.setCookies.find((x) => x.startsWith("better-auth.session_token="))!;
      expect(tokenCookie).not.toMatch(/Max-Age/);
      const marker = res.setCookies.find((x) => x.startsWith("better-auth.dont_remember="))!;
      expect(decodeURIComponent(marker.split(";")[0]!.split("=")[1]!)).toMatch(/^true\.[A-Za-z0-9+/]{43}=$/);
      const session = await c.get("/get-session");
      const life = new Date(session.body.session.expiresAt).getTime() - before;
      expect(life).toBeGreaterThan(86_400_000 - 60_000);
      expect(life).toBeLessThanOrEqual(86_400_000 + 60_000);
    });

    it("refuses a callbackURL on another origin with 403 Invalid callbackURL", async () => {
      const { email } = await signUp(client());
      for (const callbackURL of ["https://evil.example", "//evil.example", "/\\evil.example", "/%2F%2Fevil.example", "/a\nb"]) {
        const res = await client().post("/sign-in/email", { email, password: PASSWORD, callbackURL });
        expect(res.status, callbackURL).toBe(403);
        expect(res.body).toEqual({ code: "INVALID_CALLBACKURL", message: "Invalid callbackURL" });
      }
    });
  });
});

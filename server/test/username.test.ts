import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../src/config/index.js";
import { createPasswordHasher, type PasswordHasher } from "../src/credentials/password.js";
import { generateId } from "../src/crypto/random.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

const TOO_SHORT = { code: "USERNAME_IS_TOO_SHORT", message: "username is too short" };
const TOO_LONG = { code: "USERNAME_IS_TOO_LONG", message: "username is too long" };
const INVALID = { code: "USERNAME_IS_INVALID", message: "username is invalid" };
const TAKEN = {
  code: "USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER",
  message: "username is already taken. please try another.",
};
const BAD_CREDENTIALS = { code: "INVALID_USERNAME_OR_PASSWORD", message: "invalid username or password" };

let counter = 0;
/** A username no other test uses, in mixed case: "User_<n>.<random>". */
const uniqueUsername = () => `User_${++counter}.${Math.random().toString(36).slice(2, 8)}`;

/** Counts password verifications, to check that every failed sign-in costs exactly one hash. */
function countingHasher(inner: PasswordHasher) {
  const counts = { verify: 0 };
  const hasher: PasswordHasher = {
    hash: (password) => inner.hash(password),
    verify: (hash, password) => {
      counts.verify += 1;
      return inner.verify(hash, password);
    },
    verifyDummy: (password) => {
      counts.verify += 1;
      return inner.verifyDummy(password);
    },
    close: () => inner.close(),
  };
  return { hasher, counts };
}

describe("username options", () => {
  it("default to 3 and 30 characters and refuse a minimum above the maximum", () => {
    expect(resolveConfig({ secret: "s".repeat(32) }).username).toEqual({ minUsernameLength: 3, maxUsernameLength: 30 });
    expect(() => resolveConfig({ secret: "s".repeat(32), username: { minUsernameLength: 9, maxUsernameLength: 4 } })).toThrow(
      /username\.minUsernameLength/,
    );
  });
});

describe.each(DIALECTS)("usernames on %s", (dialect) => {
  let server: TestServer;
  const { hasher, counts } = countingHasher(createPasswordHasher({ concurrency: 2, nice: 0 }));
  beforeAll(async () => {
    server = await startTestServer(dialect, {}, { hasher });
  });
  afterAll(async () => {
    await server?.close();
    await hasher.close();
  });
  const client = () => new TestClient(server.base);

  describe("POST /sign-up/email with a username", () => {
    it("stores the username in lower case and the display username as typed", async () => {
      const username = uniqueUsername();
      const { user } = await signUp(client(), { username });
      expect(user).toMatchObject({ username: username.toLowerCase(), displayUsername: username });
      const stored = await server.gatehouse.runtime.stores.users.findUserById(user.id);
      expect(stored).toMatchObject({ username: username.toLowerCase(), displayUsername: username });
    });

    it("keeps a display username given beside it", async () => {
      const username = uniqueUsername();
      const { user } = await signUp(client(), { username, displayUsername: "The Real Ada" });
      expect(user).toMatchObject({ username: username.toLowerCase(), displayUsername: "The Real Ada" });
    });

    it("accepts exactly 3 and 30 characters, and refuses 2 and 31 with 422", async () => {
      const stem = `u${Date.now().toString(36)}${counter++}`.slice(0, 10);
      const three = `${stem.slice(0, 2)}${counter % 10}`;
      const thirty = (stem + "_".repeat(30)).slice(0, 30);
      expect((await signUp(client(), { username: three })).user.username).toBe(three.toLowerCase());
      expect((await signUp(client(), { username: thirty })).user.username).toBe(thirty.toLowerCase());
      for (const [username, expected] of [
        ["ab", TOO_SHORT],
        ["a".repeat(31), TOO_LONG],
      ] as const) {
        const res = await client().post("/sign-up/email", { name: "N", email: uniqueEmail(), password: PASSWORD, username });
        expect(res.status).toBe(422);
        expect(res.body).toEqual(expected);
      }
    });

    it("refuses characters other than letters, digits, underscore and dot with 422 username is invalid", async () => {
      for (const username of ["has space", "dash-ed", "at@sign", "ünï", "emoji😀x"]) {
        const res = await client().post("/sign-up/email", { name: "N", email: uniqueEmail(), password: PASSWORD, username });
        expect(res.status, username).toBe(422);
        expect(res.body).toEqual(INVALID);
      }
    });

    it("refuses a username taken in any case with 422, and creates no user", async () => {
      const username = uniqueUsername();
      await signUp(client(), { username });
      const email = uniqueEmail();
      const res = await client().post("/sign-up/email", {
        name: "N",
        email,
        password: PASSWORD,
        username: username.toUpperCase(),
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(TAKEN);
      expect(await server.gatehouse.runtime.stores.users.findUserByEmail(email)).toBeNull();
    });

    it("lets only one of two racing sign-ups take a username", async () => {
      const username = uniqueUsername();
      const results = await Promise.all(
        [1, 2, 3].map(() => client().post("/sign-up/email", { name: "R", email: uniqueEmail(), password: PASSWORD, username })),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const loser of results.filter((r) => r.status !== 200)) {
        expect(loser.status).toBe(422);
        expect(loser.body).toEqual(TAKEN);
      }
    });
  });

  describe("POST /sign-in/username", () => {
    it("signs in by username in any case and answers like /sign-in/email", async () => {
      const username = uniqueUsername();
      const { email } = await signUp(client(), { username });
      const c = client();
      const res = await c.post("/sign-in/username", { username: username.toUpperCase(), password: PASSWORD });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ redirect: false, user: { email, username: username.toLowerCase() } });
      expect(res.body.url).toBeUndefined();
      expect(res.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(res.setCookies.some((x) => x.startsWith("better-auth.session_token="))).toBe(true);
      expect((await c.get("/get-session")).body.session.token).toBe(res.body.token);
    });

    it("with callbackURL answers redirect true, the url and a Location header; rememberMe false marks the session", async () => {
      const username = uniqueUsername();
      await signUp(client(), { username });
      const res = await client().post("/sign-in/username", {
        username,
        password: PASSWORD,
        callbackURL: "/home",
        rememberMe: false,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ redirect: true, url: "/home" });
      expect(res.headers.get("location")).toBe("/home");
      expect(res.setCookies.some((x) => x.startsWith("better-auth.dont_remember="))).toBe(true);
    });

    it("answers the same 401 for a wrong password, an unknown username and a user without a password, at one hash each", async () => {
      const username = uniqueUsername();
      await signUp(client(), { username });
      const passwordless = uniqueUsername();
      const now = new Date();
      await server.gatehouse.runtime.stores.users.createUser({
        id: generateId(),
        name: "No Password",
        email: uniqueEmail(),
        emailVerified: true,
        image: null,
        createdAt: now,
        updatedAt: now,
        username: passwordless.toLowerCase(),
      });
      for (const attempt of [
        { username, password: "wrong password" },
        { username: uniqueUsername(), password: PASSWORD },
        { username: passwordless, password: PASSWORD },
      ]) {
        const before = counts.verify;
        const res = await client().post("/sign-in/username", attempt);
        expect(res.status).toBe(401);
        expect(res.body).toEqual(BAD_CREDENTIALS);
        expect(res.setCookies).toHaveLength(0);
        expect(counts.verify - before).toBe(1);
      }
    });

    it("answers 422 for a malformed username and 400 for a too-long password, before any hash", async () => {
      const before = counts.verify;
      const bad = await client().post("/sign-in/username", { username: "no spaces allowed", password: PASSWORD });
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual(INVALID);
      const short = await client().post("/sign-in/username", { username: "ab", password: PASSWORD });
      expect(short.body).toEqual(TOO_SHORT);
      const long = await client().post("/sign-in/username", { username: uniqueUsername(), password: "p".repeat(129) });
      expect(long.status).toBe(400);
      expect(long.body.code).toBe("PASSWORD_TOO_LONG");
      expect(counts.verify).toBe(before);
    });

    it("answers 400 VALIDATION_ERROR without a username or password", async () => {
      for (const body of [{}, { username: "someone" }, { password: PASSWORD }, { username: 5, password: PASSWORD }]) {
        const res = await client().post("/sign-in/username", body);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe("VALIDATION_ERROR");
      }
    });
  });

  describe("POST /is-username-available", () => {
    it("answers true for a free username and false for a taken one in any case", async () => {
      const username = uniqueUsername();
      expect((await client().post("/is-username-available", { username })).body).toEqual({ available: true });
      await signUp(client(), { username });
      for (const asked of [username, username.toLowerCase(), username.toUpperCase()]) {
        const res = await client().post("/is-username-available", { username: asked });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ available: false });
      }
    });

    it("answers 422 for a username that breaks the rules", async () => {
      for (const [username, expected] of [
        ["ab", TOO_SHORT],
        ["x".repeat(31), TOO_LONG],
        ["no/slash", INVALID],
      ] as const) {
        const res = await client().post("/is-username-available", { username });
        expect(res.status).toBe(422);
        expect(res.body).toEqual(expected);
      }
    });
  });

  describe("POST /update-user with username fields", () => {
    it("sets a username (lower case) and its display form, and re-issues the session cookie", async () => {
      const c = client();
      await signUp(c);
      const username = uniqueUsername();
      const res = await c.post("/update-user", { username });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: true });
      expect(res.setCookies.some((x) => x.startsWith("better-auth.session_token="))).toBe(true);
      const session = await c.get("/get-session");
      expect(session.body.user).toMatchObject({ username: username.toLowerCase(), displayUsername: username });
    });

    it("changes the display username alone, and accepts the user's own username in another case", async () => {
      const c = client();
      const username = uniqueUsername();
      await signUp(c, { username });
      expect((await c.post("/update-user", { displayUsername: "Shown Name" })).status).toBe(200);
      expect((await c.post("/update-user", { username: username.toUpperCase() })).status).toBe(200);
      const { user } = (await c.get("/get-session")).body;
      expect(user).toMatchObject({ username: username.toLowerCase(), displayUsername: username.toUpperCase() });
    });

    it("refuses another user's username and a malformed one with 422", async () => {
      const taken = uniqueUsername();
      await signUp(client(), { username: taken });
      const c = client();
      await signUp(c);
      const clash = await c.post("/update-user", { username: taken.toLowerCase() });
      expect(clash.status).toBe(422);
      expect(clash.body).toEqual(TAKEN);
      const bad = await c.post("/update-user", { username: "x" });
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual(TOO_SHORT);
    });
  });
});

describe.each(DIALECTS)("usernames with options and email verification on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, {
      username: { minUsernameLength: 5, maxUsernameLength: 8 },
      emailAndPassword: { requireEmailVerification: true },
    });
  });
  afterAll(async () => server?.close());
  const client = () => new TestClient(server.base);

  it("applies minUsernameLength and maxUsernameLength", async () => {
    for (const [username, expected] of [
      ["abcd", TOO_SHORT],
      ["abcdefghi", TOO_LONG],
    ] as const) {
      const res = await client().post("/is-username-available", { username });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(expected);
    }
    expect((await client().post("/is-username-available", { username: "abcde" })).body).toEqual({ available: true });
  });

  it("refuses an unverified user with 403 email not verified, and signs them in once verified", async () => {
    const username = `v${(counter++).toString().padStart(4, "0")}`;
    const email = uniqueEmail();
    const signUpRes = await client().post("/sign-up/email", { name: "V", email, password: PASSWORD, username });
    expect(signUpRes.status).toBe(200);
    expect(signUpRes.body.token).toBeNull();
    const refused = await client().post("/sign-in/username", { username, password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: "EMAIL_NOT_VERIFIED", message: "email not verified" });
    // No session; only the registrant cookie (the password was right: a verification link opened here keeps it).
    expect(refused.setCookies.map((line) => line.split("=")[0])).toEqual(["better-auth.registrant"]);
    const stores = server.gatehouse.runtime.stores.users;
    const user = await stores.findUserByEmail(email);
    await stores.updateUser(user!.id, { emailVerified: true, updatedAt: new Date() });
    expect((await client().post("/sign-in/username", { username, password: PASSWORD })).status).toBe(200);
  });
});

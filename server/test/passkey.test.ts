import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, resolveConfig, type GatehouseOptions } from "../src/config/index.js";
import { resetModuleCredentials } from "../src/user/credentials-reset.js";
import { manualClock } from "./helpers/clock.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { SoftAuthenticator } from "./helpers/soft-authenticator.js";

/**
 * #15 item 5 (passkeys) and item 7's passkey half (step-up to delete one), through the HTTP API with a software
 * authenticator (helpers/soft-authenticator.ts) that signs what a browser's would.
 */
const CHALLENGE_COOKIE = "better-auth.better-auth-passkey";
const SESSION_COOKIE = "better-auth.session_token";
const MINUTE = 60_000;
const DAY = 86_400_000;

describe.each(DIALECTS)("passkeys on %s", (dialect) => {
  let server: TestServer;
  let origin: string;
  const clock = manualClock();

  beforeAll(async () => {
    server = await startTestServer(dialect, { user: { deleteUser: { enabled: true } } }, { now: clock.now });
    origin = new URL(server.url).origin;
  });
  afterAll(async () => server?.close());
  afterEach(() => clock.reset());

  const client = () => new TestClient(server.base);
  const stores = () => server.gatehouse.runtime.stores;

  /** A signed-up user (fresh session) and an authenticator of theirs. */
  async function person() {
    const c = client();
    const { email, user } = await signUp(c);
    return { c, email, user, authenticator: new SoftAuthenticator(origin) };
  }

  async function registerPasskey(
    c: TestClient,
    authenticator: SoftAuthenticator,
    body: Record<string, unknown> = {},
    opts: Parameters<SoftAuthenticator["createCredential"]>[1] = {},
  ) {
    const options = await c.get("/passkey/generate-register-options");
    expect(options.status).toBe(200);
    const response = authenticator.createCredential(options.body, opts);
    return c.post("/passkey/verify-registration", { response, ...body });
  }

  async function signInWithPasskey(authenticator: SoftAuthenticator, opts: Parameters<SoftAuthenticator["getAssertion"]>[1] = {}, c = client()) {
    const options = await c.get("/passkey/generate-authenticate-options");
    expect(options.status).toBe(200);
    const response = authenticator.getAssertion(options.body, opts);
    return { c, res: await c.post("/passkey/verify-authentication", { response }) };
  }

  async function signInWithPassword(email: string) {
    const c = client();
    const res = await c.post("/sign-in/email", { email, password: PASSWORD });
    expect(res.status).toBe(200);
    return c;
  }

  describe("registration", () => {
    it("gives WebAuthn options from configuration, with one stable user handle, and a 5-minute challenge cookie", async () => {
      const { c, user } = await person();
      const first = await c.get("/passkey/generate-register-options");
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        rp: { name: "Gatehouse", id: "127.0.0.1" },
        user: { name: user.email, displayName: user.name },
        attestation: "none",
        timeout: 60000,
        excludeCredentials: [],
        authenticatorSelection: { residentKey: "preferred", userVerification: "preferred", requireResidentKey: false },
        extensions: { credProps: true },
      });
      expect(first.body.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // A random handle: not the user's id, in any encoding.
      expect(Buffer.from(first.body.user.id, "base64url")).toHaveLength(32);
      expect(first.body.user.id).not.toContain(Buffer.from(user.id).toString("base64url"));
      const cookie = first.setCookies.find((line) => line.startsWith(`${CHALLENGE_COOKIE}=`));
      expect(cookie).toMatch(/Max-Age=300/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);

      const second = await c.get("/passkey/generate-register-options?authenticatorAttachment=platform");
      expect(second.body.user.id).toBe(first.body.user.id);
      expect(second.body.challenge).not.toBe(first.body.challenge);
      expect(second.body.authenticatorSelection.authenticatorAttachment).toBe("platform");
    });

    it("registers a passkey from a fresh session, lists it, and excludes it from the next registration", async () => {
      const { c, user, authenticator } = await person();
      const res = await registerPasskey(c, authenticator, { name: "  Laptop  " });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(
        ["aaguid", "backedUp", "counter", "createdAt", "credentialID", "deviceType", "id", "name", "publicKey", "transports", "userId"].sort(),
      );
      const credentialID = [...authenticator.credentials.keys()][0];
      expect(res.body).toMatchObject({
        name: "Laptop",
        userId: user.id,
        credentialID,
        counter: 0,
        deviceType: "singleDevice",
        backedUp: false,
        transports: "internal,hybrid",
        aaguid: "00000000-0000-0000-0000-000000000000",
      });
      // Better Auth's encoding: standard base64 of the COSE key.
      expect(res.body.publicKey).toMatch(/^[A-Za-z0-9+/]+=*$/);
      // The challenge cookie is cleared once used.
      expect(res.setCookies.find((line) => line.startsWith(`${CHALLENGE_COOKIE}=`))).toMatch(/Max-Age=0/);

      const list = await c.get("/passkey/list-user-passkeys");
      expect(list.status).toBe(200);
      expect(list.body).toEqual([res.body]);

      const next = await c.get("/passkey/generate-register-options");
      expect(next.body.excludeCredentials).toEqual([{ id: credentialID, type: "public-key", transports: ["internal", "hybrid"] }]);
    });

    it("refuses a session that is not fresh (403 SESSION_IS_NOT_FRESH), for the options and the answer", async () => {
      const { c, authenticator } = await person();
      clock.advance(DAY + MINUTE);
      const options = await c.get("/passkey/generate-register-options");
      expect(options.status).toBe(403);
      expect(options.body).toEqual({ code: "SESSION_IS_NOT_FRESH", message: "Session is not fresh" });
      clock.reset();

      const fresh = await c.get("/passkey/generate-register-options");
      const response = authenticator.createCredential(fresh.body);
      clock.advance(DAY + MINUTE);
      const late = await c.post("/passkey/verify-registration", { response });
      expect(late.status).toBe(403);
      expect(late.body.code).toBe("SESSION_IS_NOT_FRESH");
      clock.reset();
      expect((await c.get("/passkey/list-user-passkeys")).body).toEqual([]);
    });

    it("is signed in only: 401 without a session", async () => {
      const res = await client().get("/passkey/generate-register-options");
      expect(res.status).toBe(401);
      expect((await client().get("/passkey/list-user-passkeys")).status).toBe(401);
    });

    it("refuses an answer from another origin or for another RP ID, and registers nothing", async () => {
      const { c, authenticator } = await person();
      for (const opts of [{ origin: "https://evil.example" }, { origin: "http://127.0.0.1:1" }, { rpId: "evil.example" }]) {
        const res = await registerPasskey(c, authenticator, {}, opts);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: "FAILED_TO_VERIFY_REGISTRATION", message: "Failed to verify registration" });
      }
      expect((await c.get("/passkey/list-user-passkeys")).body).toEqual([]);
    });

    it("binds the challenge to the session that asked for it", async () => {
      const { c, email, authenticator } = await person();
      const options = await c.get("/passkey/generate-register-options");
      // The same browser signs in again: the challenge cookie stays, the session is another one.
      expect((await c.post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
      const res = await c.post("/passkey/verify-registration", { response: authenticator.createCredential(options.body) });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY");

      // Another user's browser carrying this user's challenge cookie gets nowhere either.
      const other = await person();
      const stolen = await c.get("/passkey/generate-register-options");
      other.c.jar.set(CHALLENGE_COOKIE, c.jar.get(CHALLENGE_COOKIE)!);
      const theirs = await other.c.post("/passkey/verify-registration", {
        response: other.authenticator.createCredential(stolen.body),
      });
      expect(theirs.status).toBe(401);
      expect(theirs.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY");
    });

    it("refuses a credential registered already (to anyone): 400 PREVIOUSLY_REGISTERED", async () => {
      const first = await person();
      expect((await registerPasskey(first.c, first.authenticator)).status).toBe(200);
      const credentialId = [...first.authenticator.credentials.keys()][0];
      const second = await person();
      const res = await registerPasskey(second.c, second.authenticator, {}, { credentialId });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "PREVIOUSLY_REGISTERED", message: "Previously registered" });
      expect((await second.c.get("/passkey/list-user-passkeys")).body).toEqual([]);
    });

    it("answers a clear 400 to hostile bodies, never a 500", async () => {
      const { c, authenticator } = await person();
      const options = await c.get("/passkey/generate-register-options");
      const good = authenticator.createCredential(options.body);
      const bodies = [
        {},
        { response: "x" },
        { response: { ...good, type: "private-key" } },
        { response: { ...good, response: { ...good.response, clientDataJSON: "%%%" } } },
        { response: { ...good, id: "x".repeat(5000) } },
      ];
      for (const body of bodies) {
        const res = await c.post("/passkey/verify-registration", body);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe("VALIDATION_ERROR");
      }
      // Well-formed but wrong inside: not JSON in clientDataJSON, a garbage attestation.
      await c.get("/passkey/generate-register-options");
      const broken = await c.post("/passkey/verify-registration", {
        response: { ...good, response: { ...good.response, clientDataJSON: "bm90LWpzb24" } },
      });
      expect(broken.status).toBe(400);
      expect(broken.body.code).toBe("FAILED_TO_VERIFY_REGISTRATION");
      const again = await c.get("/passkey/generate-register-options");
      const garbage = authenticator.createCredential(again.body);
      const res = await c.post("/passkey/verify-registration", {
        response: { ...garbage, response: { ...garbage.response, attestationObject: "AAAA" } },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("FAILED_TO_VERIFY_REGISTRATION");
    });
  });

  describe("sign-in", () => {
    it("signs in with a discoverable passkey: no allowCredentials, {session, user} and the session cookie", async () => {
      const { c, user, authenticator } = await person();
      expect((await registerPasskey(c, authenticator)).status).toBe(200);

      const browser = client();
      const options = await browser.get("/passkey/generate-authenticate-options");
      expect(options.status).toBe(200);
      expect(options.body).toMatchObject({ rpId: "127.0.0.1", userVerification: "preferred", timeout: 60000 });
      expect(options.body).not.toHaveProperty("allowCredentials");
      expect(browser.cookie(CHALLENGE_COOKIE)).toBeDefined();

      const res = await browser.post("/passkey/verify-authentication", { response: authenticator.getAssertion(options.body) });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(["session", "user"]);
      expect(res.body.user).toMatchObject({ id: user.id, email: user.email });
      expect(res.body.session.userId).toBe(user.id);
      expect(browser.cookie(SESSION_COOKIE)).toBeDefined();
      expect(browser.cookie(CHALLENGE_COOKIE)).toBeUndefined();
      expect(res.setCookies.find((line) => line.startsWith("better-auth.last_used_login_method="))).toMatch(/=passkey;/);

      const session = await browser.get("/get-session");
      expect(session.body.user.id).toBe(user.id);
      const stored = await stores().sessions.findSessionAndUser(res.body.session.token);
      expect(stored?.session.loginMethod).toBe("passkey");
      // The counter moved.
      expect((await c.get("/passkey/list-user-passkeys")).body[0].counter).toBe(1);
    });

    it("lists a signed-in user's own passkeys in allowCredentials, and refuses another user's passkey to them", async () => {
      const { c, authenticator } = await person();
      expect((await registerPasskey(c, authenticator)).status).toBe(200);
      const options = await c.get("/passkey/generate-authenticate-options");
      expect(options.body.allowCredentials).toEqual([
        { id: [...authenticator.credentials.keys()][0], type: "public-key", transports: ["internal", "hybrid"] },
      ]);

      const other = await person();
      expect((await registerPasskey(other.c, other.authenticator)).status).toBe(200);
      const again = await c.get("/passkey/generate-authenticate-options");
      const res = await c.post("/passkey/verify-authentication", {
        response: other.authenticator.getAssertion({ ...again.body, allowCredentials: [] }),
      });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("AUTHENTICATION_FAILED");
    });

    it("signs in without user verification too (a user without a second factor)", async () => {
      const { c, user, authenticator } = await person();
      expect((await registerPasskey(c, authenticator)).status).toBe(200);
      const { res } = await signInWithPasskey(authenticator, { userVerified: false });
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(user.id);
    });

    it("refuses a signature counter that does not increase, and keeps the stored one", async () => {
      const { c, authenticator } = await person();
      expect((await registerPasskey(c, authenticator)).status).toBe(200);
      expect((await signInWithPasskey(authenticator, { counter: 5 })).res.status).toBe(200);
      for (const counter of [5, 4, 0]) {
        const { res, c: browser } = await signInWithPasskey(authenticator, { counter });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: "AUTHENTICATION_FAILED", message: "Authentication failed" });
        expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
      }
      expect((await c.get("/passkey/list-user-passkeys")).body[0].counter).toBe(5);
      expect((await signInWithPasskey(authenticator, { counter: 6 })).res.status).toBe(200);
      expect((await c.get("/passkey/list-user-passkeys")).body[0].counter).toBe(6);
    });

    it("accepts an authenticator that keeps no counter (always 0), and checks the counter once one appears", async () => {
      const { c } = await person();
      const authenticator = new SoftAuthenticator(origin, 0);
      expect((await registerPasskey(c, authenticator)).status).toBe(200);
      for (let i = 0; i < 2; i++) expect((await signInWithPasskey(authenticator)).res.status).toBe(200);
      expect((await c.get("/passkey/list-user-passkeys")).body[0].counter).toBe(0);
      // A counter that starts moving is stored, and from then on 0 (or less than it) is refused.
      expect((await signInWithPasskey(authenticator, { counter: 3 })).res.status).toBe(200);
      expect((await c.get("/passkey/list-user-passkeys")).body[0].counter).toBe(3);
      expect((await signInWithPasskey(authenticator, { counter: 0 })).res.status).toBe(400);
      expect((await c.get("/passkey/list-user-passkeys")).body[0].counter).toBe(3);
    });

    it("refuses an expired challenge (5 minutes), and takes one just before", async () => {
      const { c, authenticator } = await person();
      expect((await registerPasskey(c, authenticator)).status).toBe(200);

      const late = client();
      const options = await late.get("/passkey/generate-authenticate-options");
      clock.advance(5 * MINUTE + 1000);
      const res = await late.post("/passkey/verify-authentication", { response: authenticator.getAssertion(options.body) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "CHALLENGE_NOT_FOUND", message: "Challenge not found" });
      expect(late.cookie(SESSION_COOKIE)).toBeUndefined();
      clock.reset();

      const inTime = client();
      const fresh = await inTime.get("/passkey/generate-authenticate-options");
      clock.advance(5 * MINUTE - 5000);
      const ok = await inTime.post("/passkey/verify-authentication", { response: authenticator.getAssertion(fresh.body) });
      expect(ok.status).toBe(200);
    });

    it("refuses an expired registration challenge", async () => {
      const { c, authenticator } = await person();
      const options = await c.get("/passkey/generate-register-options");
      clock.advance(5 * MINUTE + 1000);
      const res = await c.post("/passkey/verify-registration", { response: authenticator.createCredential(options.body) });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("CHALLENGE_NOT_FOUND");
      clock.reset();
      expect((await c.get("/passkey/list-user-passkeys")).body).toEqual([]);
    });

    it("binds a challenge to its ceremony: a registration challenge cannot sign in, nor an authentication one register", async () => {
      const { c, authenticator } = await person();
      expect((await registerPasskey(c, authenticator)).status).toBe(200);

      // The registration ceremony's challenge (and cookie), answered with an assertion over it.
      const registration = await c.get("/passkey/generate-register-options");
      const crossed = await c.post("/passkey/verify-authentication", {
        response: authenticator.getAssertion({ challenge: registration.body.challenge, rpId: "127.0.0.1" }),
      });
      expect(crossed.status).toBe(400);
      expect(crossed.body.code).toBe("CHALLENGE_NOT_FOUND");

      // The authentication ceremony's challenge, answered with a new credential over it.
      const authentication = await c.get("/passkey/generate-authenticate-options");
      const other = new SoftAuthenticator(origin);
      const reversed = await c.post("/passkey/verify-registration", {
        response: other.createCredential({
          challenge: authentication.body.challenge,
          rp: { id: "127.0.0.1" },
          user: { id: registration.body.user.id },
        }),
      });
      expect(reversed.status).toBe(400);
      expect(reversed.body.code).toBe("CHALLENGE_NOT_FOUND");
      expect((await c.get("/passkey/list-user-passkeys")).body).toHaveLength(1);
    });

    it("gives exactly one success to twenty concurrent answers to one challenge", async () => {
      const { c, authenticator } = await person();
      expect((await registerPasskey(c, authenticator)).status).toBe(200);
      const browser = client();
      const options = await browser.get("/passkey/generate-authenticate-options");
      const response = authenticator.getAssertion(options.body);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => browser.post("/passkey/verify-authentication", { response })),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 400 && r.body.code === "CHALLENGE_NOT_FOUND")).toHaveLength(19);
    });

    it("refuses an assertion made on another origin or for another RP ID", async () => {
      const { c, authenticator } = await person();
      expect((await registerPasskey(c, authenticator)).status).toBe(200);
      for (const opts of [{ origin: "https://evil.example" }, { origin: "null" }, { rpId: "evil.example" }]) {
        const { res, c: browser } = await signInWithPasskey(authenticator, opts);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe("AUTHENTICATION_FAILED");
        expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
      }
    });

    it("refuses a forged signature, an unknown credential and a missing challenge cookie", async () => {
      const { c, authenticator } = await person();
      expect((await registerPasskey(c, authenticator)).status).toBe(200);

      const browser = client();
      const options = await browser.get("/passkey/generate-authenticate-options");
      const good = authenticator.getAssertion(options.body);
      const impostor = new SoftAuthenticator(origin);
      // Same credential id and user handle, another key: only the signature gives it away.
      impostor.createCredential(
        { challenge: "x", rp: { id: "127.0.0.1" }, user: { id: good.response.userHandle } },
        { credentialId: good.id },
      );
      const forged = impostor.getAssertion(options.body, { credentialId: good.id, counter: 50 });
      const res = await browser.post("/passkey/verify-authentication", { response: forged });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("AUTHENTICATION_FAILED");

      const unknown = new SoftAuthenticator(origin);
      unknown.createCredential({ challenge: "x", rp: { id: "127.0.0.1" }, user: { id: "AAAA" } });
      const stranger = client();
      const strangerOptions = await stranger.get("/passkey/generate-authenticate-options");
      const notFound = await stranger.post("/passkey/verify-authentication", { response: unknown.getAssertion(strangerOptions.body) });
      expect(notFound.status).toBe(401);
      expect(notFound.body.code).toBe("PASSKEY_NOT_FOUND");

      const noCookie = await client().post("/passkey/verify-authentication", { response: good });
      expect(noCookie.status).toBe(400);
      expect(noCookie.body.code).toBe("CHALLENGE_NOT_FOUND");

      const forgedCookie = client();
      forgedCookie.jar.set(CHALLENGE_COOKIE, "A".repeat(32) + ".x");
      const withForgedCookie = await forgedCookie.post("/passkey/verify-authentication", { response: good });
      expect(withForgedCookie.status).toBe(400);
      expect(withForgedCookie.body.code).toBe("CHALLENGE_NOT_FOUND");

      for (const body of [{}, { response: { ...good, response: { ...good.response, signature: "***" } } }]) {
        const bad = await client().post("/passkey/verify-authentication", body);
        expect(bad.status).toBe(400);
        expect(bad.body.code).toBe("VALIDATION_ERROR");
      }
    });
  });

  describe("rename and delete", () => {
    it("renames the user's own passkey only; another user's is not found and stays as it was", async () => {
      const { c, authenticator } = await person();
      const created = (await registerPasskey(c, authenticator, { name: "Phone" })).body;
      const renamed = await c.post("/passkey/update-passkey", { id: created.id, name: "  Work phone " });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ passkey: { ...created, name: "Work phone" } });

      expect((await c.post("/passkey/update-passkey", { id: created.id, name: "   " })).body.code).toBe("VALIDATION_ERROR");

      const intruder = await person();
      const theirs = await intruder.c.post("/passkey/update-passkey", { id: created.id, name: "Mine now" });
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual({ code: "PASSKEY_NOT_FOUND", message: "Passkey not found" });
      const deleting = await intruder.c.post("/passkey/delete-passkey", { id: created.id, password: PASSWORD });
      expect(deleting.status).toBe(404);
      expect(deleting.body.code).toBe("PASSKEY_NOT_FOUND");
      expect((await intruder.c.get("/passkey/list-user-passkeys")).body).toEqual([]);
      expect((await c.get("/passkey/list-user-passkeys")).body).toEqual([{ ...created, name: "Work phone" }]);
    });

    it("deletes a passkey registered in the same fresh session without the password", async () => {
      const { c, authenticator } = await person();
      const created = (await registerPasskey(c, authenticator)).body;
      const res = await c.post("/passkey/delete-passkey", { id: created.id });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: true });
      expect((await c.get("/passkey/list-user-passkeys")).body).toEqual([]);
      const again = await c.post("/passkey/delete-passkey", { id: created.id });
      expect(again.status).toBe(404);
    });

    it("a password session deletes a passkey it did not register only with the password", async () => {
      const { c, email, authenticator } = await person();
      const created = (await registerPasskey(c, authenticator)).body;
      const other = await signInWithPassword(email);

      const without = await other.post("/passkey/delete-passkey", { id: created.id });
      expect(without.status).toBe(403);
      expect(without.body).toEqual({
        code: "PASSWORD_REQUIRED_TO_DELETE_THIS_PASSKEY",
        message: "Password required to delete this passkey",
      });
      const wrong = await other.post("/passkey/delete-passkey", { id: created.id, password: "not the password" });
      expect(wrong.status).toBe(400);
      expect(wrong.body.code).toBe("INVALID_PASSWORD");
      expect((await other.get("/passkey/list-user-passkeys")).body).toHaveLength(1);

      const right = await other.post("/passkey/delete-passkey", { id: created.id, password: PASSWORD });
      expect(right.status).toBe(200);
      expect((await other.get("/passkey/list-user-passkeys")).body).toEqual([]);
    });

    it("a session signed in with a passkey deletes another passkey without the password", async () => {
      const { c, authenticator } = await person();
      const first = (await registerPasskey(c, authenticator)).body;
      const second = (await registerPasskey(c, new SoftAuthenticator(origin))).body;
      const { c: passkeySession, res } = await signInWithPasskey(authenticator, { credentialId: first.credentialID });
      expect(res.status).toBe(200);
      const deleted = await passkeySession.post("/passkey/delete-passkey", { id: second.id });
      expect(deleted.status).toBe(200);
      expect((await c.get("/passkey/list-user-passkeys")).body.map((p: { id: string }) => p.id)).toEqual([first.id]);
    });

    it("a session that is not fresh needs the password, even for a passkey it registered", async () => {
      const { c, authenticator } = await person();
      const created = (await registerPasskey(c, authenticator)).body;
      clock.advance(DAY + MINUTE);
      const stale = await c.post("/passkey/delete-passkey", { id: created.id });
      expect(stale.status).toBe(403);
      expect(stale.body.code).toBe("SESSION_IS_NOT_FRESH");
      const withPassword = await c.post("/passkey/delete-passkey", { id: created.id, password: PASSWORD });
      expect(withPassword.status).toBe(200);
    });
  });

  describe("when the account changes hands or goes", () => {
    it("mailbox-proven (the owner of the address took over an unverified account) removes the passkeys", async () => {
      const { c, user, authenticator } = await person();
      expect((await registerPasskey(c, authenticator)).status).toBe(200);
      const handle = (await c.get("/passkey/generate-register-options")).body.user.id;
      const runtime = server.gatehouse.runtime;
      await runtime.stores.transaction((tx) => resetModuleCredentials(runtime, tx, user.id, "password-changed"));
      expect((await c.get("/passkey/list-user-passkeys")).body).toHaveLength(1);
      await runtime.stores.transaction((tx) => resetModuleCredentials(runtime, tx, user.id, "mailbox-proven"));
      expect((await c.get("/passkey/list-user-passkeys")).body).toEqual([]);
      const { res } = await signInWithPasskey(authenticator);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("PASSKEY_NOT_FOUND");
      // The next passkey is registered under a new user handle.
      expect((await c.get("/passkey/generate-register-options")).body.user.id).not.toBe(handle);
    });

    it("deleting the user deletes their passkeys", async () => {
      const { c, authenticator } = await person();
      const created = (await registerPasskey(c, authenticator)).body;
      const deleted = await c.post("/delete-user", { password: PASSWORD });
      expect(deleted.status).toBe(200);
      expect(await stores().passkeys.findPasskeyByCredentialID(created.credentialID)).toBeNull();
    });
  });

  it("takes the RP ID and the expected origins from passkey.rpID and passkey.origin, never from the request", async () => {
    const appOrigin = "https://app.example.com";
    const configured = await startTestServer(dialect, { passkey: { rpID: "example.com", origin: [appOrigin, "https://*.example.org"] } });
    try {
      const c = new TestClient(configured.base);
      await signUp(c);
      const authenticator = new SoftAuthenticator(appOrigin);
      const options = await c.get("/passkey/generate-register-options");
      expect(options.body.rp.id).toBe("example.com");
      // The service's own origin is not on the configured list, whatever the request's Origin header says.
      const fromServiceOrigin = await c.post(
        "/passkey/verify-registration",
        { response: authenticator.createCredential(options.body, { origin: new URL(configured.url).origin }) },
      );
      expect(fromServiceOrigin.body.code).toBe("FAILED_TO_VERIFY_REGISTRATION");
      const again = await c.get("/passkey/generate-register-options");
      const registered = await c.post("/passkey/verify-registration", { response: authenticator.createCredential(again.body) });
      expect(registered.status).toBe(200);

      const browser = new TestClient(configured.base);
      const signInOptions = await browser.get("/passkey/generate-authenticate-options");
      expect(signInOptions.body.rpId).toBe("example.com");
      const viaPattern = await browser.post("/passkey/verify-authentication", {
        response: authenticator.getAssertion(signInOptions.body, {
          origin: "https://login.example.org",
          credentialId: registered.body.credentialID,
        }),
      });
      expect(viaPattern.status).toBe(200);
      const other = new TestClient(configured.base);
      const otherOptions = await other.get("/passkey/generate-authenticate-options");
      const evil = await other.post("/passkey/verify-authentication", {
        response: authenticator.getAssertion(otherOptions.body, { origin: "https://evil.example", credentialId: registered.body.credentialID }),
      });
      expect(evil.status).toBe(400);
      expect(evil.body.code).toBe("AUTHENTICATION_FAILED");
    } finally {
      await configured.close();
    }
  });

  it("limits the verify routes with rateLimit.enabled (the credential rule: 3 per 10 s per client)", async () => {
    const limited = await startTestServer(dialect, { rateLimit: { enabled: true } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await new TestClient(limited.base).post("/passkey/verify-authentication", { response: {} })).status);
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
    } finally {
      await limited.close();
    }
  });

  it("answers 404 on every passkey route when passkey.enabled is false", async () => {
    const off = await startTestServer(dialect, { passkey: { enabled: false } });
    try {
      const c = new TestClient(off.base);
      expect((await c.get("/features")).body.passkey).toEqual({ enabled: false });
      expect((await client().get("/features")).body.passkey).toEqual({ enabled: true });
      await signUp(c, { email: uniqueEmail("off") });
      expect((await c.get("/passkey/generate-register-options")).status).toBe(404);
      expect((await c.get("/passkey/generate-authenticate-options")).status).toBe(404);
      expect((await c.get("/passkey/list-user-passkeys")).status).toBe(404);
      expect((await c.post("/passkey/verify-authentication", { response: {} })).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe("passkey options", () => {
  const resolve = (passkey: unknown) => resolveConfig({ secret: "x".repeat(32), passkey } as GatehouseOptions, { nodeEnv: "test" });

  it("defaults: on, named Gatehouse, RP ID and origins left to BASE_URL and trustedOrigins, UV preferred", () => {
    expect(resolve(undefined).passkey).toEqual({
      enabled: true,
      rpName: "Gatehouse",
      authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
    });
    expect(resolve({ origin: "https://app.example.com" }).passkey.origin).toEqual(["https://app.example.com"]);
  });

  it("refuses an origin with a path, a non-origin, or an RP ID that is no domain name", () => {
    for (const bad of [{ origin: "https://app.example.com/login" }, { origin: ["not a url"] }, { origin: [] }, { rpID: "Example.COM" }, { rpID: "https://example.com" }]) {
      expect(() => resolve(bad), JSON.stringify(bad)).toThrow(ConfigError);
    }
    expect(() => resolve({ rpID: "example.com", origin: ["https://*.example.com", "https://example.com:8443"] })).not.toThrow();
  });
});

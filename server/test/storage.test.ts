import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateId } from "../src/crypto/random.js";
import { createStores, migrateDatabase, type Stores } from "../src/modules.js";
import type { DatabaseHandle } from "../src/storage/index.js";
import type { Account, Session, User } from "../src/storage/models.js";
import { DIALECTS } from "./helpers/databases.js";
import { openMigratedStorage, userRecord, type MigratedStorage } from "./helpers/storage.js";
import { insertNewUser } from "../src/storage/new-user.js";
import { isUniqueViolation } from "../src/storage/constraint-errors.js";

/** One conformance suite: every storage backend must pass it unchanged. */
describe.each(DIALECTS)("storage conformance on %s", (dialect) => {
  let storage: MigratedStorage;
  let handle: DatabaseHandle;
  let stores: Stores;

  beforeAll(async () => {
    storage = await openMigratedStorage(dialect);
    ({ handle, stores } = storage);
  });
  afterAll(async () => storage?.close());

  const t0 = new Date("2026-01-02T03:04:05.678Z");
  const newUser = (overrides: Partial<User> = {}): User => userRecord(t0, overrides);
  const newSession = (userId: string, overrides: Partial<Session> = {}): Session => ({
    id: generateId(),
    token: generateId(),
    userId,
    expiresAt: new Date(Date.now() + 3_600_000),
    ipAddress: "",
    userAgent: "vitest",
    createdAt: t0,
    updatedAt: t0,
    activeOrganizationId: null,
    activeTeamId: null,
    impersonatedBy: null,
    loginMethod: null,
    factors: null,
    ...overrides,
  });
  const credential = (userId: string): Account => ({
    id: generateId(),
    accountId: userId,
    providerId: "credential",
    userId,
    accessToken: null,
    refreshToken: null,
    idToken: null,
    accessTokenExpiresAt: null,
    refreshTokenExpiresAt: null,
    scope: null,
    password: "00:11",
    createdAt: t0,
    updatedAt: t0,
  });

  it("applies migrations once: a second run applies nothing", async () => {
    expect(await migrateDatabase(handle)).toEqual([]);
  });

  it.runIf(dialect === "postgres")("indexes the admin list's contains searches with trigrams on PostgreSQL", async () => {
    const { rows } = await sql<{ indexname: string; indexdef: string }>`
      select indexname, indexdef from pg_indexes where schemaname = current_schema() and indexname like '%trgm%'
      order by indexname`.execute(handle.db);
    expect(rows.map((r) => r.indexname)).toEqual([
      "user_email_trgm_idx",
      "user_name_trgm_idx",
      "user_role_trgm_idx",
      "user_username_trgm_idx",
    ]);
    for (const row of rows) expect(row.indexdef).toMatch(/USING gin \(.+gin_trgm_ops\)/);
    // The expressions are the ones user-search.ts matches (lower() only on columns not stored in lower case).
    expect(rows.find((r) => r.indexname === "user_name_trgm_idx")!.indexdef).toContain("lower(name)");
    expect(rows.find((r) => r.indexname === "user_role_trgm_idx")!.indexdef).toContain("lower(role)");
  });

  it("round-trips a user with dates to the millisecond and booleans as booleans", async () => {
    const user = newUser({ emailVerified: true, image: "https://img.example/a.png" });
    await stores.users.createUser(user);
    const found = await stores.users.findUserById(user.id);
    expect(found).toEqual(user);
    expect(found!.createdAt.toISOString()).toBe("2026-01-02T03:04:05.678Z");
    expect(await stores.users.findUserByEmail(user.email)).toEqual(user);
    expect(await stores.users.findUserByEmail("missing@example.com")).toBeNull();
  });

  it("keeps emails unique", async () => {
    const user = newUser();
    await stores.users.createUser(user);
    await expect(stores.users.createUser(newUser({ email: user.email }))).rejects.toThrow();
  });

  it("updates only the given fields and bumps updatedAt", async () => {
    const user = newUser();
    await stores.users.createUser(user);
    const later = new Date(t0.getTime() + 1000);
    const updated = await stores.users.updateUser(user.id, { name: "Hopper", emailVerified: true, updatedAt: later });
    expect(updated).toMatchObject({ name: "Hopper", emailVerified: true, email: user.email, image: null });
    expect(updated!.updatedAt).toEqual(later);
    expect(await stores.users.updateUser("nope", { name: "x", updatedAt: later })).toBeNull();
  });

  it("finds a session with its user by token in one read, and extends it", async () => {
    const user = newUser();
    await stores.users.createUser(user);
    const session = newSession(user.id);
    await stores.sessions.createSession(session);
    const found = await stores.sessions.findSessionAndUser(session.token);
    expect(found).toEqual({ session, user });
    const expiresAt = new Date(Date.now() + 7_200_000);
    expect(await stores.sessions.extendSession(session.token, expiresAt, new Date())).toBe(true);
    expect((await stores.sessions.findSessionAndUser(session.token))!.session.expiresAt).toEqual(expiresAt);
    expect(await stores.sessions.extendSession("gone", expiresAt, new Date())).toBe(false);
    expect(await stores.sessions.findSessionAndUser("gone")).toBeNull();
  });

  it.runIf(dialect === "postgres")("coalesces concurrent session reads into few statements, each answered its own", async () => {
    const user = newUser();
    await stores.users.createUser(user);
    const sessions = Array.from({ length: 40 }, () => newSession(user.id));
    for (const session of sessions) await stores.sessions.createSession(session);
    let statements = 0;
    const counting = createStores(handle.db, {
      dialect,
      preparedQuery: async (name, text, params) => {
        statements++;
        return handle.preparedQuery!(name, text, params);
      },
      coalesceReads: 2,
    });
    // Each token three times, and tokens that name nothing, all at once.
    const asked = [...sessions, ...sessions, ...sessions].map((session) => session.token);
    asked.push("no-such-token", "another-missing-one");
    const found = await Promise.all(asked.map((token) => counting.sessions.findSessionAndUser(token)));
    found.forEach((result, i) => {
      if (i >= sessions.length * 3) expect(result).toBeNull();
      else expect(result?.session).toEqual(sessions[i % sessions.length]);
    });
    expect(statements).toBeLessThan(10);

    // A read that fails fails every request it carried; the next reads go through again.
    const failing = createStores(handle.db, {
      dialect,
      preparedQuery: async (name, text, params) => {
        if (params[0] instanceof Array && params[0].length > 1) throw Object.assign(new Error("gone"), { code: "57P01" });
        return handle.preparedQuery!(name, text, params);
      },
      coalesceReads: 1,
    });
    const results = await Promise.allSettled(sessions.slice(0, 5).map((s) => failing.sessions.findSessionAndUser(s.token)));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "rejected", "rejected", "rejected"]);
    expect((await failing.sessions.findSessionAndUser(sessions[0]!.token))?.session.id).toBe(sessions[0]!.id);
  });

  it("lists unexpired sessions and deletes them per user, optionally sparing one", async () => {
    const user = newUser();
    await stores.users.createUser(user);
    const keep = newSession(user.id);
    const other = newSession(user.id);
    const expired = newSession(user.id, { expiresAt: new Date(Date.now() - 1000) });
    for (const s of [keep, other, expired]) await stores.sessions.createSession(s);
    const listed = await stores.sessions.listUserSessions(user.id, new Date());
    expect(listed.map((s) => s.token).sort()).toEqual([keep.token, other.token].sort());
    expect(await stores.sessions.deleteUserSession("someone-else", keep.token)).toBe(false);
    expect(await stores.sessions.deleteUserSessions(user.id, keep.token)).toBe(2);
    expect((await stores.sessions.listUserSessions(user.id, new Date())).map((s) => s.token)).toEqual([keep.token]);
  });

  it("sweeps expired sessions and verification values", async () => {
    const user = newUser();
    await stores.users.createUser(user);
    const stale = newSession(user.id, { expiresAt: new Date(Date.now() - 1000) });
    await stores.sessions.createSession(stale);
    expect(await stores.sessions.deleteExpiredSessions(new Date())).toBeGreaterThanOrEqual(1);
    expect(await stores.sessions.findSessionAndUser(stale.token)).toBeNull();
    await stores.verifications.createVerification({
      id: generateId(),
      identifier: `sweep-${generateId()}`,
      value: "v",
      expiresAt: new Date(Date.now() - 1000),
      createdAt: t0,
      updatedAt: t0,
    });
    expect(await stores.verifications.deleteExpiredVerifications(new Date())).toBeGreaterThanOrEqual(1);
  });

  it("deleting a user removes their sessions and accounts (cascade)", async () => {
    const user = newUser();
    await stores.users.createUser(user);
    const session = newSession(user.id);
    await stores.sessions.createSession(session);
    await stores.accounts.createAccount(credential(user.id));
    expect(await stores.users.deleteUser(user.id)).toBe(true);
    expect(await stores.sessions.findSessionAndUser(session.token)).toBeNull();
    expect(await stores.accounts.listUserAccounts(user.id)).toEqual([]);
  });

  it("writes a new user with their account and first session all at once, or nothing", async () => {
    const user = newUser();
    const account = credential(user.id);
    const session = newSession(user.id);
    await insertNewUser(handle.db, handle.dialect, { user, account, session });
    expect((await stores.users.findUserAndPassword("email", user.email))?.password).toBe("00:11");
    expect((await stores.sessions.findSessionAndUser(session.token))?.user.id).toBe(user.id);

    // The session's token is taken: neither the user nor the account may stay behind.
    const second = newUser();
    const failing = insertNewUser(handle.db, handle.dialect, {
      user: second,
      account: credential(second.id),
      session: newSession(second.id, { token: session.token }),
    });
    await expect(failing).rejects.toSatisfy(isUniqueViolation);
    expect(await stores.users.findUserById(second.id)).toBeNull();
    expect(await stores.accounts.findCredentialAccount(second.id)).toBeNull();

    // The email is taken (checked at the end of the one statement): no session stays behind.
    const third = newUser({ email: user.email });
    const thirdSession = newSession(third.id);
    await expect(
      insertNewUser(handle.db, handle.dialect, { user: third, account: credential(third.id), session: thirdSession }),
    ).rejects.toSatisfy(isUniqueViolation);
    expect(await stores.sessions.findSessionAndUser(thirdSession.token)).toBeNull();
    expect(await stores.accounts.findCredentialAccount(third.id)).toBeNull();

    // Without a session, and without an account.
    const plain = newUser();
    await insertNewUser(handle.db, handle.dialect, { user: plain, account: credential(plain.id) });
    const bare = newUser();
    await insertNewUser(handle.db, handle.dialect, { user: bare });
    expect((await stores.users.findUserAndPassword("email", plain.email))?.password).toBe("00:11");
    expect(await stores.users.findUserAndPassword("email", bare.email)).toEqual({ user: bare, password: null });
  });

  it("finds a user and their password by email or username in one read", async () => {
    const user = newUser({ username: `u${generateId().slice(0, 10).toLowerCase()}` });
    await stores.users.createUser(user);
    expect(await stores.users.findUserAndPassword("username", user.username!)).toEqual({ user, password: null });
    await stores.accounts.createAccount({ ...credential(user.id), providerId: "github", accountId: "gh-1", password: null });
    await stores.accounts.createAccount(credential(user.id));
    expect(await stores.users.findUserAndPassword("username", user.username!)).toEqual({ user, password: "00:11" });
    expect(await stores.users.findUserAndPassword("email", "nobody@example.com")).toBeNull();
  });

  it("stores accounts and finds the credential one", async () => {
    const user = newUser();
    await stores.users.createUser(user);
    const account = credential(user.id);
    await stores.accounts.createAccount(account);
    expect(await stores.accounts.findCredentialAccount(user.id)).toEqual(account);
    await stores.accounts.updateAccountPassword(account.id, "aa:bb", new Date(t0.getTime() + 5));
    expect((await stores.accounts.findCredentialAccount(user.id))!.password).toBe("aa:bb");
  });

  it("consumes a verification value exactly once, even under concurrent use", async () => {
    const identifier = `reset-password:${generateId()}`;
    await stores.verifications.createVerification({
      id: generateId(),
      identifier,
      value: "user-1",
      expiresAt: new Date(Date.now() + 60_000),
      createdAt: t0,
      updatedAt: t0,
    });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => stores.verifications.consumeVerification(identifier, new Date())),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(results.find(Boolean)!.value).toBe("user-1");
    expect(await stores.verifications.findVerification(identifier)).toBeNull();
  });

  it("does not hand out an expired verification value", async () => {
    const identifier = `reset-password:${generateId()}`;
    await stores.verifications.createVerification({
      id: generateId(),
      identifier,
      value: "user-2",
      expiresAt: new Date(Date.now() - 1),
      createdAt: t0,
      updatedAt: t0,
    });
    expect(await stores.verifications.consumeVerification(identifier, new Date())).toBeNull();
  });

  it("rolls a transaction back whole when one write fails", async () => {
    const user = newUser();
    await expect(
      stores.transaction(async (s) => {
        await s.users.createUser(user);
        await s.accounts.createAccount({ ...credential(user.id), userId: "no-such-user" });
      }),
    ).rejects.toThrow();
    expect(await stores.users.findUserById(user.id)).toBeNull();
  });
});

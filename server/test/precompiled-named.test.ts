import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp, TestClient } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/**
 * storage/precompiled.ts `named`: on PostgreSQL the hot statements of a password sign-in and of its second step run
 * as named prepared statements, parsed once per connection. They name every column they answer, so a column a migration adds to
 * their tables while the service runs does not make PostgreSQL refuse them ("cached plan must not change result
 * type", which a prepared `select *` meets). One connection in the pool, so the statement prepared is the one run.
 */
describe("precompiled statements on PostgreSQL", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer("postgres", { database: { poolSize: 1 } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const stores = () => server.gatehouse.runtime.stores;
  const db = () => server.gatehouse.database.db as any;
  let n = 0;
  const challenge = (userId: string) => {
    const now = new Date();
    return {
      id: `precompiled-test-${++n}`,
      kind: "sign-in" as const,
      userId,
      method: "email",
      factors: [],
      rememberMe: true,
      attempts: 0,
      otpHash: null,
      otpExpiresAt: null,
      expiresAt: new Date(now.getTime() + 60_000),
      createdAt: now,
    };
  };

  it("run as named prepared statements, and keep running once a migration adds columns to their tables", async () => {
    const { user, email } = await signUp(new TestClient(server.base));
    expect((await stores().users.findUserAndPassword("email", email))?.user.id).toBe(user.id);
    const first = challenge(user.id);
    expect(await stores().twoFactorChallenges.createSignInChallenge(first)).toBeNull(); // no twoFactor row
    expect((await stores().twoFactorChallenges.findPendingSignIn(first.id, new Date()))?.user.id).toBe(user.id);
    const prepared = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(db());
    const names = prepared.rows.filter((row) => row.name.startsWith("gh_"));
    expect(names.some((row) => row.statement.includes('insert into "twoFactorChallenge"'))).toBe(true);
    expect(names.some((row) => row.statement.includes('from "twoFactorChallenge" as "c"'))).toBe(true);
    expect(names.some((row) => row.statement.includes('"account"."password" as "credentialPassword"'))).toBe(true);

    // Another deployment's migration, while this one runs.
    await sql`alter table "twoFactor" add column "addedLater" text`.execute(db());
    await sql`alter table "twoFactorChallenge" add column "addedLater" text`.execute(db());
    await sql`alter table "user" add column "addedLater" text`.execute(db());
    const second = challenge(user.id);
    expect(await stores().twoFactorChallenges.createSignInChallenge(second)).toBeNull();
    const pending = await stores().twoFactorChallenges.findPendingSignIn(second.id, new Date());
    expect(pending?.challenge).toMatchObject({ id: second.id, kind: "sign-in", attempts: 0 });
    expect(pending?.user.id).toBe(user.id);
    const found = await stores().users.findUserAndPassword("email", email);
    expect(found?.user).toMatchObject({ id: user.id, email });
    expect(found?.password).toEqual(expect.any(String));
  });
});

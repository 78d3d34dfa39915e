import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OidcRepositories } from "../src/oidc-provider/store/index.js";
import type { StoredPayload } from "../src/oidc-provider/store/models.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/**
 * Every authorization looks up the grant the user holds for the client (store/payloads.ts userClientGrantIds). SQLite
 * keeps no statistics: over an index of (accountId, model) alone its planner took the client's index and walked every
 * code and token ever issued to the client (30 to 50 ms per authorization at 140,000 rows, the event loop held). The
 * lookup must search the index of all three columns (migrations/0020-oidc-grant-lookup-index.ts), whatever the table
 * holds.
 */
describe("the grant lookup of every authorization (SQLite's plan)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite");
  });
  afterAll(async () => {
    await server?.close();
  });

  const payloads = () => (server.gatehouse.runtime.stores as unknown as OidcRepositories).oidcPayloads;
  const row = (model: string, accountId: string, clientId: string, key = `${model}:${randomBytes(12).toString("base64url")}`): StoredPayload => ({
    key,
    model,
    payload: {},
    grantId: "grant-of-many",
    uid: null,
    accountId,
    clientId,
    expiresAt: new Date(Date.now() + 3_600_000),
    consumedAt: null,
  });

  it("finds the user's grant for the client through the index of account, model and client", async () => {
    // Many tokens of one client, of a few users; one grant each for two clients.
    const users = ["user-a", "user-b", "user-c", "user-d"];
    for (let batch = 0; batch < 10; batch++) {
      await payloads().insertTokens(Array.from({ length: 200 }, (_, i) => row(i % 2 ? "AccessToken" : "RefreshToken", users[i % 4]!, "busy-client")));
    }
    await payloads().upsertPayload(row("Grant", "user-a", "busy-client", "Grant:grant-a-busy"));
    await payloads().upsertPayload(row("Grant", "user-a", "other-client", "Grant:grant-a-other"));
    await payloads().upsertPayload(row("Grant", "user-b", "busy-client", "Grant:grant-b-busy"));

    // Expired grants are left out (checked on the rows the index finds: the statement has no expiry condition).
    await payloads().upsertPayload({ ...row("Grant", "user-a", "busy-client", "Grant:grant-a-expired"), expiresAt: new Date(Date.now() - 1000) });
    await payloads().upsertPayload({ ...row("Grant", "user-b", "busy-client", "Grant:grant-b-forever"), expiresAt: null });
    const now = new Date();
    expect(await payloads().userClientGrantIds("user-a", "busy-client", now)).toEqual(["grant-a-busy"]);
    expect((await payloads().userClientGrantIds("user-b", "busy-client", now)).sort()).toEqual(["grant-b-busy", "grant-b-forever"]);
    expect((await payloads().listUserGrants("user-a", now)).map((g) => g.key).sort()).toEqual(["Grant:grant-a-busy", "Grant:grant-a-other"]);
    expect(await payloads().userClientGrantIds("user-a", "other-client", now)).toEqual(["grant-a-other"]);
    expect(await payloads().userClientGrantIds("user-c", "busy-client", now)).toEqual([]);

    // The statement userClientGrantIds runs, as the query builder writes it, explained by SQLite.
    const db = server.gatehouse.database.db as any;
    const lookup = db
      .selectFrom("oidcPayload")
      .select("key")
      .where("accountId", "=", "user-a")
      .where("model", "=", "Grant")
      .where("clientId", "=", "busy-client")
      .compile();
    const plan = await db.executeQuery({ ...lookup, sql: `explain query plan ${lookup.sql}`, query: lookup.query });
    const details = (plan.rows as { detail: string }[]).map((r) => r.detail).join("; ");
    expect(details).toContain("oidcPayload_accountId_model_clientId_idx (accountId=? AND model=? AND clientId=?)");
  });

  it("has the three-column index in the schema, and the two-column one no more", async () => {
    const db = server.gatehouse.database.db as any;
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'oidcPayload'`.execute(db);
    const names = rows.map((r) => r.name);
    expect(names).toContain("oidcPayload_accountId_model_clientId_idx");
    expect(names).not.toContain("oidcPayload_accountId_model_idx");
  });
});

/** The lookups whose expiry is checked on the rows their index finds (store/payloads.ts), on both databases. */
describe.each(["sqlite", "postgres"] as const)("OIDC lookups by uid, user and client leave expired rows out (%s)", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });
  const payloads = () => (server.gatehouse.runtime.stores as unknown as OidcRepositories).oidcPayloads;
  const stored = (key: string, fields: Partial<StoredPayload>): StoredPayload => ({
    key,
    model: "Session",
    payload: { kind: "Session" },
    grantId: null,
    uid: null,
    accountId: "user-x",
    clientId: null,
    expiresAt: new Date(Date.now() + 3_600_000),
    consumedAt: null,
    ...fields,
  });

  it("finds a provider session by uid only while it lasts, and a user's grants only while they last", async () => {
    const now = new Date();
    await payloads().upsertPayload(stored("Session:live", { uid: "uid-live" }));
    await payloads().upsertPayload(stored("Session:gone", { uid: "uid-gone", expiresAt: new Date(now.getTime() - 1) }));
    await payloads().upsertPayload(stored("Session:kept", { uid: "uid-kept", expiresAt: null }));
    expect((await payloads().findPayloadByUid("Session", "uid-live", now))?.key).toBe("Session:live");
    expect(await payloads().findPayloadByUid("Session", "uid-gone", now)).toBeNull();
    expect((await payloads().findPayloadByUid("Session", "uid-kept", now))?.key).toBe("Session:kept");
    expect(await payloads().findPayloadByUid("Interaction", "uid-live", now)).toBeNull();

    await payloads().upsertPayload(stored("Grant:g-live", { model: "Grant", clientId: "c1" }));
    await payloads().upsertPayload(stored("Grant:g-gone", { model: "Grant", clientId: "c1", expiresAt: new Date(now.getTime() - 1) }));
    expect(await payloads().userClientGrantIds("user-x", "c1", now)).toEqual(["g-live"]);
    expect((await payloads().listUserGrants("user-x", now)).map((g) => g.key)).toEqual(["Grant:g-live"]);
    // As of a later time, the live one has expired too.
    const later = new Date(now.getTime() + 7_200_000);
    expect(await payloads().userClientGrantIds("user-x", "c1", later)).toEqual([]);
    expect(await payloads().findPayloadByUid("Session", "uid-live", later)).toBeNull();
  });
});

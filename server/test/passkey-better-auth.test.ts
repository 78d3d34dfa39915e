import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/storage/database.js";
import { introspectSchema } from "../src/storage/schema-introspection.js";
import { scryptReference } from "../src/credentials/password.js";
import { betterAuthDdl, openRaw, seedBetterAuthRows, type RawDatabase, type SeededRows } from "./fixtures/better-auth-database.js";
import { createTestDatabase, DIALECTS, type TestDatabase } from "./helpers/databases.js";
import { TestClient } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { SoftAuthenticator } from "./helpers/soft-authenticator.js";

/**
 * #15 item 5, moving from Better Auth: a database its passkey plugin wrote (its `passkey` table, API-NOTES-PLUGINS.md
 * 3.1, and a row as it stores one) is taken as it is: the reconcile step adds our two columns and the indexes, and
 * the passkey signs in here. Its rows carry no user handle (Better Auth's was random per registration and not kept).
 */
function betterAuthPasskeyDdl(dialect: TestDatabase["dialect"]): string[] {
  const date = dialect === "postgres" ? "timestamptz" : "date";
  const bool = dialect === "postgres" ? "boolean" : "integer";
  return [
    `create table "passkey" ("id" text not null primary key, "name" text, "publicKey" text not null, ` +
      `"userId" text not null references "user" ("id") on delete cascade, "credentialID" text not null, ` +
      `"counter" integer not null, "deviceType" text not null, "backedUp" ${bool} not null, "transports" text, ` +
      `"createdAt" ${date}, "aaguid" text)`,
    `create index "passkey_userId_idx" on "passkey" ("userId")`,
    `create index "passkey_credentialID_idx" on "passkey" ("credentialID")`,
  ];
}

describe.each(DIALECTS)("a Better Auth passkey table on %s", (dialect) => {
  let database: TestDatabase;
  let raw: RawDatabase;
  let rows: SeededRows;
  let server: TestServer;
  let credentialID: string;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    raw = await openRaw(database);
    for (const statement of [...betterAuthDdl(dialect, {}), ...betterAuthPasskeyDdl(dialect)]) await raw.run(statement);
    const hash = await scryptReference("a password", "0123456789abcdef0123456789abcdef");
    rows = await seedBetterAuthRows(raw, dialect, {}, { alice: hash, bob: hash });
  });
  afterAll(async () => {
    await server?.close();
    await raw?.close();
    await database?.drop();
  });

  it("keeps the table, adds our columns and indexes, and signs in with the passkey Better Auth registered", async () => {
    // The port is known once the server listens: the origin and RP ID follow it, so the row is written after.
    server = await startTestServer(dialect, {}, { database });
    const origin = new URL(server.url).origin;
    const device = new SoftAuthenticator(origin, 1);
    device.createCredential({ challenge: "AAAA", rp: { id: "127.0.0.1" }, user: { id: "cmFuZG9tLWhhbmRsZQ" } });
    const credential = [...device.credentials.values()][0]!;
    credentialID = credential.id;
    const bool = (value: boolean) => (dialect === "postgres" ? value : value ? 1 : 0);
    await raw.run(
      `insert into "passkey" ("id", "name", "publicKey", "userId", "credentialID", "counter", "deviceType", "backedUp", "transports", "createdAt", "aaguid") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        "BetterAuthPasskeyId0123456789012",
        "Old laptop",
        Buffer.from(credential.publicKey).toString("base64"),
        rows.alice.id,
        credential.id,
        0,
        "singleDevice",
        bool(false),
        "internal",
        new Date(Date.now() - 86_400_000).toISOString(),
        "00000000-0000-0000-0000-000000000000",
      ],
    );

    const handle = openDatabase({ url: database.url, schema: database.schema });
    try {
      const found = await introspectSchema(handle.db as never, handle.dialect, database.schema);
      const passkey = found.get("passkey")!;
      expect([...passkey.columns.keys()]).toEqual(expect.arrayContaining(["userHandle", "registeredBySession"]));
      expect(passkey.indexes.some((i) => i.unique && i.columns.join() === "credentialID")).toBe(true);
      expect(found.has("passkeyUserHandle")).toBe(true);
    } finally {
      await handle.close();
    }

    const browser = new TestClient(server.base);
    const options = await browser.get("/passkey/generate-authenticate-options");
    const res = await browser.post("/passkey/verify-authentication", { response: device.getAssertion(options.body) });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(rows.alice.id);
    const list = await browser.get("/passkey/list-user-passkeys");
    expect(list.body).toEqual([
      expect.objectContaining({ id: "BetterAuthPasskeyId0123456789012", name: "Old laptop", credentialID, counter: 1, transports: "internal" }),
    ]);
  });
});

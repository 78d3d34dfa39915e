import { sql, type Kysely } from "kysely";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateId } from "../src/crypto/random.js";
import { defineModule } from "../src/gatehouse-module.js";
import { defineEndpointFor } from "../src/http/endpoint.js";
import { APIError } from "../src/http/errors.js";
import { databaseShape, MODULES } from "../src/modules.js";
import type { Dialect } from "../src/storage/database.js";
import type { TableSpecs } from "../src/storage/expected-schema.js";
import type { Transactional } from "../src/storage/index.js";
import { columnTypes } from "../src/storage/migrations/types.js";
import { dbDate, toDate } from "../src/storage/rows.js";
import type { Database, DbDate } from "../src/storage/schema.js";
import { introspectSchema } from "../src/storage/schema-introspection.js";
import { DIALECTS } from "./helpers/databases.js";
import { signUp, TestClient } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/*
 * Issue #13 point 4, "adding a table touches its module's folder only": a module with a table of its own is declared
 * here, in this one file, the way a feature folder declares it (its table's Kysely shape and expected-schema part,
 * its migration, its store, its route and its error catalogue), and composed into a service over SQLite and
 * PostgreSQL. No central file (storage/schema.ts, expected-schema.ts, migrator.ts, storage/index.ts, routes.ts)
 * knows of it: it is migrated, checked by the reconcile step, read and written through runtime.stores, and served.
 */

// --- the module's folder: tables.ts -------------------------------------------------------------------------------
interface NoteTable {
  id: string;
  userId: string;
  body: string;
  createdAt: DbDate;
}
interface NotesTables {
  note: NoteTable;
}
interface NotesDatabase extends Database, NotesTables {}

const NOTES_TABLE_SPECS: TableSpecs<NotesTables> = {
  note: {
    columns: {
      id: { type: "text", notNull: true },
      userId: { type: "text", notNull: true },
      body: { type: "text", notNull: true },
      createdAt: { type: "date", notNull: true },
    },
    indexes: [{ name: "note_userId_idx", columns: ["userId"] }],
  },
};

// --- migrations/0900-notes.ts ---------------------------------------------------------------------------------------
const createNotes = {
  async up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
    await db.schema
      .createTable("note")
      .ifNotExists()
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("createdAt", columnTypes(dialect).date, (c) => c.notNull())
      .execute();
    await db.schema.createIndex("note_userId_idx").ifNotExists().on("note").column("userId").execute();
  },
};

// --- store/index.ts ---------------------------------------------------------------------------------------------------
interface Note {
  id: string;
  userId: string;
  body: string;
  createdAt: Date;
}

function notesRepositories(db: Kysely<NotesDatabase>) {
  return {
    notes: {
      async addNote(note: Note): Promise<void> {
        await db.insertInto("note").values({ ...note, createdAt: dbDate(note.createdAt) }).execute();
      },
      async listNotes(userId: string): Promise<Note[]> {
        const rows = await db.selectFrom("note").selectAll().where("userId", "=", userId).orderBy("createdAt").execute();
        return rows.map((row) => ({ ...row, createdAt: toDate(row.createdAt) }));
      },
    },
  };
}
type NotesStores = Transactional<ReturnType<typeof notesRepositories>>;

// --- messages.ts, deps.ts and routes.ts --------------------------------------------------------------------------------
const NOTES_MESSAGES = { NOTE_IS_EMPTY: "Note is empty" } as const;

interface NotesDeps {
  stores: NotesStores;
  now(): Date;
}
const defineNotesEndpoint = defineEndpointFor<NotesDeps>();
const noteSchema = z.object({ id: z.string(), body: z.string(), createdAt: z.date() });

const addNote = defineNotesEndpoint({
  method: "POST",
  path: "/notes/add",
  auth: "session",
  body: z.object({ body: z.string().max(1000) }),
  response: z.object({ notes: z.array(noteSchema) }),
  summary: "Add a note and answer the caller's notes",
  tags: ["Notes"],
  async handler(ctx) {
    const body = ctx.body.body.trim();
    if (!body) throw new APIError("BAD_REQUEST", NOTES_MESSAGES.NOTE_IS_EMPTY);
    const userId = ctx.session!.user.id;
    // Two writes in one transaction, through the stores: no raw database handle.
    const notes = await ctx.runtime.stores.transaction(async (stores) => {
      await stores.notes.addNote({ id: generateId(), userId, body, createdAt: ctx.runtime.now() });
      return stores.notes.listNotes(userId);
    });
    return { notes: notes.map(({ id, body, createdAt }) => ({ id, body, createdAt })) };
  },
});

// --- module.ts --------------------------------------------------------------------------------------------------------
const notesModule = (enabled: boolean) =>
  defineModule({
    name: "notes",
    enabled: () => enabled,
    endpoints: { addNote },
    migrations: { "0900-notes": createNotes },
    tables: NOTES_TABLE_SPECS,
    repositories: notesRepositories,
    errors: NOTES_MESSAGES,
  });

describe.each(DIALECTS)("a module with a table of its own, composed without a central file (%s)", (dialect) => {
  let server: TestServer;
  let off: TestServer;
  let applied: string[];

  beforeAll(async () => {
    server = await startTestServer(dialect, {}, { modules: [...MODULES, notesModule(true)] });
    // startTestServer migrated already: a second run applies nothing.
    applied = await server.gatehouse.migrate();
    off = await startTestServer(dialect, {}, { modules: [...MODULES, notesModule(false)] });
  });
  afterAll(async () => {
    await server?.close();
    await off?.close();
  });

  const introspect = (target: TestServer) =>
    introspectSchema(target.gatehouse.database.db as never, target.gatehouse.database.dialect, target.database.schema);

  it("#13.4: its migration creates its table as its part of the expected schema describes it, once", async () => {
    expect(applied).toEqual([]);
    const note = (await introspect(server)).get("note");
    expect([...(note?.columns.keys() ?? [])].sort()).toEqual(["body", "createdAt", "id", "userId"]);
    expect(note?.indexes.some((index) => index.columns.join() === "userId")).toBe(true);
    const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(server.gatehouse.database.db);
    expect(rows.rows.map((r) => r.name)).toContain("0900-notes");
  });

  it("#13.4: the reconcile step checks the module's table too: a missing index is created at the next start", async () => {
    await sql`drop index ${sql.id("note_userId_idx")}`.execute(server.gatehouse.database.db);
    expect(await server.gatehouse.migrate()).toEqual(["created index note_userId_idx"]);
    expect(await server.gatehouse.migrate()).toEqual([]);
  });

  it("#13.4: its store joins runtime.stores, inside and outside a transaction", async () => {
    const { user } = await signUp(new TestClient(server.base));
    const stores = server.gatehouse.runtime.stores as unknown as NotesStores;
    const createdAt = new Date("2026-05-06T07:08:09.123Z");
    await stores.transaction((trx) => trx.notes.addNote({ id: generateId(), userId: user.id, body: "kept", createdAt }));
    await expect(
      stores.transaction(async (trx) => {
        await trx.notes.addNote({ id: generateId(), userId: user.id, body: "rolled back", createdAt });
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect((await stores.notes.listNotes(user.id)).map((n) => [n.body, n.createdAt.toISOString()])).toEqual([
      ["kept", createdAt.toISOString()],
    ]);
  });

  it("#13.4: its route answers over HTTP with its deps, and its error catalogue's message", async () => {
    const client = new TestClient(server.base);
    await signUp(client);
    const added = await client.post("/notes/add", { body: "  first  " });
    expect(added.status).toBe(200);
    expect(added.body.notes.map((n: { body: string }) => n.body)).toEqual(["first"]);
    const empty = await client.post("/notes/add", { body: " " });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: "NOTE_IS_EMPTY", message: "Note is empty" });
  });

  it("#13.4: turned off by the configuration, its routes do not answer, and its table is there all the same", async () => {
    const client = new TestClient(off.base);
    await signUp(client);
    expect((await client.post("/notes/add", { body: "hello" })).status).toBe(404);
    expect((await introspect(off)).has("note")).toBe(true);
    // Core's and the other modules' routes are unaffected.
    expect((await client.get("/organization/list")).status).toBe(200);
  });
});

describe("composing modules", () => {
  it("#13.4: a migration name, a table, a store or a route declared twice is refused", () => {
    const again = notesModule(true);
    expect(() => databaseShape([...MODULES, notesModule(true), again])).toThrow(/migration "0900-notes" is declared twice/);
    const sameTable = { ...again, migrations: {} };
    expect(() => databaseShape([...MODULES, notesModule(true), sameTable])).toThrow(/table "note" is declared twice/);
  });

  it("#13.4: the installed modules' expected schema holds the organization tables and the admin indexes", () => {
    const expected = databaseShape().expected;
    expect(Object.keys(expected)).toEqual(
      expect.arrayContaining(["user", "session", "account", "verification", "organization", "member", "invitation", "team", "teamMember"]),
    );
    expect(expected.user!.indexes.map((index) => index.name)).toContain("user_createdAt_idx");
    expect(Object.keys(databaseShape().migrations).sort()).toEqual([
      "0001-core",
      "0002-organization",
      "0003-admin",
      "0004-admin-search",
      "0005-account-identity",
      "0006-user-trigram",
      "0007-impersonation-index",
      "0008-team-member-count",
      "0009-login-method",
      "0010-two-factor",
      "0011-passkey",
      "0012-passwordless",
      "0013-organization-require-two-factor",
      "0014-oidc-provider",
      "0015-events",
      "0016-new-device",
      "0017-webhooks",
      "0018-event-partial-indexes",
      "0019-oidc-uid-partial-index",
      "0020-oidc-grant-lookup-index",
    ]);
  });
});

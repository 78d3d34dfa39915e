import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { CompiledQuery, sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scryptReference } from "../src/credentials/password.js";
import { signCookieValue } from "../src/http/cookies.js";
import { createGatehouse, type GatehouseOptions } from "../src/index.js";
import { createLogger } from "../src/logger.js";
import { databaseShape } from "../src/modules.js";
import { openDatabase } from "../src/storage/database.js";
import { introspectSchema, type FoundSchema } from "../src/storage/schema-introspection.js";
import {
  betterAuthDdl,
  openRaw,
  seedBetterAuthRows,
  type BetterAuthPlugins,
  type RawDatabase,
  type SeededRows,
} from "./fixtures/better-auth-database.js";
import { createTestDatabase, DIALECTS, type DialectName, type TestDatabase } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";

const run = promisify(execFile);
const ALICE_PASSWORD = "alice's old password";
const BOB_PASSWORD = "bob's old password";

const VARIANTS: { name: string; plugins: BetterAuthPlugins }[] = [
  { name: "core only", plugins: {} },
  { name: "core, username and admin", plugins: { username: true, admin: true } },
  { name: "core and organization without teams", plugins: { organization: true } },
  { name: "every plugin, with teams", plugins: { username: true, admin: true, organization: true, teams: true } },
];

/** Hashes as Better Auth writes them (the same scrypt `salt:key` Gatehouse writes). */
async function hashes(): Promise<{ alice: string; bob: string }> {
  return {
    alice: await scryptReference(ALICE_PASSWORD, "0123456789abcdef0123456789abcdef"),
    bob: await scryptReference(BOB_PASSWORD, "fedcba9876543210fedcba9876543210"),
  };
}

/** A fresh test database holding Better Auth's tables and rows; `edit` changes the DDL first (wrong types). */
async function betterAuthDatabase(
  dialect: DialectName,
  plugins: BetterAuthPlugins,
  edit: (ddl: string[]) => string[] = (ddl) => ddl,
): Promise<{ database: TestDatabase; raw: RawDatabase; rows: SeededRows }> {
  const database = await createTestDatabase(dialect);
  const raw = await openRaw(database);
  for (const statement of edit(betterAuthDdl(dialect, plugins))) await raw.run(statement);
  const rows = await seedBetterAuthRows(raw, dialect, plugins, await hashes());
  return { database, raw, rows };
}

async function snapshot(database: TestDatabase): Promise<FoundSchema> {
  const handle = openDatabase({ url: database.url, schema: database.schema });
  try {
    return await introspectSchema(handle.db as never, handle.dialect, database.schema);
  } finally {
    await handle.close();
  }
}

/** The schema as plain data, for comparisons: table → sorted columns with types, sorted indexes. */
function shape(found: FoundSchema) {
  return Object.fromEntries(
    [...found].map(([table, t]) => [
      table,
      {
        columns: [...t.columns.values()].map((c) => `${c.name} ${c.type}${c.notNull ? " not null" : ""}`).sort(),
        indexes: t.indexes.map((i) => `${i.name}${i.unique ? " unique" : ""} (${i.columns.join(",")})`).sort(),
      },
    ]),
  );
}

function gatehouseOver(database: TestDatabase) {
  return createGatehouse(
    { secret: TEST_SECRET, logger: { level: "silent" }, database: { url: database.url, schema: database.schema } } as GatehouseOptions,
    { nodeEnv: "test", logger: createLogger("silent") },
  );
}

describe.each(DIALECTS)("a database written by Better Auth 1.7, on %s", (dialect) => {
  describe.each(VARIANTS)("$name", ({ plugins }) => {
    let server: TestServer;
    let database: TestDatabase;
    let raw: RawDatabase;
    let rows: SeededRows;
    let before: FoundSchema;
    let applied: string[];

    beforeAll(async () => {
      ({ database, raw, rows } = await betterAuthDatabase(dialect, plugins));
      before = await snapshot(database);
      // The first start, as `gatehouse serve` does it: migrate, then serve.
      const first = gatehouseOver(database);
      applied = await first.migrate();
      await first.close();
      server = await startTestServer(dialect, { organization: { requireEmailVerificationOnInvitation: false } }, { database });
    });
    afterAll(async () => {
      await server?.close();
      await raw?.close();
      await database?.drop();
    });

    const client = () => new TestClient(server.base);
    const oldSession = () => {
      const c = client();
      c.jar.set("better-auth.session_token", encodeURIComponent(signCookieValue(rows.alice.sessionToken, TEST_SECRET)));
      return c;
    };

    it("#12.1: the first start adds Gatehouse's columns and indexes and drops or rewrites nothing", async () => {
      expect(applied).toContain("added column user.lang");
      if (!plugins.username) expect(applied).toContain("added column user.username");
      if (!plugins.admin) expect(applied).toEqual(expect.arrayContaining(["added column user.banned", "added column session.impersonatedBy"]));
      expect(applied).toContain("created index account_providerId_accountId_uidx");
      const after = shape(await snapshot(database));
      // Every table, column (same type) and index Better Auth made is still there.
      for (const [table, t] of Object.entries(shape(before))) {
        expect(after[table]?.columns).toEqual(expect.arrayContaining(t.columns));
        expect(after[table]?.indexes).toEqual(expect.arrayContaining(t.indexes));
      }
      expect(Object.keys(after)).toEqual(
        expect.arrayContaining(["user", "session", "account", "verification", "organization", "member", "invitation", "team", "teamMember"]),
      );
      // Old rows are as they were, the added columns hold the defaults the code expects.
      const github = await raw.all<{ accessToken: string; scope: string }>(
        `select "accessToken", "scope" from "account" where "providerId" = 'github'`,
      );
      expect(github).toEqual([{ accessToken: "gho_old", scope: "read:user,user:email" }]);
      const users = await raw.all<{ banned: unknown; lang: unknown }>(`select "banned", "lang" from "user" order by "email"`);
      expect(users.map((u) => [Boolean(u.banned), u.lang])).toEqual([
        [false, null],
        [false, null],
      ]);
      if (plugins.teams) {
        const members = await raw.all(`select "membershipKey" from "teamMember"`);
        expect(members).toEqual([{ membershipKey: "oldMembershipKeyOfBob" }]);
      }
    });

    it("#12.1: an old user signs in with the old password (by email, and by username when they had one)", async () => {
      const c = client();
      const res = await c.post("/sign-in/email", { email: rows.alice.email, password: ALICE_PASSWORD });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ id: rows.alice.id, email: rows.alice.email, name: "Alice" });
      expect((await c.get("/get-session")).body.user.id).toBe(rows.alice.id);
      const wrong = await client().post("/sign-in/email", { email: rows.bob.email, password: ALICE_PASSWORD });
      expect(wrong.status).toBe(401);
      if (rows.alice.username) {
        const byName = await client().post("/sign-in/username", { username: rows.alice.username, password: ALICE_PASSWORD });
        expect(byName.status).toBe(200);
        expect(byName.body.user).toMatchObject({ id: rows.alice.id, username: "alice", displayUsername: "Alice" });
      }
    });

    it("#12.1: an old session cookie (signed with the old secret, prefix better-auth) still works", async () => {
      const res = await oldSession().get("/get-session");
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ id: rows.alice.id, email: rows.alice.email, emailVerified: true });
      expect(res.body.session).toMatchObject({ token: rows.alice.sessionToken, userId: rows.alice.id });
      if (plugins.organization) expect(res.body.session.activeOrganizationId).toBe(rows.organization!.id);
      if (plugins.admin) {
        expect(res.body.user.role).toBe("admin");
        expect((await oldSession().get("/admin/list-users?limit=10")).body.total).toBeGreaterThanOrEqual(2);
      }
      const sessions = await oldSession().get("/list-sessions");
      expect(sessions.status).toBe(200);
      expect(sessions.body.map((s: { token: string }) => s.token)).toContain(rows.alice.sessionToken);
    });

    it("#12.1: a new user signs up (with a username too) and signs in beside the old rows", async () => {
      const c = client();
      const { email, user } = await signUp(c, { username: `new_${Math.random().toString(36).slice(2, 8)}`, lang: "de" });
      expect(user).toMatchObject({ email: email.toLowerCase() });
      expect(user.username).toMatch(/^new_/);
      const again = await client().post("/sign-in/email", { email, password: PASSWORD });
      expect(again.status).toBe(200);
      expect((await client().post("/sign-in/email", { email: rows.bob.email, password: BOB_PASSWORD })).status).toBe(200);
      // An old user takes a username now (the column was added for them if it was missing).
      const bob = client();
      await bob.post("/sign-in/email", { email: rows.bob.email, password: BOB_PASSWORD });
      const updated = await bob.post("/update-user", { username: `bob_${Math.random().toString(36).slice(2, 8)}` });
      expect(updated.status).toBe(200);
    });

    it("#12.1: GET /organization/list and every organization route work with the old rows", async () => {
      const alice = oldSession();
      const list = await alice.get("/organization/list");
      expect(list.status).toBe(200);
      if (!rows.organization) {
        expect(list.body).toEqual([]);
      } else {
        expect(list.body).toEqual([expect.objectContaining({ id: rows.organization.id, slug: "old-org", name: "Old Org" })]);
        const full = await alice.get(`/organization/get-full-organization?organizationId=${rows.organization.id}`);
        expect(full.status).toBe(200);
        expect(full.body.metadata).toEqual({ plan: "old" });
        expect(full.body.members.map((m: { userId: string; role: string }) => [m.userId, m.role]).sort()).toEqual(
          [
            [rows.alice.id, "owner"],
            [rows.bob.id, "member"],
          ].sort(),
        );
        expect(full.body.invitations).toEqual([
          expect.objectContaining({ id: rows.invitation!.id, email: rows.invitation!.email, status: "pending" }),
        ]);
        const members = await alice.get(`/organization/list-members?organizationId=${rows.organization.id}`);
        expect(members.body.total).toBe(2);
        if (rows.team) {
          const teams = await alice.get(`/organization/list-teams?organizationId=${rows.organization.id}`);
          expect(teams.body).toEqual([expect.objectContaining({ id: rows.team.id, name: "Old Team" })]);
          const teamMembers = await alice.get(`/organization/list-team-members?teamId=${rows.team.id}`);
          expect(teamMembers.body.map((m: { userId: string }) => m.userId)).toEqual([rows.bob.id]);
          const added = await alice.post("/organization/add-team-member", { teamId: rows.team.id, userId: rows.alice.id });
          expect(added.status).toBe(200);
          const created = await alice.post("/organization/create-team", { name: "New Team", organizationId: rows.organization.id });
          expect(created.status).toBe(200);
        }
        // The old invitation is accepted by its invitee, who signs up now.
        const carol = client();
        await signUp(carol, { email: rows.invitation!.email });
        const accepted = await carol.post("/organization/accept-invitation", { invitationId: rows.invitation!.id });
        expect(accepted.status).toBe(200);
        expect(accepted.body.member).toMatchObject({ organizationId: rows.organization.id, role: "member" });
        const carolTeams = await carol.get(`/organization/list-user-teams?organizationId=${rows.organization.id}`);
        if (rows.team) expect(carolTeams.body.map((t: { id: string }) => t.id)).toEqual([rows.team.id]);
        const bobMember = full.body.members.find((m: { userId: string }) => m.userId === rows.bob.id);
        const role = await alice.post("/organization/update-member-role", { memberId: bobMember.id, role: "admin" });
        expect(role.status).toBe(200);
        const invited = await alice.post("/organization/invite-member", { email: uniqueEmail("inv"), role: "member" });
        expect(invited.status).toBe(200);
        const removed = await alice.post("/organization/remove-member", { memberIdOrEmail: rows.bob.email });
        expect(removed.status).toBe(200);
      }
      // A new organization (with its default team) next to the old one.
      const created = await alice.post("/organization/create", { name: "New Org", slug: `new-org-${Date.now().toString(36)}` });
      expect(created.status).toBe(200);
      const after = await alice.get("/organization/list");
      expect(after.body.map((o: { id: string }) => o.id)).toContain(created.body.id);
      const teams = await alice.get(`/organization/list-teams?organizationId=${created.body.id}`);
      expect(teams.status).toBe(200);
      expect(teams.body).toHaveLength(1);
    });

    it("#12.1: a second start changes nothing", async () => {
      const first = shape(await snapshot(database));
      expect(await server.gatehouse.migrate()).toEqual([]);
      const restarted = gatehouseOver(database);
      try {
        expect(await restarted.migrate()).toEqual([]);
      } finally {
        await restarted.close();
      }
      expect(shape(await snapshot(database))).toEqual(first);
    });
  });
});

describe.each(DIALECTS)("a Better Auth database Gatehouse cannot serve as it is, on %s", (dialect) => {
  it("#12.1: a column of another type is reported at start-up, naming table and column, and nothing is changed", async () => {
    // Both hold the rows Better Auth wrote (ISO text), but not as the service reads and compares them.
    const wrong = dialect === "postgres" ? "text" : "integer";
    const { database, raw } = await betterAuthDatabase(dialect, { organization: true }, (ddl) =>
      ddl.map((s) => s.replace(/"expiresAt" (date|timestamptz) not null, "token"/, `"expiresAt" ${wrong} not null, "token"`)),
    );
    const before = shape(await snapshot(database));
    const gatehouse = gatehouseOver(database);
    try {
      const error = await gatehouse.migrate().then(
        () => null,
        (e: Error) => e,
      );
      expect(error?.name).toBe("SchemaMismatchError");
      expect(error?.message).toMatch(/"session"\."expiresAt" is (text|integer); Gatehouse needs (timestamptz|date)/i);
      expect(error?.message).not.toMatch(/"user"/);
      expect(shape(await snapshot(database))).toEqual(before);
    } finally {
      await gatehouse.close();
      await raw.close();
      await database.drop();
    }
  });

  it("#12.1: duplicate provider identities and a NOT NULL column of another tool are reported, not a raw SQL error", async () => {
    const { database, raw } = await betterAuthDatabase(dialect, {}, (ddl) =>
      ddl.map((s) => s.replace(`"name" text not null, "email"`, `"name" text not null, "twoFactorSecret" text not null default 'x', "email"`)),
    );
    // Another tool's column: NOT NULL, no default (after the rows were written).
    await raw.run(`insert into "account" ("id", "accountId", "providerId", "userId", "createdAt", "updatedAt")
      select 'DuplicateGithubAccount0000000000', "accountId", "providerId", "userId", "createdAt", "updatedAt" from "account" where "providerId" = 'github'`);
    if (dialect === "postgres") await raw.run(`alter table "user" alter column "twoFactorSecret" drop default`);
    const before = shape(await snapshot(database));
    const gatehouse = gatehouseOver(database);
    try {
      const error = await gatehouse.migrate().then(
        () => null,
        (e: Error) => e,
      );
      expect(error?.message).toMatch(
        /unique index "account_providerId_accountId_uidx" on "account" \("providerId", "accountId"\) cannot be created: 2 rows share the values \("github", "4242"\)/,
      );
      if (dialect === "postgres") {
        expect(error?.message).toMatch(/"user"\."twoFactorSecret" \(not one of Gatehouse's\) is NOT NULL without a default/);
      }
      expect(shape(await snapshot(database))).toEqual(before);
    } finally {
      await gatehouse.close();
      await raw.close();
      await database.drop();
    }
  });
});

describe.each(DIALECTS)("a new database, on %s", (dialect) => {
  it("#12.1: the migrations make exactly the described schema: the reconcile step finds nothing to add", async () => {
    const database = await createTestDatabase(dialect);
    const gatehouse = gatehouseOver(database);
    try {
      const applied = await gatehouse.migrate();
      expect(applied.length).toBeGreaterThan(0);
      expect(applied.every((name) => /^\d{4}-/.test(name))).toBe(true);
      const found = await snapshot(database);
      expect(found.get("team")?.columns.get("memberCount")).toMatchObject({ notNull: true, hasDefault: true });
      // Every table, column and plain index of the expected schema, core's and the installed modules' (modules.ts),
      // is what the migrations made: none is left to the reconcile step.
      const missing: string[] = [];
      for (const [name, spec] of Object.entries(databaseShape().expected)) {
        const table = found.get(name);
        if (!table) {
          missing.push(`table ${name}`);
          continue;
        }
        for (const column of Object.keys(spec.columns)) if (!table.columns.has(column)) missing.push(`column ${name}.${column}`);
        for (const index of spec.indexes) {
          // An `onlyNotNull` index is the migration's partial one, under its name; the others plain.
          const present = table.indexes.some(
            (i) =>
              (index.onlyNotNull ? i.special && i.name === index.name : !i.special) &&
              (i.unique || !index.unique) &&
              i.columns.join() === index.columns.join(),
          );
          if (!present) missing.push(`index ${index.name}`);
        }
      }
      expect(missing).toEqual([]);
      expect(await gatehouse.migrate()).toEqual([]);
    } finally {
      await gatehouse.close();
      await database.drop();
    }
  });

  it("#16: the indexes of columns most rows leave empty hold only rows with a value, and the lookups by them use them", async () => {
    const database = await createTestDatabase(dialect);
    const gatehouse = gatehouseOver(database);
    const handle = openDatabase({ url: database.url, schema: database.schema });
    try {
      await gatehouse.migrate();
      const partial = Object.entries(databaseShape().expected).flatMap(([table, spec]) =>
        spec.indexes.filter((index) => index.onlyNotNull).map((index) => `${table}.${index.name}`),
      );
      expect(partial.sort()).toEqual([
        "event.event_actorId_seq_idx",
        "event.event_organizationId_seq_idx",
        "oidcPayload.oidcPayload_uid_idx",
      ]);
      // The lookups as the stores write them, with bound values (PostgreSQL: a generic plan, as a prepared
      // statement gets), each answered from its partial index rather than by reading the table.
      const lookups: [string, string, unknown[]][] = [
        ["oidcPayload_uid_idx", `select "key" from "oidcPayload" where "uid" = $1 and "model" = $2`, ["u", "Session"]],
        ["event_actorId_seq_idx", `select "seq" from "event" where "actorId" = $1 order by "seq" desc limit 20`, ["a"]],
        ["event_organizationId_seq_idx", `select "seq" from "event" where "organizationId" = $1 and "seq" < $2 order by "seq" desc limit 20`, ["o", 9]],
      ];
      const db = handle.db as Kysely<unknown>;
      if (dialect === "postgres") await sql`set plan_cache_mode = force_generic_plan`.execute(db);
      for (const [index, query, values] of lookups) {
        const text = dialect === "postgres" ? query : query.replace(/\$\d/g, "?");
        const plan = dialect === "postgres" ? `explain ${text}` : `explain query plan ${text}`;
        const { rows } = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(plan, values));
        expect(rows.map((row) => Object.values(row).join(" ")).join("\n"), index).toContain(index);
      }
      if (dialect === "postgres") await sql`reset plan_cache_mode`.execute(db);
      // One gone: the reconcile step makes it again as it was, partial, and then finds nothing to do.
      await sql`drop index ${sql.id("event_actorId_seq_idx")}`.execute(db);
      expect(await gatehouse.migrate()).toEqual(["created index event_actorId_seq_idx"]);
      const remade = (await snapshot(database)).get("event")?.indexes.find((i) => i.name === "event_actorId_seq_idx");
      expect(remade).toMatchObject({ columns: ["actorId", "seq"], special: true });
      expect(await gatehouse.migrate()).toEqual([]);
    } finally {
      await handle.close();
      await gatehouse.close();
      await database.drop();
    }
  });
});

describe("gatehouse migrate (the command) over a Better Auth database", () => {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const launcher = join(root, "server/bin/gatehouse");

  beforeAll(async () => {
    // The launcher runs the built service: build it as `npm run build -w @gatehouse/server` does.
    await run(join(root, "node_modules/.bin/tsc"), ["-p", join(root, "server/tsconfig.build.json")]);
  }, 120_000);

  const cli = async (database: TestDatabase, dataDir: string) => {
    const config = join(dataDir, "gatehouse.json");
    writeFileSync(config, JSON.stringify(database.schema ? { database: { schema: database.schema } } : {}));
    // Only what the command needs: the test runner's environment holds variables of its own (BASE_URL=/).
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: database.url,
      GATEHOUSE_CONFIG: config,
      GATEHOUSE_DATA_DIR: dataDir,
      GATEHOUSE_SECRET: TEST_SECRET,
      NODE_ENV: "test",
      LOG_LEVEL: "info",
    };
    return run(launcher, ["migrate"], { env }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
  };

  it.each(DIALECTS)("#12.1: DATABASE_URL at the database and `gatehouse migrate` bring it up to date, once (%s)", async (dialect) => {
    const { database, raw, rows } = await betterAuthDatabase(dialect, { organization: true, teams: true });
    const dataDir = mkdtempSync(join(tmpdir(), "gatehouse-cli-"));
    try {
      const first = await cli(database, dataDir);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/gatehouse: brought the database up to date: .*added column user\.lang.*0001-core/);
      expect(first.stdout).not.toContain("created a new database");
      const columns = await raw.all<{ lang: unknown }>(`select "lang" from "user" where "id" = ?`, [rows.alice.id]);
      expect(columns).toEqual([{ lang: null }]);
      const second = await cli(database, dataDir);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).not.toContain("brought the database up to date");
      expect(second.stdout).toContain("gatehouse: the database is up to date");
    } finally {
      await raw.close();
      await database.drop();
    }
  });

  it("#12.1: `gatehouse migrate` over a column of another type exits 1 and names table and column", async () => {
    const { database, raw } = await betterAuthDatabase("sqlite", {}, (ddl) =>
      ddl.map((s) => s.replace(`"emailVerified" integer not null`, `"emailVerified" text not null`)),
    );
    const dataDir = mkdtempSync(join(tmpdir(), "gatehouse-cli-"));
    try {
      const result = await cli(database, dataDir);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/"user"\."emailVerified" is text; Gatehouse needs integer 0\/1/i);
    } finally {
      await raw.close();
      await database.drop();
    }
  });
});

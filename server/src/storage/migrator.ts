import { Migrator, type Kysely, type Migration, type MigrationResultSet } from "kysely";
import type { Dialect } from "./database.js";
import * as core from "./migrations/0001-core.js";
import * as organization from "./migrations/0002-organization.js";
import * as admin from "./migrations/0003-admin.js";
import * as adminSearch from "./migrations/0004-admin-search.js";
import * as accountIdentity from "./migrations/0005-account-identity.js";
import * as userTrigram from "./migrations/0006-user-trigram.js";
import * as impersonationIndex from "./migrations/0007-impersonation-index.js";
import * as teamMemberCount from "./migrations/0008-team-member-count.js";
import * as loginMethod from "./migrations/0009-login-method.js";
import { reconcileSchema } from "./reconcile.js";

type MigrationModule = { up(db: Kysely<unknown>, dialect: Dialect): Promise<void> };

/** Versioned migrations, applied in name order; each runs once per database. */
const MIGRATIONS: Record<string, MigrationModule> = {
  "0001-core": core,
  "0002-organization": organization,
  "0003-admin": admin,
  "0004-admin-search": adminSearch,
  "0005-account-identity": accountIdentity,
  "0006-user-trigram": userTrigram,
  "0007-impersonation-index": impersonationIndex,
  "0008-team-member-count": teamMemberCount,
  "0009-login-method": loginMethod,
};

/**
 * Brings the database to the current shape; answers what was done: the names of the versioned migrations applied
 * and the reconcile step's changes ("added column user.lang"), empty when the database was up to date.
 *
 * The reconcile step (reconcile.ts) runs before the versioned migrations and again after them when any was
 * applied. Before: a database made by another tool (Better Auth) or an older Gatehouse has no migration
 * bookkeeping, or tables without the columns of plugins it did not use, and the migrations index those columns
 * (user.role, user.username), so the columns are added first. Each migration creates tables and indexes only if they do not exist, so all of them
 * are safe on such a database. After: the tables the migrations created are checked against the same description.
 * A database whose columns cannot hold what the service writes stops here with a SchemaMismatchError, unchanged.
 */
export async function migrateToLatest(db: Kysely<unknown>, dialect: Dialect, schema?: string): Promise<string[]> {
  const before = await reconcileSchema(db, dialect, schema);
  const applied = await runMigrations(db, dialect, schema);
  // With no migration applied, nothing changed since the first pass brought every table up to date: a second
  // introspection at each start would find nothing.
  const after = applied.length > 0 ? await reconcileSchema(db, dialect, schema) : [];
  return [...before, ...applied, ...after];
}

async function runMigrations(db: Kysely<unknown>, dialect: Dialect, schema?: string): Promise<string[]> {
  const migrations: Record<string, Migration> = {};
  for (const [name, module] of Object.entries(MIGRATIONS)) {
    migrations[name] = { up: (trx) => module.up(trx, dialect) };
  }
  // With a named schema, Kysely must look for its bookkeeping tables there and nowhere else.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const result: MigrationResultSet = await withRetryOnVanishedSchema(() => migrator.migrateToLatest());
  if (result.error) throw result.error instanceof Error ? result.error : new Error(String(result.error));
  return (result.results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/**
 * Kysely's migrator reads the catalog of every schema; on a PostgreSQL server shared with other deployments
 * (or test runs) a schema dropped during that read fails it with 3F000. The read is safe to repeat.
 */
async function withRetryOnVanishedSchema(run: () => Promise<MigrationResultSet>): Promise<MigrationResultSet> {
  for (let attempt = 1; ; attempt++) {
    const result = await run().catch((error: unknown) => ({ error }) as MigrationResultSet);
    const code = (result.error as { code?: string } | undefined)?.code;
    if (code !== "3F000" || attempt >= 5) return result;
    await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
  }
}

import { Migrator, type Kysely, type Migration, type MigrationResultSet } from "kysely";
import type { Dialect } from "./database.js";
import * as core from "./migrations/0001-core.js";
import * as organization from "./migrations/0002-organization.js";
import * as admin from "./migrations/0003-admin.js";
import * as adminSearch from "./migrations/0004-admin-search.js";
import * as accountIdentity from "./migrations/0005-account-identity.js";
import * as userTrigram from "./migrations/0006-user-trigram.js";
import * as impersonationIndex from "./migrations/0007-impersonation-index.js";

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
};

export async function migrateToLatest(db: Kysely<unknown>, dialect: Dialect, schema?: string): Promise<string[]> {
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

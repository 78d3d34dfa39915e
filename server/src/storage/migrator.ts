import { Migrator, type Kysely, type Migration, type MigrationResultSet } from "kysely";
import type { Dialect } from "./database.js";
import { composeSchema, CORE_TABLE_SPECS, type SchemaSpec, type TableAdditions, type TableSpecs } from "./expected-schema.js";
import * as core from "./migrations/0001-core.js";
import * as accountIdentity from "./migrations/0005-account-identity.js";
import * as loginMethod from "./migrations/0009-login-method.js";
import { reconcileSchema } from "./reconcile.js";

export type MigrationModule = { up(db: Kysely<unknown>, dialect: Dialect): Promise<void> };

/**
 * Core's versioned migrations. With the modules' (each module's folder holds its own, as organization/migrations/),
 * they are applied in name order and each runs once per database: Kysely records the names applied, and refuses a
 * database that applied a migration no longer given. So names are one sequence across core and the modules (a new
 * migration takes the next number, wherever it lives), and a migration is never renamed or removed.
 */
const CORE_MIGRATIONS: Record<string, MigrationModule> = {
  "0001-core": core,
  "0005-account-identity": accountIdentity,
  "0009-login-method": loginMethod,
};

/** What a part of the service (core, or a module) brings to the database: migrations and their expected schema. */
export interface SchemaPart {
  migrations: Record<string, MigrationModule>;
  tables: SchemaSpec | TableSpecs<object>;
  tableAdditions?: TableAdditions | undefined;
}

/** The database the service needs: every migration and the expected schema, of core and the given parts. */
export interface DatabaseShape {
  migrations: Record<string, MigrationModule>;
  expected: SchemaSpec;
}

export const CORE_SCHEMA: SchemaPart = { migrations: CORE_MIGRATIONS, tables: CORE_TABLE_SPECS };

/** Core and the modules' parts, checked: a migration name or a table declared twice is a programming error. */
export function composeDatabaseShape(parts: readonly SchemaPart[]): DatabaseShape {
  const all = [CORE_SCHEMA, ...parts];
  const migrations: Record<string, MigrationModule> = {};
  for (const part of all) {
    for (const [name, migration] of Object.entries(part.migrations)) {
      if (migrations[name]) throw new Error(`migration "${name}" is declared twice`);
      migrations[name] = migration;
    }
  }
  return { migrations, expected: composeSchema(all) };
}

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
export async function migrateToLatest(
  db: Kysely<unknown>,
  dialect: Dialect,
  schema: string | undefined,
  shape: DatabaseShape,
): Promise<string[]> {
  const before = await reconcileSchema(db, dialect, schema, shape.expected);
  const applied = await runMigrations(db, dialect, schema, shape.migrations);
  // With no migration applied, nothing changed since the first pass brought every table up to date: a second
  // introspection at each start would find nothing.
  const after = applied.length > 0 ? await reconcileSchema(db, dialect, schema, shape.expected) : [];
  return [...before, ...applied, ...after];
}

async function runMigrations(
  db: Kysely<unknown>,
  dialect: Dialect,
  schema: string | undefined,
  all: Record<string, MigrationModule>,
): Promise<string[]> {
  const migrations: Record<string, Migration> = {};
  for (const [name, module] of Object.entries(all)) {
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

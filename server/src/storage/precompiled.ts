import { createHash } from "node:crypto";
import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from "kysely";
import type { Dialect } from "./database.js";

/**
 * A hot statement built and compiled once per dialect, then run with each call's values: Kysely's builder and
 * compiler cost more CPU than a primary-key statement itself (a sign-in with a second step runs several). The SQL
 * holds no values, only placeholders, so it is the same for every connection, transaction and schema.
 *
 * `build` gets `param(name)`, which stands for the value of `name` given at each run; any other value it uses is
 * bound as it is on every run. A placeholder must reach the statement as a bound parameter (a where value, a
 * set value, a `sql` template's value), never be transformed first.
 *
 * `named`: on PostgreSQL, outside a transaction, the statement runs as a named prepared statement on the pool's
 * connection (parsed once per connection, and planned once PostgreSQL finds its generic plan as good as a fresh
 * one) instead of being parsed and planned at every call. On SQLite, outside a transaction, it runs at once on the
 * connection when no other request has a transaction open there (database.ts), without Kysely's driver. Only for a
 * statement that names every column it answers (no `*`): a prepared statement's result columns are fixed, and a
 * column a migration adds meanwhile would make PostgreSQL refuse to run one that answers `*` ("cached plan must not
 * change result type").
 */
export function precompiled<DB, P extends Record<string, unknown>, R>(
  build: (db: Kysely<DB>, param: Param<P>) => Compilable<R>,
  { named = false }: { named?: boolean } = {},
): Precompiled<DB, P, R> {
  const byDialect = new Map<Dialect, { sql: string; slots: readonly Slot[]; name?: string }>();
  const statementOf = (db: Kysely<DB>, dialect: Dialect, values: P) => {
    let statement = byDialect.get(dialect);
    if (!statement) {
      const compiled = build(db, (name) => `${PLACEHOLDER}${name}` as never).compile();
      statement = {
        sql: compiled.sql,
        slots: compiled.parameters.map((value) =>
          typeof value === "string" && value.startsWith(PLACEHOLDER) ? { name: value.slice(PLACEHOLDER.length) } : { value },
        ),
      };
      byDialect.set(dialect, statement);
    }
    return { statement, parameters: statement.slots.map((slot) => ("name" in slot ? values[slot.name] : slot.value)) };
  };
  const execute = (db: Kysely<DB>, dialect: Dialect, values: P) => {
    const { statement, parameters } = statementOf(db, dialect, values);
    // Registered for the pool's own instance only: a transaction's is another, and runs on its own connection.
    const run = named ? namedRunners.get(db) : undefined;
    if (run) return run((statement.name ??= statementName(statement.sql)), statement.sql, parameters) as Promise<QueryResult<R>>;
    return db.executeQuery<R>(CompiledQuery.raw(statement.sql, parameters));
  };
  return Object.assign(execute, {
    compiled: (db: Kysely<DB>, dialect: Dialect, values: P) => {
      const { statement, parameters } = statementOf(db, dialect, values);
      return { sql: statement.sql, parameters };
    },
  });
}

/** A precompiled statement: run it on a connection, or take its SQL and values (to run them another way). */
export interface Precompiled<DB, P, R> {
  (db: Kysely<DB>, dialect: Dialect, values: P): Promise<QueryResult<R>>;
  compiled(db: Kysely<DB>, dialect: Dialect, values: P): { sql: string; parameters: unknown[] };
}

/** Runs a hot statement outside a transaction (database.ts registers one for each database's own instance). */
export type NamedRunner = (name: string, sql: string, parameters: readonly unknown[]) => Promise<QueryResult<unknown>>;
const namedRunners = new WeakMap<object, NamedRunner>();

/** precompiled's `named` statements on `db` (not on its transactions) run through `run`. */
export function runPrecompiledAsNamed(db: Kysely<any>, run: NamedRunner): void {
  namedRunners.set(db, run);
}

/**
 * Runs a compiled statement, as a named prepared statement where `db` is a pool that has a runner (PostgreSQL,
 * outside a transaction), else as it is. For statements built once per shape and kept (the same rules as
 * precompiled's `named`: no `*` in what it answers).
 */
export function runNamed<R>(db: Kysely<any>, query: CompiledQuery<R>): Promise<QueryResult<R>> {
  const run = namedRunners.get(db);
  if (!run) return db.executeQuery<R>(query);
  let name = runNamedNames.get(query.sql);
  if (!name) {
    name = statementName(query.sql);
    if (runNamedNames.size >= 256) runNamedNames.clear();
    runNamedNames.set(query.sql, name);
  }
  return run(name, query.sql, query.parameters) as Promise<QueryResult<R>>;
}
const runNamedNames = new Map<string, string>();

/** A statement's name: from its text, so the same text always has the same name and another text another. */
const statementName = (sql: string) => `gh_${createHash("sha256").update(sql).digest("base64url").slice(0, 24)}`;

/** A placeholder for the run-time value of `name` (precompiled's `build`). */
export type Param<P> = <K extends keyof P & string>(name: K) => P[K];

type Slot = { name: string } | { value: unknown };

/** What stands for a run-time value while the statement is compiled (no real value starts with a NUL). */
const PLACEHOLDER = "\u0000gatehouse-param:";

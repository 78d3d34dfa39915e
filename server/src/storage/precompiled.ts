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
 */
export function precompiled<DB, P extends Record<string, unknown>, R>(
  build: (db: Kysely<DB>, param: Param<P>) => Compilable<R>,
): (db: Kysely<DB>, dialect: Dialect, values: P) => Promise<QueryResult<R>> {
  const byDialect = new Map<Dialect, { sql: string; slots: readonly Slot[] }>();
  return (db, dialect, values) => {
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
    const parameters = statement.slots.map((slot) => ("name" in slot ? values[slot.name] : slot.value));
    return db.executeQuery<R>(CompiledQuery.raw(statement.sql, parameters));
  };
}

/** A placeholder for the run-time value of `name` (precompiled's `build`). */
export type Param<P> = <K extends keyof P & string>(name: K) => P[K];

type Slot = { name: string } | { value: unknown };

/** What stands for a run-time value while the statement is compiled (no real value starts with a NUL). */
const PLACEHOLDER = "\u0000gatehouse-param:";

import { sql, type ColumnDataType, type Kysely, type RawBuilder } from "kysely";
import type { Dialect } from "../database.js";

/** Column types per dialect: SQLite keeps dates as ISO text and booleans as 0/1 (as other tools of this API do). */
export function columnTypes(dialect: Dialect): { date: ColumnDataType; bool: ColumnDataType; false: RawBuilder<unknown> } {
  return dialect === "postgres"
    ? { date: "timestamptz", bool: "boolean", false: sql`false` }
    : { date: "date" as ColumnDataType, bool: "integer", false: sql`0` };
}

/**
 * Replaces an index by one of the rows whose first column is not null (expected-schema.ts `onlyNotNull`), under the
 * same name and on the same columns. Both databases take `drop index` and a partial `create index` alike.
 */
export async function indexOnlyNotNull(db: Kysely<unknown>, table: string, name: string, columns: readonly string[]): Promise<void> {
  await sql`drop index if exists ${sql.id(name)}`.execute(db);
  const list = sql.join(columns.map((c) => sql.id(c)));
  await sql`create index ${sql.id(name)} on ${sql.id(table)} (${list}) where ${sql.id(columns[0]!)} is not null`.execute(db);
}

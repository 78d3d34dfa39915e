import { sql, type ColumnDataType, type RawBuilder } from "kysely";
import type { Dialect } from "../database.js";

/** Column types per dialect: SQLite keeps dates as ISO text and booleans as 0/1 (as other tools of this API do). */
export function columnTypes(dialect: Dialect): { date: ColumnDataType; bool: ColumnDataType; false: RawBuilder<unknown> } {
  return dialect === "postgres"
    ? { date: "timestamptz", bool: "boolean", false: sql`false` }
    : { date: "date" as ColumnDataType, bool: "integer", false: sql`0` };
}

import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Config } from "../config/index.js";
import { sqlitePathOf } from "../storage/database.js";

export { databaseWarnings, hasGatehouseTables } from "../storage/schema-introspection.js";

/** The database a CLI command works on, as it prints it. */
export interface DatabaseTarget {
  /** sqlite:/absolute/path, sqlite::memory:, or postgres://host:port/name (schema …), without credentials. */
  label: string;
  /** The SQLite file, absolute (a relative DATABASE_URL is relative to the current folder). */
  sqliteFile?: string;
}

export function databaseTarget(config: Config): DatabaseTarget {
  const { url, schema } = config.database;
  if (url.startsWith("sqlite:")) {
    const path = sqlitePathOf(url);
    if (path === ":memory:") return { label: "sqlite::memory:" };
    const file = resolve(path);
    return { label: `sqlite:${file}`, sqliteFile: file };
  }
  const parsed = new URL(url);
  return { label: `postgres://${parsed.host}${parsed.pathname}${schema ? ` (schema ${schema})` : ""}` };
}

/** Whether the SQLite file is missing (opening it would create a new, empty database). */
export const sqliteFileMissing = (target: DatabaseTarget): boolean =>
  target.sqliteFile !== undefined && !existsSync(target.sqliteFile);

/** What the CLI says when a command would create a new database without --create. */
export function missingDatabaseMessage(target: DatabaseTarget, command: string): string {
  const where = target.sqliteFile
    ? `there is no database at ${target.sqliteFile} (a relative DATABASE_URL, like the default sqlite://./data/gatehouse.db, is relative to the current folder, ${process.cwd()})`
    : `${target.label} has no Gatehouse tables`;
  return `${where}. Run the command from the folder that holds the service's data, set DATABASE_URL, or pass --create to create a new database (gatehouse ${command} --create).`;
}

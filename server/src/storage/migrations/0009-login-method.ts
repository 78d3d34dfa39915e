import { sql, type Kysely } from "kysely";
import type { Dialect } from "../database.js";

/**
 * session.loginMethod: how each session was signed in to ("email", "username", a provider id, ...), written by the
 * one sign-in function (session/sign-in.ts) so a later policy (a second factor) can tell what a session proved.
 * user.lastLoginMethod: Better Auth's lastLoginMethod plugin column (storeInDatabase), written only when
 * lastLoginMethod.storeInDatabase is on. Both nullable text; a database that has them already keeps them.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  for (const [table, column] of [
    ["session", "loginMethod"],
    ["user", "lastLoginMethod"],
  ] as const) {
    if (dialect === "postgres") {
      await sql`alter table ${sql.table(table)} add column if not exists ${sql.ref(column)} text`.execute(db);
      continue;
    }
    const { rows } = await sql<{ name: string }>`select name from pragma_table_xinfo(${table}) where name = ${column}`.execute(db);
    if (rows.length === 0) await sql`alter table ${sql.table(table)} add column ${sql.ref(column)} text`.execute(db);
  }
}

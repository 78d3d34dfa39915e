import { sql, type Kysely } from "kysely";
import type { Dialect } from "../../storage/database.js";

/**
 * team.memberCount: Better Auth's seat counter. Its databases declare it NOT NULL without a default, so every team
 * Gatehouse inserts must write it (0: Gatehouse counts members from teamMember and does not keep this counter; Better
 * Auth raises a counter that lags behind the real count before it uses it). A database that has the column
 * already (one written by Better Auth) keeps it as it is.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === "postgres") {
    await sql`alter table "team" add column if not exists "memberCount" integer not null default 0`.execute(db);
    return;
  }
  const { rows } = await sql<{ name: string }>`select name from pragma_table_xinfo('team') where name = 'memberCount'`.execute(db);
  if (rows.length === 0) await sql`alter table "team" add column "memberCount" integer not null default 0`.execute(db);
}

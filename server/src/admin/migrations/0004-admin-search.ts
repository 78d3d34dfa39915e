import { sql, type Kysely } from "kysely";
import type { Dialect } from "../../storage/database.js";

/**
 * Helps for searches of the administrators' user list (admin/store/user-search.ts) on PostgreSQL, where without them
 * each read the whole user table, some of it twice (measured in bench/, part admin, 100,000 users):
 *
 * - an index on lower(name) with text_pattern_ops: a name starts_with search (`lower("name") like 'mar%'`) is a
 *   range of this index, whatever the database's collation, instead of lower() computed on every row; ANALYZE also
 *   keeps statistics on lower(name) because of it, so the planner estimates name searches from real values;
 * - an index on (createdAt, id) of banned users only: the "banned" filter counts and pages from this small index;
 * - statistics on lower(role) (PostgreSQL 14 and later): without them the planner guessed that a role "contains"
 *   filter (the web console's Admins filter) matches 160 users in 100,000, and walked the whole createdAt index
 *   and table in creation order looking for a page of the 20 there are (150 ms instead of 35 ms).
 *
 * SQLite gets none: it cannot use these indexes for the same queries (LIKE on lower() is never indexed, and a partial
 * index is not used for a bound parameter) and has no such statistics.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== "postgres") return;
  await db.schema
    .createIndex("user_name_lower_pattern_idx")
    .ifNotExists()
    .on("user")
    .expression(sql`lower("name") text_pattern_ops`)
    .execute();
  await db.schema
    .createIndex("user_banned_createdAt_idx")
    .ifNotExists()
    .on("user")
    .columns(["createdAt", "id"])
    .where(sql<boolean>`"banned"`)
    .execute();
  const { rows } = await sql<{ version: number }>`select current_setting('server_version_num')::int as version`.execute(db);
  if ((rows[0]?.version ?? 0) >= 140_000) {
    await sql`create statistics if not exists "user_role_lower_stats" on (lower("role")) from "user"`.execute(db);
  }
}

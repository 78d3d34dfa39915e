import { sql, type Kysely } from "kysely";
import type { Dialect } from "../../storage/database.js";

/**
 * Trigram indexes (pg_trgm, GIN) behind the administrators' "contains" and "ends_with" searches on PostgreSQL:
 * `lower(name)`, `email`, `username` and `lower(role)` (the web console's Admins filter). Without them each such
 * search read the whole user table twice (the page and the count), about 40 ms per request at 100,000 users and
 * well over 100 ms once a few administrators search at once (bench/, part admin); with them a search reads only
 * the rows holding its trigrams.
 *
 * pg_trgm ships with PostgreSQL and is a trusted extension (PostgreSQL 13+): a database owner may create it. Where
 * it is missing or may not be created, the migration leaves it (searches then scan, as before) instead of
 * failing start-up; it is created in `public` (or used where it already is) so that the operator class outlives
 * any one schema. SQLite gets nothing: LIKE '%…%' cannot use an index there.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== "postgres") return;
  await sql`savepoint gatehouse_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    await sql`release savepoint gatehouse_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint gatehouse_trgm`.execute(db);
  }
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) return;
  const opclass = sql`${sql.id(schema)}.gin_trgm_ops`;
  const indexes = [
    ["user_name_trgm_idx", sql`lower("name") ${opclass}`],
    ["user_email_trgm_idx", sql`"email" ${opclass}`],
    ["user_username_trgm_idx", sql`"username" ${opclass}`],
    ["user_role_trgm_idx", sql`lower("role") ${opclass}`],
  ] as const;
  for (const [name, expression] of indexes) {
    await sql`create index if not exists ${sql.id(name)} on "user" using gin (${expression})`.execute(db);
  }
}

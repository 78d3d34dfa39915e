import { sql, type Kysely } from "kysely";
import type { Dialect } from "../../storage/database.js";

/**
 * organization.requireTwoFactor (ours; README "Organization policy and administrators"): whether the organization
 * refuses members without a second factor. False for every organization that exists, and for every new one unless
 * an owner or admin turns it on. Added only when missing (a database Better Auth wrote has no such column).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === "postgres") {
    await sql`alter table "organization" add column if not exists "requireTwoFactor" boolean not null default false`.execute(db);
    return;
  }
  const { rows } = await sql<{ name: string }>`select name from pragma_table_xinfo('organization') where name = 'requireTwoFactor'`.execute(db);
  if (rows.length === 0) await sql`alter table "organization" add column "requireTwoFactor" integer not null default 0`.execute(db);
}

import type { Kysely } from "kysely";
import type { Dialect } from "../../storage/database.js";
import { columnTypes } from "../../storage/migrations/types.js";

/**
 * emailOtp: the mailed one-time codes (tables.ts). One row per purpose and address (a unique identifier: a new code
 * replaces the old one in place), the code as a keyed hash, the tries made. Expired rows are removed as new codes
 * are made.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable("emailOtp")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("codeHash", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expiresAt", t.date, (c) => c.notNull())
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("emailOtp_identifier_uidx").ifNotExists().unique().on("emailOtp").column("identifier").execute();
  await db.schema.createIndex("emailOtp_expiresAt_idx").ifNotExists().on("emailOtp").column("expiresAt").execute();
}

import type { Kysely } from "kysely";
import type { Dialect } from "../../storage/database.js";
import { columnTypes } from "../../storage/migrations/types.js";

/**
 * event: the audit log and outbox (events/tables.ts). `seq` is the primary key and increases with each insert:
 * SQLite's INTEGER PRIMARY KEY AUTOINCREMENT (never reused, even after the newest rows are pruned), PostgreSQL's
 * bigint identity. One index per way the log is searched, each ending in seq so a page is one index walk.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable("event")
    .ifNotExists()
    .addColumn("seq", dialect === "postgres" ? "bigint" : "integer", (c) =>
      dialect === "postgres" ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .addColumn("actorId", "text")
    .addColumn("userId", "text")
    .addColumn("organizationId", "text")
    .addColumn("ipAddress", "text")
    .addColumn("userAgent", "text")
    .addColumn("data", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("event_id_uidx").ifNotExists().unique().on("event").column("id").execute();
  for (const column of ["userId", "actorId", "organizationId", "type"]) {
    await db.schema
      .createIndex(`event_${column}_seq_idx`)
      .ifNotExists()
      .on("event")
      .columns([column, "seq"])
      .execute();
  }
  await db.schema.createIndex("event_createdAt_idx").ifNotExists().on("event").column("createdAt").execute();
}

import type { Kysely } from "kysely";
import type { Dialect } from "../../storage/database.js";
import { columnTypes } from "../../storage/migrations/types.js";

/**
 * The webhooks' tables (webhooks/tables.ts): endpoints made through the admin API, one delivery per event and
 * endpoint, the fan-out's cursor over the event table, and the seqs it passed that no event had yet. Event seqs are
 * bigint on PostgreSQL, as the event table's.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  const seq = dialect === "postgres" ? "bigint" : "integer";
  await db.schema
    .createTable("webhookEndpoint")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("events", "text")
    .addColumn("enabled", t.bool, (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .addColumn("updatedAt", t.date, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("webhookDelivery")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("endpointId", "text", (c) => c.notNull())
    .addColumn("eventSeq", seq, (c) => c.notNull())
    .addColumn("eventId", "text", (c) => c.notNull())
    .addColumn("eventType", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("nextAttemptAt", t.date)
    .addColumn("lastAttemptAt", t.date)
    .addColumn("responseStatus", "integer")
    .addColumn("responseBody", "text")
    .addColumn("error", "text")
    .addColumn("durationMs", "integer")
    .addColumn("createdAt", t.date, (c) => c.notNull())
    .addColumn("deliveredAt", t.date)
    .execute();
  await db.schema
    .createIndex("webhookDelivery_endpointId_eventSeq_uidx")
    .ifNotExists()
    .unique()
    .on("webhookDelivery")
    .columns(["endpointId", "eventSeq"])
    .execute();
  await db.schema.createIndex("webhookDelivery_nextAttemptAt_idx").ifNotExists().on("webhookDelivery").column("nextAttemptAt").execute();
  await db.schema.createIndex("webhookDelivery_createdAt_idx").ifNotExists().on("webhookDelivery").column("createdAt").execute();

  await db.schema
    .createTable("webhookCursor")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("seq", seq, (c) => c.notNull())
    .execute();

  // The fan-out starts after the newest event there is now: the log's history is not sent, everything from here on
  // is (also what happens between the service's start and the dispatcher's first look).
  const typed = db as Kysely<{ event: { seq: number }; webhookCursor: { id: string; seq: number } }>;
  const newest = await typed.selectFrom("event").select((eb) => eb.fn.max("seq").as("seq")).executeTakeFirst();
  await typed
    .insertInto("webhookCursor")
    .values({ id: "fanout", seq: Number(newest?.seq ?? 0) })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();

  await db.schema
    .createTable("webhookGap")
    .ifNotExists()
    .addColumn("seq", seq, (c) => c.primaryKey())
    .addColumn("seenAt", t.date, (c) => c.notNull())
    .execute();
}

import { sql, type Kysely, type Selectable } from "kysely";
import { toStoredEvent } from "../../events/store/events.js";
import type { StoredEvent } from "../../events/store/models.js";
import type { Dialect } from "../../storage/database.js";
import { dbBool, dbDate, toBool, toDate, toDateOrNull } from "../../storage/rows.js";
import type { WebhookDatabase, WebhookDeliveryTable, WebhookEndpointTable } from "../tables.js";
import type { DeliveryOutcome, DeliveryStatus, OutboxGap, NewDelivery, StoredDelivery, StoredEndpoint } from "./models.js";

export type * from "./models.js";

const CURSOR_ID = "fanout";

function toEndpoint(row: Selectable<WebhookEndpointTable>): StoredEndpoint {
  let events: string[] | null = null;
  if (row.events !== null) {
    try {
      const parsed: unknown = JSON.parse(row.events);
      events = Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === "string") : null;
    } catch {
      events = null;
    }
  }
  return {
    id: row.id,
    url: row.url,
    description: row.description ?? null,
    events,
    enabled: toBool(row.enabled),
    sealedSecret: row.secret,
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
  };
}

function toDelivery(row: Selectable<WebhookDeliveryTable>): StoredDelivery {
  return {
    id: row.id,
    endpointId: row.endpointId,
    eventSeq: Number(row.eventSeq),
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status as DeliveryStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: toDateOrNull(row.nextAttemptAt),
    lastAttemptAt: toDateOrNull(row.lastAttemptAt),
    responseStatus: row.responseStatus === null ? null : Number(row.responseStatus),
    responseBody: row.responseBody ?? null,
    error: row.error ?? null,
    durationMs: row.durationMs === null ? null : Number(row.durationMs),
    createdAt: toDate(row.createdAt),
    deliveredAt: toDateOrNull(row.deliveredAt),
  };
}

/** One outcome, written only while its try still holds the delivery. */
async function recordOne(db: Kysely<WebhookDatabase>, outcome: DeliveryOutcome): Promise<void> {
  await db
    .updateTable("webhookDelivery")
    .set({
      status: outcome.status,
      nextAttemptAt: outcome.nextAttemptAt === null ? null : dbDate(outcome.nextAttemptAt),
      lastAttemptAt: dbDate(outcome.at),
      responseStatus: outcome.responseStatus,
      responseBody: outcome.responseBody,
      error: outcome.error,
      durationMs: outcome.durationMs,
      ...(outcome.status === "delivered" ? { deliveredAt: dbDate(outcome.at) } : {}),
    })
    .where("id", "=", outcome.id)
    .where("status", "=", "sending")
    .where("attempts", "=", outcome.attempt)
    .execute();
}

/** Endpoints made through the admin API. */
function webhookEndpointStore(db: Kysely<WebhookDatabase>) {
  return {
    async listEndpoints(): Promise<StoredEndpoint[]> {
      const rows = await db.selectFrom("webhookEndpoint").selectAll().orderBy("createdAt").orderBy("id").execute();
      return rows.map(toEndpoint);
    },

    async findEndpoint(id: string): Promise<StoredEndpoint | null> {
      const row = await db.selectFrom("webhookEndpoint").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? toEndpoint(row) : null;
    },

    async countEndpoints(): Promise<number> {
      const row = await db.selectFrom("webhookEndpoint").select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    async insertEndpoint(endpoint: StoredEndpoint): Promise<void> {
      await db
        .insertInto("webhookEndpoint")
        .values({
          id: endpoint.id,
          url: endpoint.url,
          description: endpoint.description,
          events: endpoint.events === null ? null : JSON.stringify(endpoint.events),
          enabled: dbBool(endpoint.enabled),
          secret: endpoint.sealedSecret,
          createdAt: dbDate(endpoint.createdAt),
          updatedAt: dbDate(endpoint.updatedAt),
        })
        .execute();
    },

    /** Writes the endpoint's changeable fields; false when it is gone. */
    async updateEndpoint(endpoint: StoredEndpoint): Promise<boolean> {
      const result = await db
        .updateTable("webhookEndpoint")
        .set({
          url: endpoint.url,
          description: endpoint.description,
          events: endpoint.events === null ? null : JSON.stringify(endpoint.events),
          enabled: dbBool(endpoint.enabled),
          secret: endpoint.sealedSecret,
          updatedAt: dbDate(endpoint.updatedAt),
        })
        .where("id", "=", endpoint.id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Removes the endpoint; false when it was gone. Its deliveries go separately (deleteEndpointDeliveries). */
    async deleteEndpoint(id: string): Promise<boolean> {
      const result = await db.deleteFrom("webhookEndpoint").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}

/** Deliveries: the log per endpoint, the tries' claims and outcomes. */
function webhookDeliveryStore(db: Kysely<WebhookDatabase>, dialect: Dialect) {
  return {
    /** A page of an endpoint's log, newest event first; `beforeSeq` continues a previous page. */
    async listDeliveries(
      endpointId: string,
      filter: { status?: DeliveryStatus | undefined; beforeSeq?: number | undefined },
      limit: number,
    ): Promise<StoredDelivery[]> {
      let q = db.selectFrom("webhookDelivery").selectAll().where("endpointId", "=", endpointId);
      if (filter.status !== undefined) q = q.where("status", "=", filter.status);
      if (filter.beforeSeq !== undefined) q = q.where("eventSeq", "<", filter.beforeSeq);
      const rows = await q.orderBy("eventSeq", "desc").limit(limit).execute();
      return rows.map(toDelivery);
    },

    async findDelivery(id: string): Promise<StoredDelivery | null> {
      const row = await db.selectFrom("webhookDelivery").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? toDelivery(row) : null;
    },

    async deleteEndpointDeliveries(endpointId: string): Promise<number> {
      const result = await db.deleteFrom("webhookDelivery").where("endpointId", "=", endpointId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** The endpoint's deliveries waiting for a try end as failed, with `error` (an endpoint turned off). */
    async cancelPendingDeliveries(endpointId: string, error: string): Promise<number> {
      const result = await db
        .updateTable("webhookDelivery")
        .set({ status: "failed", nextAttemptAt: null, error })
        .where("endpointId", "=", endpointId)
        .where("status", "=", "pending")
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /**
     * A delivery tried again from the start (a fresh retry schedule), due `now`: a delivered or failed one, or a
     * pending one brought forward. Null when it is gone or being sent right now.
     */
    async resendDelivery(id: string, now: Date): Promise<StoredDelivery | null> {
      const row = await db
        .updateTable("webhookDelivery")
        .set({ status: "pending", attempts: 0, nextAttemptAt: dbDate(now) })
        .where("id", "=", id)
        .where("status", "<>", "sending")
        .returningAll()
        .executeTakeFirst();
      return row ? toDelivery(row) : null;
    },

    /**
     * Takes up to `limit` due deliveries (pending and due, or sending whose instance lost them at `nextAttemptAt`)
     * for this instance until `leaseUntil`, each try counted. On PostgreSQL the rows are locked as they are taken
     * and rows another instance is taking are skipped (FOR UPDATE SKIP LOCKED), so no two instances take one.
     */
    async claimDueDeliveries(now: Date, leaseUntil: Date, limit: number): Promise<StoredDelivery[]> {
      let due = db
        .selectFrom("webhookDelivery")
        .select("id")
        .where("nextAttemptAt", "<=", dbDate(now))
        .orderBy("nextAttemptAt")
        .limit(limit);
      if (dialect === "postgres") due = due.forUpdate().skipLocked();
      const rows = await db
        .updateTable("webhookDelivery")
        .set({
          status: "sending",
          attempts: sql<number>`"attempts" + 1`,
          nextAttemptAt: dbDate(leaseUntil),
          lastAttemptAt: dbDate(now),
        })
        .where("id", "in", due)
        .returningAll()
        .execute();
      return rows.map(toDelivery);
    },

    /**
     * Writes the tries' outcomes, each only if its instance still holds the delivery for that try (sending, same
     * attempt count): a try whose lease ran out and was taken again does not overwrite the later one.
     */
    async recordOutcomes(outcomes: readonly DeliveryOutcome[]): Promise<void> {
      if (outcomes.length === 0) return;
      if (dialect === "postgres") {
        // One statement for the batch: the outcomes as arrays, unnested into rows.
        const column = <T>(read: (o: DeliveryOutcome) => T) => outcomes.map(read);
        const iso = (date: Date | null) => (date === null ? null : date.toISOString());
        await sql`
          update "webhookDelivery" as d set
            "status" = v.status,
            "nextAttemptAt" = v.next,
            "lastAttemptAt" = v.at,
            "responseStatus" = v.rs,
            "responseBody" = v.rb,
            "error" = v.err,
            "durationMs" = v.dur,
            "deliveredAt" = case when v.status = 'delivered' then v.at else d."deliveredAt" end
          from unnest(
            ${column((o) => o.id)}::text[], ${column((o) => o.attempt)}::int[], ${column((o) => o.status)}::text[],
            ${column((o) => iso(o.nextAttemptAt))}::timestamptz[], ${column((o) => o.at.toISOString())}::timestamptz[],
            ${column((o) => o.responseStatus)}::int[], ${column((o) => o.responseBody)}::text[],
            ${column((o) => o.error)}::text[], ${column((o) => o.durationMs)}::int[]
          ) as v(id, attempt, status, next, at, rs, rb, err, dur)
          where d."id" = v.id and d."status" = 'sending' and d."attempts" = v.attempt
        `.execute(db);
        return;
      }
      const write = async (conn: Kysely<WebhookDatabase>) => {
        for (const outcome of outcomes) await recordOne(conn, outcome);
      };
      // SQLite: one transaction for the batch (one commit), or the caller's.
      await (db.isTransaction ? write(db) : db.transaction().execute(write));
    },

    /** The lowest event seq a delivery still waiting or being sent needs; null when none. */
    async lowestOpenEventSeq(): Promise<number | null> {
      const row = await db
        .selectFrom("webhookDelivery")
        .select((eb) => eb.fn.min("eventSeq").as("seq"))
        .where("nextAttemptAt", "is not", null)
        .executeTakeFirst();
      return row?.seq === null || row?.seq === undefined ? null : Number(row.seq);
    },

    /** Deletes finished deliveries made before `before`, in batches; answers how many went. */
    async pruneDeliveries(before: Date): Promise<number> {
      let total = 0;
      for (;;) {
        const batch = db
          .selectFrom("webhookDelivery")
          .select("id")
          .where("createdAt", "<", dbDate(before))
          .where("nextAttemptAt", "is", null)
          .limit(5_000);
        const result = await db.deleteFrom("webhookDelivery").where("id", "in", batch).executeTakeFirst();
        const deleted = Number(result.numDeletedRows);
        total += deleted;
        if (deleted < 5_000) return total;
      }
    },
  };
}

/**
 * The outbox side: the event table read from the cursor, the cursor itself and the gaps it passed. A fan-out's
 * lockCursor, reads, insertDeliveries, setCursor and gaps belong in one transaction (dispatcher.ts).
 */
function webhookOutboxStore(db: Kysely<WebhookDatabase>, dialect: Dialect) {
  return {
    /** The newest event's seq; 0 with none. */
    async maxEventSeq(): Promise<number> {
      const row = await db.selectFrom("event").select((eb) => eb.fn.max("seq").as("seq")).executeTakeFirst();
      return row?.seq === null || row?.seq === undefined ? 0 : Number(row.seq);
    },

    /** The cursor's seq without locking it; null before the first fan-out. */
    async readCursor(): Promise<number | null> {
      const row = await db.selectFrom("webhookCursor").select("seq").where("id", "=", CURSOR_ID).executeTakeFirst();
      return row ? Number(row.seq) : null;
    },

    /**
     * The cursor, locked for this transaction. On PostgreSQL null when another instance holds it (it is fanning
     * out now: SKIP LOCKED). The migration makes it (after the newest event of the time); if it went missing, it is
     * made again at the newest event.
     */
    async lockCursor(): Promise<number | null> {
      const read = () => {
        const q = db.selectFrom("webhookCursor").select("seq").where("id", "=", CURSOR_ID);
        return (dialect === "postgres" ? q.forUpdate().skipLocked() : q).executeTakeFirst();
      };
      let row = await read();
      if (!row) {
        const exists = await db.selectFrom("webhookCursor").select("id").where("id", "=", CURSOR_ID).executeTakeFirst();
        if (exists) return null; // there, and locked by another instance
        const start = await db.selectFrom("event").select((eb) => eb.fn.max("seq").as("seq")).executeTakeFirst();
        await db
          .insertInto("webhookCursor")
          .values({ id: CURSOR_ID, seq: Number(start?.seq ?? 0) })
          .onConflict((oc) => oc.column("id").doNothing())
          .execute();
        row = await read();
      }
      return row ? Number(row.seq) : null;
    },

    async setCursor(seq: number): Promise<void> {
      await db.updateTable("webhookCursor").set({ seq }).where("id", "=", CURSOR_ID).execute();
    },

    /** Events after `afterSeq`, oldest first. */
    async eventsAfter(afterSeq: number, limit: number): Promise<StoredEvent[]> {
      const rows = await db.selectFrom("event").selectAll().where("seq", ">", afterSeq).orderBy("seq").limit(limit).execute();
      return rows.map(toStoredEvent);
    },

    /** The events with these seqs (those there are). */
    async eventsBySeq(seqs: readonly number[]): Promise<StoredEvent[]> {
      if (seqs.length === 0) return [];
      const rows = await db.selectFrom("event").selectAll().where("seq", "in", [...seqs]).orderBy("seq").execute();
      return rows.map(toStoredEvent);
    },

    async listGaps(): Promise<OutboxGap[]> {
      const rows = await db.selectFrom("webhookGap").selectAll().orderBy("seq").execute();
      return rows.map((row) => ({ seq: Number(row.seq), seenAt: toDate(row.seenAt) }));
    },

    async insertGaps(gaps: readonly OutboxGap[]): Promise<void> {
      for (let i = 0; i < gaps.length; i += 1_000) {
        await db
          .insertInto("webhookGap")
          .values(gaps.slice(i, i + 1_000).map((g) => ({ seq: g.seq, seenAt: dbDate(g.seenAt) })))
          .onConflict((oc) => oc.column("seq").doNothing())
          .execute();
      }
    },

    async deleteGaps(seqs: readonly number[]): Promise<void> {
      if (seqs.length) await db.deleteFrom("webhookGap").where("seq", "in", [...seqs]).execute();
    },

    async deleteAllGaps(): Promise<void> {
      await db.deleteFrom("webhookGap").execute();
    },

    /** The lowest gap's seq; null with none. */
    async lowestGap(): Promise<number | null> {
      const row = await db.selectFrom("webhookGap").select((eb) => eb.fn.min("seq").as("seq")).executeTakeFirst();
      return row?.seq === null || row?.seq === undefined ? null : Number(row.seq);
    },

    /**
     * Writes new deliveries; one already there for the same event and endpoint is kept as it is. Answers the ids
     * written.
     */
    async insertDeliveries(deliveries: readonly NewDelivery[]): Promise<Set<string>> {
      const written = new Set<string>();
      // A statement's parameters are bounded (SQLite: 32,766): 10 columns a row, 500 rows a statement.
      for (let i = 0; i < deliveries.length; i += 500) {
        await db
          .insertInto("webhookDelivery")
          .values(
            deliveries.slice(i, i + 500).map((d) => ({
              id: d.id,
              endpointId: d.endpointId,
              eventSeq: d.eventSeq,
              eventId: d.eventId,
              eventType: d.eventType,
              status: d.status,
              attempts: d.attempts,
              nextAttemptAt: dbDate(d.nextAttemptAt),
              lastAttemptAt: d.lastAttemptAt === null ? null : dbDate(d.lastAttemptAt),
              createdAt: dbDate(d.createdAt),
            })),
          )
          .onConflict((oc) => oc.columns(["endpointId", "eventSeq"]).doNothing())
          .returning("id")
          .execute()
          .then((rows) => rows.forEach((row) => written.add(row.id)));
      }
      return written;
    },
  };
}

/** The webhooks module's repositories over one connection (or one transaction). */
export function webhookRepositories(db: Kysely<WebhookDatabase>, dialect: Dialect) {
  return {
    webhookEndpoints: webhookEndpointStore(db),
    webhookDeliveries: webhookDeliveryStore(db, dialect),
    webhookOutbox: webhookOutboxStore(db, dialect),
  };
}

export type WebhookRepositories = ReturnType<typeof webhookRepositories>;

import { CompiledQuery, type Kysely, type Selectable } from "kysely";
import type { Dialect } from "../../storage/database.js";
import { dbDate, toDate } from "../../storage/rows.js";
import type { EventDatabase, EventTable } from "../tables.js";
import type { EventRow, EventListQuery, StoredEvent, StoredEventWithUsers, EventPartyName } from "./models.js";

/** The columns an insert writes, in the order of the prepared statement's parameters. */
const INSERT_COLUMNS = [
  "id",
  "type",
  "createdAt",
  "actorId",
  "userId",
  "organizationId",
  "ipAddress",
  "userAgent",
  "data",
] as const;

/** An event as the columns of its insert (seq is the database's). */
export function toEventValues(row: EventRow): Record<(typeof INSERT_COLUMNS)[number], string | null> {
  return {
    id: row.id,
    type: row.type,
    createdAt: dbDate(row.createdAt),
    actorId: row.actorId,
    userId: row.userId,
    organizationId: row.organizationId,
    ipAddress: row.ipAddress,
    userAgent: row.userAgent,
    data: JSON.stringify(row.data),
  };
}

export function toStoredEvent(row: Selectable<EventTable>): StoredEvent {
  return {
    seq: Number(row.seq),
    id: row.id,
    type: row.type,
    createdAt: toDate(row.createdAt),
    actorId: row.actorId ?? null,
    userId: row.userId ?? null,
    organizationId: row.organizationId ?? null,
    ipAddress: row.ipAddress ?? null,
    userAgent: row.userAgent ?? null,
    data: parseData(row.data),
  };
}

function parseData(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Rows a prune deletes per statement, so a large backlog never holds the write lock for long. */
const PRUNE_BATCH = 5_000;

/**
 * The insert's SQL, compiled once per dialect: every event is one statement with fresh parameters and no query
 * building (the stores are built again for each transaction, so not there either).
 */
const insertSql = new Map<Dialect, string>();

export function eventStore(db: Kysely<EventDatabase>, dialect: Dialect) {
  const insertStatement = (): string => {
    let text = insertSql.get(dialect);
    if (text === undefined) {
      text = db
        .insertInto("event")
        .values(Object.fromEntries(INSERT_COLUMNS.map((c) => [c, ""])) as never)
        .compile().sql;
      insertSql.set(dialect, text);
    }
    return text;
  };

  const filtered = (query: EventListQuery) => {
    let q = db.selectFrom("event as e");
    if (query.userId !== undefined) q = q.where("e.userId", "=", query.userId);
    if (query.actorId !== undefined) q = q.where("e.actorId", "=", query.actorId);
    if (query.organizationId !== undefined) q = q.where("e.organizationId", "=", query.organizationId);
    if (query.ipAddress !== undefined) q = q.where("e.ipAddress", "=", query.ipAddress);
    if (query.types !== undefined) {
      // An empty list matches nothing (a filter on a type no event has).
      q = query.types.length ? q.where("e.type", "in", query.types) : q.where((eb) => eb.val(1), "=", 0);
    }
    if (query.from !== undefined) q = q.where("e.createdAt", ">=", dbDate(query.from));
    if (query.to !== undefined) q = q.where("e.createdAt", "<", dbDate(query.to));
    if (query.beforeSeq !== undefined) q = q.where("e.seq", "<", query.beforeSeq);
    return q;
  };

  return {
    /** Writes one event (inside the caller's transaction when the store is bound to one). */
    async insert(row: EventRow): Promise<void> {
      const values = toEventValues(row);
      await db.executeQuery(CompiledQuery.raw(insertStatement(), INSERT_COLUMNS.map((c) => values[c])));
    },

    /** A page of events, newest first (seq descending), `limit` at most. */
    async list(query: EventListQuery, limit: number): Promise<StoredEvent[]> {
      const rows = await filtered(query).selectAll("e").orderBy("e.seq", "desc").limit(limit).execute();
      return rows.map(toStoredEvent);
    },

    /** Like list, with the actor's and the subject's name and address (null when that user is gone). */
    async listWithUsers(query: EventListQuery, limit: number): Promise<StoredEventWithUsers[]> {
      const rows = await filtered(query)
        .leftJoin("user as a", "a.id", "e.actorId")
        .leftJoin("user as u", "u.id", "e.userId")
        .selectAll("e")
        .select(["a.email as actorEmail", "a.name as actorName", "u.email as userEmail", "u.name as userName"])
        .orderBy("e.seq", "desc")
        .limit(limit)
        .execute();
      const party = (id: string | null, email: string | null, name: string | null): EventPartyName | null =>
        id !== null && email !== null ? { id, email, name: name ?? "" } : null;
      return rows.map((row) => ({
        ...toStoredEvent(row),
        actor: party(row.actorId, row.actorEmail, row.actorName),
        user: party(row.userId, row.userEmail, row.userName),
      }));
    },

    /**
     * The outbox read: events after `afterSeq`, oldest first. On PostgreSQL a transaction still open may commit a
     * lower seq after a higher one is visible; see /README.md "Security events" before keeping only a max as cursor.
     */
    async listAfter(afterSeq: number, limit: number): Promise<StoredEvent[]> {
      const rows = await db.selectFrom("event").selectAll().where("seq", ">", afterSeq).orderBy("seq").limit(limit).execute();
      return rows.map(toStoredEvent);
    },

    async findById(id: string): Promise<StoredEvent | null> {
      const row = await db.selectFrom("event").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? toStoredEvent(row) : null;
    },

    /**
     * Deletes the events made before `before`, but none at or after `keepFromSeq` (a reader still needs them), in
     * batches. Answers how many went.
     */
    async prune(before: Date, keepFromSeq: number | null): Promise<number> {
      let total = 0;
      for (;;) {
        let batch = db.selectFrom("event").select("seq").where("createdAt", "<", dbDate(before));
        if (keepFromSeq !== null) batch = batch.where("seq", "<", keepFromSeq);
        const result = await db
          .deleteFrom("event")
          .where("seq", "in", batch.orderBy("seq").limit(PRUNE_BATCH))
          .executeTakeFirst();
        const deleted = Number(result.numDeletedRows);
        total += deleted;
        if (deleted < PRUNE_BATCH) return total;
      }
    },
  };
}

export type EventStore = ReturnType<typeof eventStore>;

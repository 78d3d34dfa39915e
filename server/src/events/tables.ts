import type { Generated } from "kysely";
import type { TableSpecs } from "../storage/expected-schema.js";
import type { Database, DbDate } from "../storage/schema.js";

/**
 * The events module's table: the audit log, and the outbox later readers (webhooks) take new events from in `seq`
 * order. No foreign keys: the log outlives the users and organizations it names (until its retention prunes it).
 */
export interface EventTable {
  /** Increasing with each insert: the order of reads (newest first) and the cursor of pages and outbox readers. */
  seq: Generated<number | string | bigint>;
  /** Random, stable id (a webhook's id). */
  id: string;
  /** `noun.past_verb` (types.ts). */
  type: string;
  createdAt: DbDate;
  /** Who did it: the user, the administrator (also while impersonating), or null (the system, nobody signed in). */
  actorId: string | null;
  /** The user it was done to. */
  userId: string | null;
  organizationId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  /** The payload, JSON (types.ts EventPayloads). */
  data: string;
}

export interface EventTables {
  event: EventTable;
}

/** Keyed by the interface above, so a column added there and not here fails to compile. */
export const EVENT_TABLE_SPECS: TableSpecs<EventTables> = {
  event: {
    columns: {
      seq: { type: "integer", notNull: true },
      id: { type: "text", notNull: true },
      type: { type: "text", notNull: true },
      createdAt: { type: "date", notNull: true },
      actorId: { type: "text" },
      userId: { type: "text" },
      organizationId: { type: "text" },
      ipAddress: { type: "text" },
      userAgent: { type: "text" },
      data: { type: "text", notNull: true },
    },
    indexes: [
      { name: "event_id_uidx", columns: ["id"], unique: true },
      { name: "event_userId_seq_idx", columns: ["userId", "seq"] },
      { name: "event_actorId_seq_idx", columns: ["actorId", "seq"], onlyNotNull: true },
      { name: "event_organizationId_seq_idx", columns: ["organizationId", "seq"], onlyNotNull: true },
      { name: "event_type_seq_idx", columns: ["type", "seq"] },
      { name: "event_createdAt_idx", columns: ["createdAt"] },
    ],
  },
};

/** What the module's store reads: its table and the core ones (the admin list names actors and users). */
export interface EventDatabase extends Database, EventTables {}

import type { TableSpecs } from "../storage/expected-schema.js";
import type { DbBool, DbDate } from "../storage/schema.js";
import type { EventDatabase } from "../events/tables.js";

/**
 * The webhooks' tables (README "Webhooks"). The security events' table (`event`, events/tables.ts) is the outbox:
 * the dispatcher fans each new event out into one delivery per endpoint that wants it, in one transaction with
 * the cursor that says how far it has read. No foreign keys to the event: an event may be pruned while its
 * delivery log stays (until the log's own prune).
 */

/** An endpoint made through the admin API (the configuration file's live in the configuration only). */
export interface WebhookEndpointTable {
  id: string;
  url: string;
  description: string | null;
  /** JSON array of event patterns (exact types, `user.*`, `*`); null: every type. */
  events: string | null;
  enabled: DbBool;
  /** The `whsec_` secret, sealed (crypto/seal.ts, webhooks/secrets.ts): never stored as itself. */
  secret: string;
  createdAt: DbDate;
  updatedAt: DbDate;
}

/** One event to one endpoint: its state and the last try's answer. */
export interface WebhookDeliveryTable {
  id: string;
  /** A webhookEndpoint's id, or a configuration file's endpoint id (`config_…`). */
  endpointId: string;
  /** The event's seq (the order of the log) and id (the `webhook-id` header). */
  eventSeq: number | string | bigint;
  eventId: string;
  eventType: string;
  /** pending (waiting for its next try, `nextAttemptAt`), sending (an instance holds it until `nextAttemptAt`), delivered, failed. */
  status: string;
  /** Tries made (a try counts when an instance takes it). */
  attempts: number;
  /** When it is due (pending) or when the instance sending it loses it (sending); null once delivered or failed. */
  nextAttemptAt: DbDate | null;
  lastAttemptAt: DbDate | null;
  /** The last try's HTTP status; null when no answer came (a refused target, a timeout, a connection error). */
  responseStatus: number | null;
  /** The start of the last answer's body (at most 1,000 characters). */
  responseBody: string | null;
  /** Why the last try failed without an answer, or what the status meant. */
  error: string | null;
  durationMs: number | null;
  createdAt: DbDate;
  deliveredAt: DbDate | null;
}

/**
 * How far the fan-out has read the outbox: every event at or below `seq` has its deliveries, except those of the
 * seqs in webhookGap. One row, id "fanout".
 */
export interface WebhookCursorTable {
  id: string;
  seq: number | string | bigint;
}

/**
 * Seqs below the cursor that no event had when the fan-out passed them. On PostgreSQL a transaction still open may
 * commit an event below ones already visible (a seq is taken at insert, not at commit): such a seq is remembered
 * here, its event fanned out when it appears, and the gap given up after a grace (a rolled-back transaction's seq
 * never appears). README "Webhooks".
 */
export interface WebhookGapTable {
  seq: number | string | bigint;
  /** When the fan-out first passed it. */
  seenAt: DbDate;
}

export interface WebhookTables {
  webhookEndpoint: WebhookEndpointTable;
  webhookDelivery: WebhookDeliveryTable;
  webhookCursor: WebhookCursorTable;
  webhookGap: WebhookGapTable;
}

/** Keyed by the interfaces above, so a column added there and not here fails to compile. */
export const WEBHOOK_TABLE_SPECS: TableSpecs<WebhookTables> = {
  webhookEndpoint: {
    columns: {
      id: { type: "text", notNull: true },
      url: { type: "text", notNull: true },
      description: { type: "text" },
      events: { type: "text" },
      enabled: { type: "bool", notNull: true },
      secret: { type: "text", notNull: true },
      createdAt: { type: "date", notNull: true },
      updatedAt: { type: "date", notNull: true },
    },
    indexes: [],
  },
  webhookDelivery: {
    columns: {
      id: { type: "text", notNull: true },
      endpointId: { type: "text", notNull: true },
      eventSeq: { type: "integer", notNull: true },
      eventId: { type: "text", notNull: true },
      eventType: { type: "text", notNull: true },
      status: { type: "text", notNull: true },
      attempts: { type: "integer", notNull: true },
      nextAttemptAt: { type: "date" },
      lastAttemptAt: { type: "date" },
      responseStatus: { type: "integer" },
      responseBody: { type: "text" },
      error: { type: "text" },
      durationMs: { type: "integer" },
      createdAt: { type: "date", notNull: true },
      deliveredAt: { type: "date" },
    },
    indexes: [
      // One delivery per event and endpoint (a second fan-out of an event writes nothing), and the log's pages.
      { name: "webhookDelivery_endpointId_eventSeq_uidx", columns: ["endpointId", "eventSeq"], unique: true },
      // Due deliveries, oldest first.
      { name: "webhookDelivery_nextAttemptAt_idx", columns: ["nextAttemptAt"] },
      { name: "webhookDelivery_createdAt_idx", columns: ["createdAt"] },
    ],
  },
  webhookCursor: {
    columns: {
      id: { type: "text", notNull: true },
      seq: { type: "integer", notNull: true },
    },
    indexes: [],
  },
  webhookGap: {
    columns: {
      seq: { type: "integer", notNull: true },
      seenAt: { type: "date", notNull: true },
    },
    indexes: [],
  },
};

/** What the module's store reads and writes: its tables, the event table (the outbox) and the core ones. */
export interface WebhookDatabase extends EventDatabase, WebhookTables {}

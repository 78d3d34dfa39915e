import type { Config } from "../config/index.js";
import { timeOrderedId } from "../crypto/random.js";
import type { ExtraRow } from "../storage/new-user.js";
import type { SessionAndUser } from "../storage/sessions.js";
import type { EventRepositories, EventRow } from "./store/index.js";
import { toEventValues } from "./store/index.js";
import type { EventData, EventType } from "./types.js";

/**
 * Where an event comes from: a route's context (any EndpointContext whose runtime has the configuration and the
 * clock), or systemEventSource() for work outside a request.
 */
export interface EventSource {
  /** The client address ("" when unknown: an in-process call). */
  ip: string;
  headers: Headers;
  /** The caller's session, when the route loaded one: the default actor. */
  session: SessionAndUser | null;
  runtime: { config: Pick<Config, "events">; now(): Date };
}

export interface EventFields<T extends EventType> {
  /** The user it was done to. */
  userId?: string | null | undefined;
  organizationId?: string | null | undefined;
  /**
   * Who did it, when not the caller's session: the user signing in (no session yet), the holder of a mailed
   * token, null for the system. Unset: the session's administrator while impersonating, else its user, else null.
   */
  actorId?: string | null | undefined;
  data: EventData<T>;
}

/** Stores that can write an event: any stores object (the events module's repository is in every one at run time). */
export type EventWriter = { transaction(fn: never): Promise<unknown> } & Partial<EventRepositories>;

/**
 * The actor a session stands for: the administrator while impersonating, else its user; null without one. For
 * routes that read the session themselves (auth "none" and ctx.getSession()), whose ctx.session stays null.
 */
export function actorOf(session: SessionAndUser | null | undefined): string | null {
  return session ? (session.session.impersonatedBy ?? session.user.id) : null;
}

/**
 * The event, not yet written; null when events are off. For the hot paths that write it in the same statement as
 * their change (insertNewUser's and createSession's `extraRows`, eventInsert below); everyone else calls emitEvent.
 */
export function buildEventRow<T extends EventType>(source: EventSource, type: T, fields: EventFields<T>): EventRow<T> | null {
  if (!source.runtime.config.events.enabled) return null;
  const actorId = fields.actorId !== undefined ? fields.actorId : actorOf(source.session);
  const createdAt = source.runtime.now();
  return {
    // Time-ordered: the event table's id index grows at its end (a random id changed a page of its own per event).
    id: timeOrderedId(createdAt.getTime()),
    type,
    createdAt,
    actorId,
    userId: fields.userId ?? null,
    organizationId: fields.organizationId ?? null,
    ipAddress: source.ip || null,
    userAgent: source.headers.get("user-agent") || null,
    data: fields.data,
  };
}

/**
 * Writes a security event. Call it with the stores of the transaction that makes the change, after the change,
 * so the event exists if and only if the change is committed. Does nothing when `events.enabled` is false or the
 * events module is not installed. Reads never emit.
 */
export async function emitEvent<T extends EventType>(
  stores: EventWriter,
  source: EventSource,
  type: T,
  fields: EventFields<T>,
): Promise<void> {
  if (!stores.events) return;
  const row = buildEventRow(source, type, fields);
  if (row) await stores.events.insert(row);
}

/**
 * The event as an extra row of another store's insert (`extraRows` of insertNewUser and createSession: one
 * statement on PostgreSQL, one transaction on SQLite); none when events are off or the module is not installed.
 */
export function eventInsert(stores: EventWriter, row: EventRow | null): ExtraRow[] {
  return row && stores.events ? [{ table: "event", values: toEventValues(row) }] : [];
}

/** The source of events made outside any request (background work): no address, no user agent, no session. */
export function systemEventSource(runtime: EventSource["runtime"]): EventSource {
  return { ip: "", headers: new Headers(), session: null, runtime };
}

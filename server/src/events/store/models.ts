import type { EventData, EventType } from "../types.js";

/** An event about to be written (emit.ts builds it). */
export interface EventRow<T extends EventType = EventType> {
  id: string;
  type: T;
  createdAt: Date;
  actorId: string | null;
  userId: string | null;
  organizationId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  data: EventData<T>;
}

/** An event as read back. `type` is a string: a row may name a type this version no longer knows. */
export interface StoredEvent {
  seq: number;
  id: string;
  type: string;
  createdAt: Date;
  actorId: string | null;
  userId: string | null;
  organizationId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  data: Record<string, unknown>;
}

/** A user an event names, as the administrators' list shows them. */
export interface EventPartyName {
  id: string;
  email: string;
  name: string;
}

export interface StoredEventWithUsers extends StoredEvent {
  actor: EventPartyName | null;
  user: EventPartyName | null;
}

/** Filters of a search; every one given must hold. */
export interface EventListQuery {
  userId?: string | undefined;
  actorId?: string | undefined;
  organizationId?: string | undefined;
  ipAddress?: string | undefined;
  /** Exact types (an empty list matches nothing). */
  types?: readonly string[] | undefined;
  /** Inclusive. */
  from?: Date | undefined;
  /** Exclusive. */
  to?: Date | undefined;
  /** Only events before this seq (the next page of a newest-first list). */
  beforeSeq?: number | undefined;
}

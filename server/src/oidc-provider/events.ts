import { emitEvent, type EventFields, type EventSource, type EventWriter } from "../events/emit.js";
import type { EventType } from "../events/types.js";

/**
 * The OpenID Provider's security events (README "Security events"), written through the events module's seam:
 * clients registered, changed and removed; grants given and revoked. A failure to write one is logged, never fails
 * the change (the provider's own writes are not in the event's transaction).
 */
export async function emitOidcEvent<T extends EventType>(
  stores: EventWriter,
  source: EventSource & { runtime: EventSource["runtime"] & { logger?: { warn(fields: object, message: string): void } } },
  type: T,
  fields: EventFields<T>,
): Promise<void> {
  try {
    await emitEvent(stores, source, type, fields);
  } catch (error) {
    source.runtime.logger?.warn({ err: (error as Error).message, type }, "security event not written");
  }
}

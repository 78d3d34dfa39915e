import type { StoredEvent } from "../events/store/models.js";

/**
 * The body of a delivery (README "Webhooks"): `{ type, timestamp, data }` as the Standard Webhooks specification
 * shapes it. `timestamp` is the event's time (ISO 8601, UTC); `data` is the event as the audit log's API answers it
 * (AuditEvent): its id (also the `webhook-id` header), seq, type, time, actor, subject, organization, address, user
 * agent and the type's own fields (`data.data`, never a secret).
 */
export interface WebhookBody {
  type: string;
  timestamp: string;
  data: {
    id: string;
    seq: number;
    type: string;
    createdAt: string;
    actorId: string | null;
    userId: string | null;
    organizationId: string | null;
    ipAddress: string | null;
    userAgent: string | null;
    data: Record<string, unknown>;
  };
}

export function webhookBody(event: StoredEvent): string {
  const createdAt = event.createdAt.toISOString();
  const body: WebhookBody = {
    type: event.type,
    timestamp: createdAt,
    data: {
      id: event.id,
      seq: event.seq,
      type: event.type,
      createdAt,
      actorId: event.actorId,
      userId: event.userId,
      organizationId: event.organizationId,
      ipAddress: event.ipAddress,
      userAgent: event.userAgent,
      data: event.data,
    },
  };
  return JSON.stringify(body);
}

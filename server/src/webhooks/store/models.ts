/** An endpoint as the webhookEndpoint table keeps it (its secret still sealed). */
export interface StoredEndpoint {
  id: string;
  url: string;
  description: string | null;
  /** Event patterns; null: every type. */
  events: string[] | null;
  enabled: boolean;
  sealedSecret: string;
  createdAt: Date;
  updatedAt: Date;
}

export type DeliveryStatus = "pending" | "sending" | "delivered" | "failed";

export interface StoredDelivery {
  id: string;
  endpointId: string;
  eventSeq: number;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

/** A new delivery, written by the fan-out: due now (pending), or taken at once by the instance that wrote it (sending). */
export interface NewDelivery {
  id: string;
  endpointId: string;
  eventSeq: number;
  eventId: string;
  eventType: string;
  status: "pending" | "sending";
  attempts: number;
  nextAttemptAt: Date;
  lastAttemptAt: Date | null;
  createdAt: Date;
}

/** What one try came to, written back only while the try's instance still holds the delivery. */
export interface DeliveryOutcome {
  id: string;
  /** The try's number (the delivery's attempts when it was taken): a later try's record wins. */
  attempt: number;
  status: "pending" | "delivered" | "failed";
  nextAttemptAt: Date | null;
  at: Date;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number | null;
}

/** A seq below the cursor that no event had when the fan-out passed it. */
export interface OutboxGap {
  seq: number;
  seenAt: Date;
}

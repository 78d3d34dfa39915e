import { defineModule } from "../gatehouse-module.js";
import { WEBHOOK_MESSAGES } from "./messages.js";
import * as webhookTables from "./migrations/0017-webhooks.js";
import {
  adminCreateWebhookEndpoint,
  adminDeleteWebhookEndpoint,
  adminListWebhookDeliveries,
  adminListWebhookEndpoints,
  adminResendWebhookDelivery,
  adminRotateWebhookSecret,
  adminUpdateWebhookEndpoint,
} from "./routes.js";
import { startDispatcher, webhooksOn } from "./service.js";
import { webhookRepositories } from "./store/index.js";
import { WEBHOOK_TABLE_SPECS } from "./tables.js";

/**
 * Signed webhooks of the security events (README "Webhooks"): endpoints from the configuration file and the admin
 * API, deliveries fanned out from the event table (the outbox) and sent by the dispatcher (dispatcher.ts) as the
 * Standard Webhooks specification describes, retried on `webhooks.retrySchedule`, with a delivery log per endpoint.
 * On with the security events unless `webhooks.enabled` is false.
 */
export const webhooksModule = defineModule({
  name: "webhooks",
  enabled: webhooksOn,
  endpoints: {
    adminListWebhookEndpoints,
    adminCreateWebhookEndpoint,
    adminUpdateWebhookEndpoint,
    adminRotateWebhookSecret,
    adminDeleteWebhookEndpoint,
    adminListWebhookDeliveries,
    adminResendWebhookDelivery,
  },
  migrations: { "0017-webhooks": webhookTables },
  tables: WEBHOOK_TABLE_SPECS,
  repositories: webhookRepositories,
  errors: WEBHOOK_MESSAGES,
  start(runtime) {
    if (!webhooksOn(runtime.config)) return;
    return startDispatcher(runtime);
  },
  /**
   * The audit log's prune keeps every event the dispatcher still needs: those after its cursor, those of the gaps
   * it waits for, and those of deliveries still waiting for a try.
   */
  async retainEventsFrom(stores, config) {
    if (!webhooksOn(config)) return null;
    const cursor = await stores.webhookOutbox.readCursor();
    if (cursor === null) return null;
    const candidates = [cursor + 1, await stores.webhookOutbox.lowestGap(), await stores.webhookDeliveries.lowestOpenEventSeq()];
    return Math.min(...candidates.filter((seq): seq is number => seq !== null));
  },
});

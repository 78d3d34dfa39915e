import { defineModule } from "../gatehouse-module.js";
import { EVENTS_MESSAGES } from "./messages.js";
import * as eventTables from "./migrations/0015-events.js";
import * as eventPartialIndexes from "./migrations/0018-event-partial-indexes.js";
import { startPruning } from "./prune.js";
import { adminExportEvents, adminListEvents, listOrganizationEvents, listSecurityEvents } from "./routes.js";
import { eventRepositories } from "./store/index.js";
import { EVENT_TABLE_SPECS } from "./tables.js";

/**
 * Security events (README "Security events"): every change of security state writes a typed event (types.ts) in
 * the transaction that makes it (emit.ts); the log is searched by administrators, read by organization owners and
 * admins and by each user for their own account, and pruned after `events.retentionDays`. The table is also the
 * outbox later readers (webhooks) take events from in `seq` order. On unless `events.enabled` is false.
 */
export const eventsModule = defineModule({
  name: "events",
  enabled: (config) => config.events.enabled,
  endpoints: { adminListEvents, adminExportEvents, listOrganizationEvents, listSecurityEvents },
  migrations: { "0015-events": eventTables, "0018-event-partial-indexes": eventPartialIndexes },
  tables: EVENT_TABLE_SPECS,
  repositories: eventRepositories,
  errors: EVENTS_MESSAGES,
  start: (runtime) => startPruning(runtime),
});

import { z } from "zod";
import { requirePermission } from "../admin/guard.js";
import { eventFilterSchema, webhookTargetProblem, webhookURLProblem } from "../config/webhook-options.js";
import { generateId } from "../crypto/random.js";
import { EVENT_TYPES } from "../events/types.js";
import { APIError } from "../http/errors.js";
import { defineWebhookEndpoint, type WebhookContext, type WebhookDeps } from "./deps.js";
import { apiEndpoint, configEndpoints, type WebhookEndpoint } from "./endpoints.js";
import { WEBHOOK_MESSAGES } from "./messages.js";
import { endpointSecretSealer, newWebhookSecret } from "./secrets.js";
import { nudgeDispatcher } from "./service.js";
import type { StoredDelivery, StoredEndpoint } from "./store/index.js";

/**
 * The webhooks' administration (README "Webhooks"): endpoints listed, made, changed, given a new secret and
 * removed, and each endpoint's delivery log read and a delivery sent again. Behind the admin access control's
 * `webhooks` resource (admin/access.ts); the session is read from the database ("sensitive"). An endpoint's secret
 * is answered once, when made or rotated; it is stored sealed and never answered again. Endpoints of the
 * configuration file are listed (source "config", readOnly) and their logs read and resent, but change in the file
 * only.
 */
const TAGS = ["Webhooks", "Admin"] as const;

/** Endpoints the admin API may hold (the configuration file's are counted apart). */
export const MAX_API_ENDPOINTS = 100;
export const DEFAULT_DELIVERY_PAGE = 50;
export const MAX_DELIVERY_PAGE = 200;

const dateTime = z.iso.datetime();

const endpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()).nullable().describe("Event patterns: exact types, prefixes (user.*) or *; null: every type"),
    enabled: z.boolean(),
    source: z.enum(["config", "api"]).describe("config: declared in the configuration file (webhooks.endpoints), read-only here"),
    readOnly: z.boolean().describe("True for the configuration file's endpoints: they change in the file only"),
    createdAt: dateTime.nullable(),
    updatedAt: dateTime.nullable(),
  })
  .meta({ id: "WebhookEndpoint", description: "A webhook endpoint (never its secret)" });

const deliverySchema = z
  .object({
    id: z.string(),
    endpointId: z.string(),
    eventId: z.string().describe("The event's id: the webhook-id header"),
    eventSeq: z.number().int(),
    eventType: z.string(),
    status: z
      .enum(["pending", "sending", "delivered", "failed"])
      .describe("pending: waiting for its next try; sending: a try is under way; delivered: answered 2xx; failed: the retry schedule is spent"),
    attempts: z.number().int().describe("Tries made since it was made or last sent again"),
    nextAttemptAt: dateTime.nullable().describe("When a pending delivery is tried next"),
    lastAttemptAt: dateTime.nullable(),
    responseStatus: z.number().int().nullable().describe("The last try's HTTP status; null without an answer"),
    responseBody: z.string().nullable().describe("The start of the last answer's body (1,000 characters at most)"),
    error: z.string().nullable().describe("Why the last try failed"),
    durationMs: z.number().int().nullable(),
    createdAt: dateTime,
    deliveredAt: dateTime.nullable(),
  })
  .meta({ id: "WebhookDelivery", description: "One event's delivery to one endpoint, with its last try's answer" });

const endpointIdSchema = z.string().min(1).max(128);
const descriptionSchema = z.string().trim().max(200);

const urlSchema = z
  .string()
  .trim()
  .superRefine((url, ctx) => {
    const problem = webhookURLProblem(url);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

const eventsInput = eventFilterSchema
  .nullable()
  .describe("Exact types (user.banned), prefixes (user.*) or *; null or absent: every type");

function publicEndpoint(endpoint: WebhookEndpoint): z.output<typeof endpointSchema> {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    enabled: endpoint.enabled,
    source: endpoint.source,
    readOnly: endpoint.source === "config",
    createdAt: endpoint.createdAt?.toISOString() ?? null,
    updatedAt: endpoint.updatedAt?.toISOString() ?? null,
  };
}

function publicDelivery(delivery: StoredDelivery): z.output<typeof deliverySchema> {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: delivery.id,
    endpointId: delivery.endpointId,
    eventId: delivery.eventId,
    eventSeq: delivery.eventSeq,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: iso(delivery.nextAttemptAt),
    lastAttemptAt: iso(delivery.lastAttemptAt),
    responseStatus: delivery.responseStatus,
    responseBody: delivery.responseBody,
    error: delivery.error,
    durationMs: delivery.durationMs,
    createdAt: delivery.createdAt.toISOString(),
    deliveredAt: iso(delivery.deliveredAt),
  };
}

/** Every endpoint: the configuration file's first, then the admin API's by creation. */
async function allEndpoints(runtime: WebhookDeps): Promise<WebhookEndpoint[]> {
  const stored = await runtime.stores.webhookEndpoints.listEndpoints();
  return [...configEndpoints(runtime.config), ...stored.map(apiEndpoint)];
}

/** Any endpoint by id (for its log); 404 when there is none. */
async function findAnyEndpoint(runtime: WebhookDeps, id: string): Promise<WebhookEndpoint> {
  const configured = configEndpoints(runtime.config).find((e) => e.id === id);
  if (configured) return configured;
  const stored = await runtime.stores.webhookEndpoints.findEndpoint(id);
  if (!stored) throw new APIError("NOT_FOUND", WEBHOOK_MESSAGES.WEBHOOK_ENDPOINT_NOT_FOUND);
  return apiEndpoint(stored);
}

/** An endpoint the admin API may change: 400 for the configuration file's, 404 when there is none. */
async function changeableEndpoint(runtime: WebhookDeps, id: string): Promise<StoredEndpoint> {
  if (configEndpoints(runtime.config).some((e) => e.id === id)) {
    throw new APIError("BAD_REQUEST", WEBHOOK_MESSAGES.WEBHOOK_ENDPOINT_IS_DECLARED_IN_THE_CONFIGURATION);
  }
  const stored = await runtime.stores.webhookEndpoints.findEndpoint(id);
  if (!stored) throw new APIError("NOT_FOUND", WEBHOOK_MESSAGES.WEBHOOK_ENDPOINT_NOT_FOUND);
  return stored;
}

/** 400 when the URL's host is a private address written in the URL (the delivery checks it again after DNS). */
function checkTarget(ctx: WebhookContext, url: string): void {
  const problem = webhookTargetProblem(url, ctx.runtime.config.webhooks.allowPrivateTargets);
  if (problem) {
    throw new APIError("BAD_REQUEST", WEBHOOK_MESSAGES.WEBHOOK_URL_POINTS_TO_A_PRIVATE_ADDRESS, { extra: { reason: `url: ${problem}` } });
  }
}

export const adminListWebhookEndpoints = defineWebhookEndpoint({
  method: "GET",
  path: "/admin/webhooks/list-endpoints",
  auth: "sensitive",
  response: z.object({
    endpoints: z.array(endpointSchema),
    eventTypes: z.array(z.string()).describe("Every event type an endpoint may ask for"),
  }),
  summary: "Every webhook endpoint (the configuration file's, read-only, then the admin API's) and the event types",
  tags: TAGS,
  async handler(ctx) {
    requirePermission(ctx, { webhooks: ["list"] }, WEBHOOK_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_LIST_WEBHOOKS);
    return { endpoints: (await allEndpoints(ctx.runtime)).map(publicEndpoint), eventTypes: [...EVENT_TYPES] };
  },
});

export const adminCreateWebhookEndpoint = defineWebhookEndpoint({
  method: "POST",
  path: "/admin/webhooks/create-endpoint",
  auth: "sensitive",
  carriesToken: true,
  body: z.object({
    url: urlSchema,
    events: eventsInput.optional(),
    enabled: z.boolean().optional().describe("Default true"),
    description: descriptionSchema.nullable().optional(),
  }),
  response: z.object({
    endpoint: endpointSchema,
    secret: z.string().describe("whsec_…: shown this once; receivers verify signatures with it"),
  }),
  summary: "Make a webhook endpoint; its signing secret is answered once",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const admin = requirePermission(ctx, { webhooks: ["create"] }, WEBHOOK_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_CREATE_WEBHOOKS);
    checkTarget(ctx, body.url);
    if ((await runtime.stores.webhookEndpoints.countEndpoints()) >= MAX_API_ENDPOINTS) {
      throw new APIError("BAD_REQUEST", WEBHOOK_MESSAGES.TOO_MANY_WEBHOOK_ENDPOINTS);
    }
    const id = generateId();
    const secret = newWebhookSecret();
    const now = runtime.now();
    const endpoint: StoredEndpoint = {
      id,
      url: body.url,
      description: body.description || null,
      events: body.events ?? null,
      enabled: body.enabled ?? true,
      sealedSecret: endpointSecretSealer(runtime.config.secret).seal(id, secret),
      createdAt: now,
      updatedAt: now,
    };
    await runtime.stores.webhookEndpoints.insertEndpoint(endpoint);
    nudgeDispatcher(runtime);
    runtime.logger.info({ endpointId: id, url: endpoint.url, events: endpoint.events, by: admin.user.id }, "webhook endpoint created");
    return { endpoint: publicEndpoint(apiEndpoint(endpoint)), secret };
  },
});

export const adminUpdateWebhookEndpoint = defineWebhookEndpoint({
  method: "POST",
  path: "/admin/webhooks/update-endpoint",
  auth: "sensitive",
  body: z.object({
    endpointId: endpointIdSchema,
    url: urlSchema.optional(),
    events: eventsInput.optional(),
    enabled: z.boolean().optional().describe("Off: nothing is sent to it, and its waiting deliveries fail"),
    description: descriptionSchema.nullable().optional(),
  }),
  response: z.object({ endpoint: endpointSchema }),
  summary: "Change a webhook endpoint's URL, events, description, or turn it on or off (not one of the configuration file)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const admin = requirePermission(ctx, { webhooks: ["update"] }, WEBHOOK_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_UPDATE_WEBHOOKS);
    if (body.url !== undefined) checkTarget(ctx, body.url);
    const current = await changeableEndpoint(runtime, body.endpointId);
    const next: StoredEndpoint = {
      ...current,
      url: body.url ?? current.url,
      events: body.events === undefined ? current.events : body.events,
      enabled: body.enabled ?? current.enabled,
      description: body.description === undefined ? current.description : body.description || null,
      updatedAt: runtime.now(),
    };
    const turnedOff = current.enabled && !next.enabled;
    const updated = await runtime.stores.transaction(async (tx) => {
      if (!(await tx.webhookEndpoints.updateEndpoint(next))) return false;
      if (turnedOff) await tx.webhookDeliveries.cancelPendingDeliveries(next.id, "the endpoint is turned off");
      return true;
    });
    if (!updated) throw new APIError("NOT_FOUND", WEBHOOK_MESSAGES.WEBHOOK_ENDPOINT_NOT_FOUND);
    nudgeDispatcher(runtime);
    const fields = (["url", "events", "enabled", "description"] as const).filter((f) => body[f] !== undefined);
    runtime.logger.info({ endpointId: next.id, fields, by: admin.user.id }, "webhook endpoint updated");
    return { endpoint: publicEndpoint(apiEndpoint(next)) };
  },
});

export const adminRotateWebhookSecret = defineWebhookEndpoint({
  method: "POST",
  path: "/admin/webhooks/rotate-endpoint-secret",
  auth: "sensitive",
  carriesToken: true,
  body: z.object({ endpointId: endpointIdSchema }),
  response: z.object({ endpoint: endpointSchema, secret: z.string().describe("whsec_…: shown this once") }),
  summary: "Give a webhook endpoint a new signing secret (answered once); tries from now on are signed with it",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const admin = requirePermission(ctx, { webhooks: ["update"] }, WEBHOOK_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_UPDATE_WEBHOOKS);
    const current = await changeableEndpoint(runtime, body.endpointId);
    const secret = newWebhookSecret();
    const next: StoredEndpoint = {
      ...current,
      sealedSecret: endpointSecretSealer(runtime.config.secret).seal(current.id, secret),
      updatedAt: runtime.now(),
    };
    if (!(await runtime.stores.webhookEndpoints.updateEndpoint(next))) {
      throw new APIError("NOT_FOUND", WEBHOOK_MESSAGES.WEBHOOK_ENDPOINT_NOT_FOUND);
    }
    nudgeDispatcher(runtime);
    runtime.logger.info({ endpointId: next.id, by: admin.user.id }, "webhook endpoint secret rotated");
    return { endpoint: publicEndpoint(apiEndpoint(next)), secret };
  },
});

export const adminDeleteWebhookEndpoint = defineWebhookEndpoint({
  method: "POST",
  path: "/admin/webhooks/delete-endpoint",
  auth: "sensitive",
  body: z.object({ endpointId: endpointIdSchema }),
  response: z.object({ success: z.boolean() }),
  summary: "Remove a webhook endpoint with its delivery log (not one of the configuration file)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const admin = requirePermission(ctx, { webhooks: ["delete"] }, WEBHOOK_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_DELETE_WEBHOOKS);
    await changeableEndpoint(runtime, body.endpointId);
    const deleted = await runtime.stores.transaction(async (tx) => {
      if (!(await tx.webhookEndpoints.deleteEndpoint(body.endpointId))) return null;
      return tx.webhookDeliveries.deleteEndpointDeliveries(body.endpointId);
    });
    if (deleted === null) throw new APIError("NOT_FOUND", WEBHOOK_MESSAGES.WEBHOOK_ENDPOINT_NOT_FOUND);
    nudgeDispatcher(runtime);
    runtime.logger.info({ endpointId: body.endpointId, deliveries: deleted, by: admin.user.id }, "webhook endpoint deleted");
    return { success: true };
  },
});

const queryLimit = z
  .union([z.number().int(), z.string().regex(/^\d{1,9}$/, "Expected a whole number")])
  .transform(Number)
  .pipe(z.number().int().min(1).max(MAX_DELIVERY_PAGE));

export const adminListWebhookDeliveries = defineWebhookEndpoint({
  method: "GET",
  path: "/admin/webhooks/list-deliveries",
  auth: "sensitive",
  query: z.object({
    endpointId: endpointIdSchema,
    status: z.enum(["pending", "sending", "delivered", "failed"]).optional(),
    limit: queryLimit.optional().describe(`Deliveries per page (default ${DEFAULT_DELIVERY_PAGE}, at most ${MAX_DELIVERY_PAGE})`),
    cursor: z
      .string()
      .regex(/^\d{1,15}$/, "Expected the nextCursor of a previous page")
      .transform(Number)
      .optional()
      .describe("The previous page's nextCursor; absent: the newest deliveries"),
  }),
  response: z.object({
    deliveries: z.array(deliverySchema),
    nextCursor: z.string().nullable().describe("Pass as cursor for the next (older) page; null on the last one"),
  }),
  summary: "An endpoint's delivery log, newest event first, paged: each delivery's status, tries and last answer",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, query } = ctx;
    requirePermission(ctx, { webhooks: ["list"] }, WEBHOOK_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_LIST_WEBHOOKS);
    const endpoint = await findAnyEndpoint(runtime, query.endpointId);
    const limit = query.limit ?? DEFAULT_DELIVERY_PAGE;
    const rows = await runtime.stores.webhookDeliveries.listDeliveries(
      endpoint.id,
      { status: query.status, beforeSeq: query.cursor },
      limit + 1,
    );
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    return { deliveries: page.map(publicDelivery), nextCursor: more ? String(page[page.length - 1]!.eventSeq) : null };
  },
});

export const adminResendWebhookDelivery = defineWebhookEndpoint({
  method: "POST",
  path: "/admin/webhooks/resend-delivery",
  auth: "sensitive",
  body: z.object({ deliveryId: z.string().min(1).max(128) }),
  response: z.object({ delivery: deliverySchema }),
  summary: "Send a delivery again now, with a fresh retry schedule (same webhook-id: receivers may recognise it)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const admin = requirePermission(ctx, { webhooks: ["resend"] }, WEBHOOK_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_RESEND_WEBHOOKS);
    const current = await runtime.stores.webhookDeliveries.findDelivery(body.deliveryId);
    if (!current) throw new APIError("NOT_FOUND", WEBHOOK_MESSAGES.WEBHOOK_DELIVERY_NOT_FOUND);
    if (current.status === "sending") throw new APIError(409, WEBHOOK_MESSAGES.WEBHOOK_DELIVERY_IS_BEING_SENT);
    const [event] = await runtime.stores.webhookOutbox.eventsBySeq([current.eventSeq]);
    if (!event) throw new APIError("BAD_REQUEST", WEBHOOK_MESSAGES.EVENT_IS_NO_LONGER_IN_THE_AUDIT_LOG);
    const delivery = await runtime.stores.webhookDeliveries.resendDelivery(current.id, runtime.now());
    if (!delivery) throw new APIError(409, WEBHOOK_MESSAGES.WEBHOOK_DELIVERY_IS_BEING_SENT);
    nudgeDispatcher(runtime);
    runtime.logger.info({ deliveryId: delivery.id, endpointId: delivery.endpointId, by: admin.user.id }, "webhook delivery sent again");
    return { delivery: publicDelivery(delivery) };
  },
});

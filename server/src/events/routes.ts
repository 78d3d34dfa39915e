import { z } from "zod";
import { requirePermission } from "../admin/guard.js";
import { defineEndpoint, RawResponse } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import { hasRole } from "../organization/access-control.js";
import { organizationIdOf, requireActingMember, requireOrganization } from "../organization/membership.js";
import { ORG_MESSAGES } from "../organization/messages.js";
import type { Runtime } from "../runtime.js";
import { toCsv } from "./csv.js";
import { EVENTS_MESSAGES } from "./messages.js";
import type { EventListQuery, StoredEvent, StoredEventWithUsers } from "./store/index.js";
import { EVENT_TYPES, typesMatching } from "./types.js";

/**
 * The audit log's reads (README "Security events"): administrators search and export it, organization owners and
 * admins read their organization's events, every user reads their own security activity. Newest first, paged by
 * `cursor` (the previous page's `nextCursor`). Reads emit nothing.
 */
const TAGS = ["Events"] as const;

export const DEFAULT_EVENT_PAGE = 50;
export const MAX_EVENT_PAGE = 200;
export const DEFAULT_EXPORT_ROWS = 10_000;
export const MAX_EXPORT_ROWS = 100_000;

const dateTime = z.iso.datetime();

const queryLimit = (max: number) =>
  z
    .union([z.number().int(), z.string().regex(/^\d{1,9}$/, "Expected a whole number")])
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));

/** A seq from a previous page's nextCursor. */
const cursorSchema = z
  .string()
  .regex(/^\d{1,15}$/, "Expected the nextCursor of a previous page")
  .transform(Number)
  .describe("The previous page's nextCursor; absent: the newest events");

/**
 * `type`: exact types or prefixes (`user.*`), comma-separated, or `*`. Each part must name at least one type this
 * version knows.
 */
const typeFilterSchema = z
  .string()
  .max(1024)
  .transform((value, ctx) => {
    const parts = value
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    const types = new Set<string>();
    for (const part of parts) {
      const matched = typesMatching(part);
      if (matched.length === 0) {
        ctx.addIssue({ code: "custom", message: `Unknown event type "${part.slice(0, 64)}"` });
        return z.NEVER;
      }
      for (const type of matched) types.add(type);
    }
    return [...types];
  })
  .describe("Event types, comma-separated: exact (user.banned), prefixes (user.*), or *");

const timeFilter = z
  .string()
  .max(64)
  .transform((value, ctx) => {
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: "custom", message: "Expected a date and time (ISO 8601)" });
      return z.NEVER;
    }
    return date;
  });

const idFilter = z.string().min(1).max(256);

const adminFilters = {
  userId: idFilter.optional().describe("The user the events were done to"),
  actorId: idFilter.optional().describe("Who did them (an administrator, while impersonating too)"),
  organizationId: idFilter.optional(),
  ip: z.string().min(1).max(64).optional().describe("The client address, exactly"),
  type: typeFilterSchema.optional(),
  from: timeFilter.optional().describe("From this time on (inclusive), ISO 8601"),
  to: timeFilter.optional().describe("Before this time (exclusive), ISO 8601"),
};

const eventFields = {
  id: z.string().describe("Stable id (a webhook's webhook-id)"),
  seq: z.number().int().describe("Increasing with each event: the order of the log"),
  type: z.string().describe("noun.past_verb (README \"Security events\")"),
  createdAt: dateTime,
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).describe("The type's payload (README \"Security events\"); never a secret"),
};

const auditEventSchema = z
  .object({
    ...eventFields,
    actorId: z.string().nullable().describe("Who did it: the user, the administrator (also while impersonating), or null"),
    userId: z.string().nullable().describe("The user it was done to"),
    organizationId: z.string().nullable(),
  })
  .meta({ id: "AuditEvent", description: "A security event of the audit log" });

const partySchema = z
  .object({ id: z.string(), email: z.string(), name: z.string() })
  .nullable()
  .describe("That user now; null when there is none or they no longer exist");

const adminEventSchema = auditEventSchema
  .extend({ actor: partySchema, user: partySchema })
  .meta({ id: "AdminAuditEvent", description: "A security event with its actor's and user's name and address" });

const securityEventSchema = z
  .object({
    ...eventFields,
    organizationId: z.string().nullable(),
    actor: z
      .enum(["self", "other", "none"])
      .describe("self: the user did it; other: someone else (an administrator, an organization owner); none: nobody signed in"),
  })
  .meta({ id: "SecurityEvent", description: "A security event of the signed-in user's own account" });

const pageOf = <T extends z.ZodType>(event: T) =>
  z.object({
    events: z.array(event),
    nextCursor: z.string().nullable().describe("Pass as cursor for the next (older) page; null on the last one"),
  });

function baseEvent(event: StoredEvent) {
  return {
    id: event.id,
    seq: event.seq,
    type: event.type,
    createdAt: event.createdAt.toISOString(),
    ipAddress: event.ipAddress,
    userAgent: event.userAgent,
    data: event.data,
  };
}

export function publicEvent(event: StoredEvent): z.output<typeof auditEventSchema> {
  return { ...baseEvent(event), actorId: event.actorId, userId: event.userId, organizationId: event.organizationId };
}

/** One page: `limit + 1` rows read, so whether another page follows is known without a count. */
async function page<E extends StoredEvent, R>(
  read: (query: EventListQuery, limit: number) => Promise<E[]>,
  query: EventListQuery,
  limit: number,
  shape: (event: E) => R,
): Promise<{ events: R[]; nextCursor: string | null }> {
  const rows = await read(query, limit + 1);
  const more = rows.length > limit;
  const events = more ? rows.slice(0, limit) : rows;
  return { events: events.map(shape), nextCursor: more ? String(events[events.length - 1]!.seq) : null };
}

function adminQuery(query: {
  userId?: string | undefined;
  actorId?: string | undefined;
  organizationId?: string | undefined;
  ip?: string | undefined;
  type?: string[] | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}): EventListQuery {
  return {
    userId: query.userId,
    actorId: query.actorId,
    organizationId: query.organizationId,
    ipAddress: query.ip,
    types: query.type,
    from: query.from,
    to: query.to,
  };
}

function adminEvent(event: StoredEventWithUsers): z.output<typeof adminEventSchema> {
  return { ...publicEvent(event), actor: event.actor, user: event.user };
}

export const adminListEvents = defineEndpoint({
  method: "GET",
  path: "/admin/list-events",
  auth: "sensitive",
  query: z.object({
    ...adminFilters,
    limit: queryLimit(MAX_EVENT_PAGE).optional().describe(`Events per page (default ${DEFAULT_EVENT_PAGE}, at most ${MAX_EVENT_PAGE})`),
    cursor: cursorSchema.optional(),
  }),
  response: pageOf(adminEventSchema),
  summary: "The audit log, searched by user, actor, type, organization, address and time; newest first, paged",
  tags: TAGS,
  async handler(ctx) {
    requirePermission(ctx, { auditLog: ["list"] }, EVENTS_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_LIST_EVENTS);
    const { events } = ctx.runtime.stores;
    const query = { ...adminQuery(ctx.query), beforeSeq: ctx.query.cursor };
    return page((q, n) => events.listWithUsers(q, n), query, ctx.query.limit ?? DEFAULT_EVENT_PAGE, adminEvent);
  },
});

/** The CSV's columns, in order. */
const CSV_COLUMNS = [
  "id",
  "seq",
  "createdAt",
  "type",
  "actorId",
  "actorEmail",
  "userId",
  "userEmail",
  "organizationId",
  "ipAddress",
  "userAgent",
  "data",
] as const;

/** Rows read per statement while exporting. */
const EXPORT_BATCH = 1_000;

export const adminExportEvents = defineEndpoint({
  method: "GET",
  path: "/admin/export-events",
  auth: "sensitive",
  navigation: true,
  query: z.object({
    ...adminFilters,
    limit: queryLimit(MAX_EXPORT_ROWS).optional().describe(`Rows at most (default ${DEFAULT_EXPORT_ROWS}, at most ${MAX_EXPORT_ROWS})`),
  }),
  summary: "The audit log's events that match, newest first, as a CSV file",
  tags: TAGS,
  async handler(ctx) {
    requirePermission(ctx, { auditLog: ["export"] }, EVENTS_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_EXPORT_EVENTS);
    const { events } = ctx.runtime.stores;
    const limit = ctx.query.limit ?? DEFAULT_EXPORT_ROWS;
    const query = adminQuery(ctx.query);
    const rows: string[][] = [];
    let beforeSeq: number | undefined;
    while (rows.length < limit) {
      const batch = await events.listWithUsers({ ...query, beforeSeq }, Math.min(EXPORT_BATCH, limit - rows.length));
      for (const event of batch) {
        rows.push([
          event.id,
          String(event.seq),
          event.createdAt.toISOString(),
          event.type,
          event.actorId ?? "",
          event.actor?.email ?? "",
          event.userId ?? "",
          event.user?.email ?? "",
          event.organizationId ?? "",
          event.ipAddress ?? "",
          event.userAgent ?? "",
          JSON.stringify(event.data),
        ]);
      }
      if (batch.length < EXPORT_BATCH) break;
      beforeSeq = batch[batch.length - 1]!.seq;
    }
    const stamp = ctx.runtime.now().toISOString().slice(0, 19).replace(/:/g, "-");
    ctx.setHeader("content-disposition", `attachment; filename="audit-log-${stamp}.csv"`);
    ctx.setHeader("cache-control", "no-store");
    ctx.setHeader("x-content-type-options", "nosniff");
    return new RawResponse(toCsv([[...CSV_COLUMNS], ...rows]), "text/csv; charset=utf-8");
  },
});

/** Owners and admins (and the configured creator role) read their organization's events. */
function mayReadOrganizationEvents(runtime: Pick<Runtime, "config">, role: string): boolean {
  return hasRole(role, "owner") || hasRole(role, "admin") || hasRole(role, runtime.config.organization.creatorRole);
}

export const listOrganizationEvents = defineEndpoint({
  method: "GET",
  path: "/organization/list-events",
  auth: "session",
  query: z.object({
    organizationId: idFilter.optional().describe("Default: the session's active organization"),
    type: typeFilterSchema.optional(),
    limit: queryLimit(MAX_EVENT_PAGE).optional().describe(`Events per page (default ${DEFAULT_EVENT_PAGE}, at most ${MAX_EVENT_PAGE})`),
    cursor: cursorSchema.optional(),
  }),
  response: pageOf(auditEventSchema),
  summary: "An organization's events (its changes, its members' and invitations'), for its owners and admins; newest first, paged",
  tags: TAGS,
  async handler(ctx) {
    const { runtime } = ctx;
    const caller = ctx.session!;
    const organizationId = organizationIdOf(ctx, ctx.query.organizationId);
    if (!organizationId) throw new APIError("BAD_REQUEST", ORG_MESSAGES.NO_ACTIVE_ORGANIZATION);
    await requireOrganization(runtime, organizationId);
    const member = await requireActingMember(runtime, organizationId, caller.user.id, () =>
      new APIError("FORBIDDEN", ORG_MESSAGES.YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION),
    );
    if (!mayReadOrganizationEvents(runtime, member.role)) {
      throw new APIError("FORBIDDEN", EVENTS_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_LIST_THIS_ORGANIZATIONS_EVENTS);
    }
    const query: EventListQuery = { organizationId, types: ctx.query.type, beforeSeq: ctx.query.cursor };
    return page((q, n) => runtime.stores.events.list(q, n), query, ctx.query.limit ?? DEFAULT_EVENT_PAGE, publicEvent);
  },
});

/**
 * A user's own activity without a `type` filter: every type but the tokens their applications were issued (one
 * per sign-in to an application and per refresh: README "OpenID Provider"); asked for by type, they are answered.
 */
const OWN_ACTIVITY_TYPES: readonly string[] = EVENT_TYPES.filter((type) => type !== "oidc_token.issued");

export const listSecurityEvents = defineEndpoint({
  method: "GET",
  path: "/list-security-events",
  auth: "session",
  query: z.object({
    type: typeFilterSchema.optional(),
    limit: queryLimit(MAX_EVENT_PAGE).optional().describe(`Events per page (default ${DEFAULT_EVENT_PAGE}, at most ${MAX_EVENT_PAGE})`),
    cursor: cursorSchema.optional(),
  }),
  response: pageOf(securityEventSchema),
  summary: "The signed-in user's security activity: sign-ins (with address and browser), factor, password and address changes; newest first, paged",
  tags: TAGS,
  async handler(ctx) {
    const userId = ctx.session!.user.id;
    const query: EventListQuery = { userId, types: ctx.query.type ?? OWN_ACTIVITY_TYPES, beforeSeq: ctx.query.cursor };
    return page((q, n) => ctx.runtime.stores.events.list(q, n), query, ctx.query.limit ?? DEFAULT_EVENT_PAGE, (event) => {
      const actor = event.actorId === null ? "none" : event.actorId === userId ? "self" : "other";
      // Someone else's address and browser (an administrator's) are theirs: the user sees that it was not them.
      const other = actor === "other";
      return {
        ...baseEvent(event),
        ipAddress: other ? null : event.ipAddress,
        userAgent: other ? null : event.userAgent,
        organizationId: event.organizationId,
        actor,
      } as const;
    });
  },
});

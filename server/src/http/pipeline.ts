import { z } from "zod";
import type { Runtime } from "../runtime.js";
import { isSessionFresh } from "../session/freshness.js";
import { SESSION_MESSAGES } from "../session/messages.js";
import { SecondStepRequired } from "../session/sign-in.js";
import { isForeignKeyViolation } from "../storage/constraint-errors.js";
import type { SessionAndUser } from "../storage/sessions.js";
import { parseCookies, serializeCookie, type CookieAttributes } from "./cookies.js";
import {
  isRedirect,
  RawResponse,
  type AnyEndpoint,
  type CallbackField,
  type EndpointContext,
} from "./endpoint.js";
import { APIError, fillMessage } from "./errors.js";
import { HTTP_FIXED_CODES, HTTP_MESSAGES } from "./messages.js";

/** Largest request body accepted; auth payloads are tiny, so anything bigger is refused before parsing. */
export const MAX_BODY_BYTES = 64 * 1024;

const CALLBACK_MESSAGES: Record<CallbackField, string> = {
  callbackURL: HTTP_MESSAGES.INVALID_CALLBACKURL,
  redirectTo: HTTP_MESSAGES.INVALID_REDIRECTURL,
  errorCallbackURL: HTTP_MESSAGES.INVALID_ERRORCALLBACKURL,
  newUserCallbackURL: HTTP_MESSAGES.INVALID_NEWUSERCALLBACKURL,
};

const NOT_A_STRING: Record<CallbackField, string> = {
  callbackURL: HTTP_MESSAGES.INVALID_CALLBACKURL_EXPECTED_A_STRING,
  redirectTo: HTTP_MESSAGES.INVALID_REDIRECTTO_EXPECTED_A_STRING,
  errorCallbackURL: HTTP_MESSAGES.INVALID_ERRORCALLBACKURL_EXPECTED_A_STRING,
  newUserCallbackURL: HTTP_MESSAGES.INVALID_NEWUSERCALLBACKURL_EXPECTED_A_STRING,
};

export interface IncomingCall {
  method: string;
  url: URL;
  headers: Headers;
  params: Record<string, string>;
  ip: string;
  /** Reads the raw body (HTTP calls; app.ts has limited its size). */
  request?: Request;
  /** An already-parsed body (in-process calls). */
  body?: unknown;
  server: boolean;
}

export interface CallResult {
  status: number;
  data: unknown;
  headers: Headers;
  redirect?: string;
  raw?: RawResponse;
}

/** The body as text. Its size was limited before (Hono's body limit, app.ts); a broken connection is a 400. */
async function readBody(request: Request): Promise<string> {
  try {
    return await request.text();
  } catch {
    throw new APIError(400, HTTP_MESSAGES.REQUEST_BODY_INCOMPLETE);
  }
}

function formToObject(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    // HTML forms carry only strings; booleans arrive as "true"/"false" (a checkbox's "on" is true).
    out[key] = value === "true" || value === "on" ? true : value === "false" ? false : value;
  }
  return out;
}

async function parseBody(endpoint: AnyEndpoint, request: Request): Promise<unknown> {
  const text = await readBody(request);
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const allowed = endpoint.acceptsForm ? "application/json, application/x-www-form-urlencoded" : "application/json";
  const unsupported = () =>
    new APIError(415, fillMessage(HTTP_FIXED_CODES.UNSUPPORTED_MEDIA_TYPE, { type: JSON.stringify(type), allowed }), {
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
  if (text.trim() === "") {
    if (type && type !== "application/json" && !(endpoint.acceptsForm && type === "application/x-www-form-urlencoded")) {
      throw unsupported();
    }
    return undefined;
  }
  if (!type) {
    throw new APIError(415, fillMessage(HTTP_FIXED_CODES.CONTENT_TYPE_IS_REQUIRED, { allowed }), {
      code: "CONTENT_TYPE_IS_REQUIRED",
    });
  }
  if (type === "application/json") {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new APIError("BAD_REQUEST", HTTP_MESSAGES.INVALID_JSON_IN_REQUEST_BODY);
    }
  }
  if (endpoint.acceptsForm && type === "application/x-www-form-urlencoded") return formToObject(text);
  throw unsupported();
}

export function queryToObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of params) {
    const existing = out[key];
    if (existing === undefined) out[key] = value;
    else out[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

function validate(schema: z.ZodType | undefined, value: unknown, root: "body" | "query"): unknown {
  if (!schema) return value;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new APIError("BAD_REQUEST", fillMessage(HTTP_FIXED_CODES.VALIDATION_ERROR, { source: root }), {
    code: "VALIDATION_ERROR",
    extra: {
      issues: result.error.issues.map((issue) => ({
        path: [root, ...issue.path.map(String)].join("."),
        message: issue.message,
      })),
    },
  });
}

function requestOrigin(call: IncomingCall): string | null {
  const origin = call.headers.get("origin");
  if (origin) return origin;
  const referer = call.headers.get("referer");
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return "null";
  }
}

/**
 * CSRF defences for state-changing HTTP calls: the Origin (else Referer) of a request carrying cookies must be
 * trusted. Trusted means BASE_URL's origin, `trustedOrigins`, and, when BASE_URL is unset, the origins the service
 * listens at (public-base.ts); never the origin the request's own Host header names, which the client chooses.
 */
function checkOrigin(runtime: Runtime, endpoint: AnyEndpoint, call: IncomingCall): void {
  if (call.server || endpoint.method === "GET" || endpoint.crossSitePost || runtime.config.advanced.disableOriginCheck) return;
  const trusted = (origin: string) => runtime.origins.isTrustedOrigin(origin);
  const origin = requestOrigin(call);
  if (call.headers.has("cookie")) {
    if (!origin || origin === "null") throw new APIError("FORBIDDEN", HTTP_MESSAGES.MISSING_OR_NULL_ORIGIN);
    if (!trusted(origin)) throw new APIError("FORBIDDEN", HTTP_MESSAGES.INVALID_ORIGIN);
  }
  if (endpoint.acceptsForm) {
    // Sign-in and sign-up forms: a cross-site page must not sign a visitor into an attacker's account.
    if (call.headers.get("sec-fetch-site") === "cross-site" && call.headers.get("sec-fetch-mode") === "navigate") {
      throw new APIError("FORBIDDEN", HTTP_MESSAGES.CROSS_SITE_NAVIGATION_LOGIN_BLOCKED_THIS_REQUEST_APPEARS_TO_BE_A_CSRF_ATTACK);
    }
    if (origin && !trusted(origin)) throw new APIError("FORBIDDEN", HTTP_MESSAGES.INVALID_ORIGIN);
  }
}

function checkCallbacks(runtime: Runtime, endpoint: AnyEndpoint, body: unknown, query: unknown): void {
  for (const field of endpoint.callbackFields ?? []) {
    for (const source of [body, query]) {
      if (!source || typeof source !== "object") continue;
      const value = (source as Record<string, unknown>)[field];
      if (value === undefined || value === null || value === "") continue;
      if (typeof value !== "string") throw new APIError("BAD_REQUEST", NOT_A_STRING[field]);
      if (!runtime.origins.isTrustedCallback(value)) throw new APIError("FORBIDDEN", CALLBACK_MESSAGES[field]);
    }
  }
}

/**
 * A write failed on a foreign key: a row it refers to was deleted while the request ran (never a 500). When that
 * row was the caller (their user, and with it their session, is gone), the answer is the 401 of a signed-out
 * caller; otherwise 409.
 */
async function referenceGone(runtime: Runtime, ctx: EndpointContext): Promise<APIError> {
  const token = runtime.sessions.sessionTokenOf(ctx);
  if (token && !(await runtime.stores.sessions.findSessionAndUser(token))) {
    return new APIError("UNAUTHORIZED", HTTP_MESSAGES.UNAUTHORIZED);
  }
  return new APIError(409, HTTP_MESSAGES.REFERENCED_RECORD_NO_LONGER_EXISTS);
}

/** Runs one endpoint for one call: the whole request path after routing and rate limiting. */
export async function runEndpoint(runtime: Runtime, endpoint: AnyEndpoint, call: IncomingCall): Promise<CallResult> {
  const headers = new Headers();
  let cookies: Map<string, string> | undefined;
  const cookieOf = (name: string) => (cookies ??= parseCookies(call.headers.get("cookie"))).get(name);
  let sessionPromise: Promise<SessionAndUser | null> | undefined;
  let sessionFromDatabase = false;
  // The cookie cache answers reads only. A request that may change state (any method but GET) reads its session
  // from the database, whatever its route declares and also when a handler asks ctx.getSession() itself, so a
  // revoked, banned or deleted session stops writing at once instead of when its cache cookie runs out.
  const cacheMayAnswer = endpoint.method === "GET";

  checkOrigin(runtime, endpoint, call);
  const rawBody = call.request && endpoint.method !== "GET" ? await parseBody(endpoint, call.request) : call.body;
  const body = validate(endpoint.body, rawBody ?? (endpoint.body ? {} : undefined), "body");
  const query = validate(endpoint.query, queryToObject(call.url.searchParams), "query");
  checkCallbacks(runtime, endpoint, body, query);

  const ctx: EndpointContext = {
    runtime,
    body,
    query,
    params: call.params,
    headers: call.headers,
    url: call.url,
    ip: call.ip,
    server: call.server,
    cookie: cookieOf,
    setCookie(name: string, value: string, attributes?: CookieAttributes) {
      headers.append("set-cookie", serializeCookie(name, value, attributes));
    },
    setHeader(name: string, value: string) {
      headers.set(name, value);
    },
    getSession(opts = {}) {
      const fromDatabase = opts.disableCookieCache === true || !cacheMayAnswer;
      if (!sessionPromise || (fromDatabase && !sessionFromDatabase)) {
        sessionFromDatabase = fromDatabase;
        sessionPromise = runtime.sessions.readSession(ctx, { disableCookieCache: fromDatabase, refresh: false });
      }
      return sessionPromise;
    },
    session: null,
  };

  if (endpoint.auth !== "none") {
    const session = await ctx.getSession({ disableCookieCache: endpoint.auth !== "session" });
    if (!session) throw new APIError("UNAUTHORIZED", HTTP_MESSAGES.UNAUTHORIZED);
    if (endpoint.auth === "fresh" && !isSessionFresh(runtime.config.session, session.session, runtime.now())) {
      throw new APIError("FORBIDDEN", SESSION_MESSAGES.SESSION_IS_NOT_FRESH);
    }
    ctx.session = session;
  }

  let result: unknown;
  try {
    result = await endpoint.handler(ctx as never);
  } catch (error) {
    if (isForeignKeyViolation(error)) throw await referenceGone(runtime, ctx);
    // A sign-in that owes a second step (session/sign-in.ts): Better Auth's answer, with the cookies the policy set
    // (the pending step's, the session's expired). Routes a browser navigates to catch it and redirect instead.
    if (error instanceof SecondStepRequired) {
      return { status: 200, data: { twoFactorRedirect: true, twoFactorMethods: [...error.methods] }, headers };
    }
    throw error;
  }
  if (isRedirect(result)) {
    headers.set("location", result.__redirect.redirect);
    return { status: result.__redirect.status ?? 302, data: null, headers, redirect: result.__redirect.redirect };
  }
  if (result instanceof RawResponse) return { status: result.status, data: null, headers, raw: result };
  return { status: 200, data: result === undefined ? null : result, headers };
}

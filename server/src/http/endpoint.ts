import type { z } from "zod";
import type { Runtime } from "../runtime.js";
import type { SessionAndUser } from "../storage/sessions.js";
import type { CookieAttributes } from "./cookies.js";

/**
 * Every route is declared the same way: method, path, schemas, who may call it, and a handler.
 * The same declaration drives routing, validation, the server-side API and the OpenAPI document.
 */
export type AuthLevel =
  /** anyone */
  | "none"
  /** a valid session (the cookie cache may answer, on GET routes only: other methods always read the database) */
  | "session"
  /** a valid session read from the database, bypassing the cookie cache */
  | "sensitive"
  /** a sensitive session that is fresh (session.freshAge, measured as session.freshFrom says) */
  | "fresh";

export interface EndpointContext<B = unknown, Q = unknown, D = Runtime> {
  /** The service's parts: the whole Runtime, or for a domain's routes (defineEndpointFor) the part its domain names. */
  runtime: D;
  body: B;
  query: Q;
  params: Record<string, string>;
  headers: Headers;
  /** The request URL (for in-process calls, an internal one). */
  url: URL;
  /** The client address used for rate limits and stored on sessions ("" when unknown). */
  ip: string;
  /** True for in-process calls through the server-side API. */
  server: boolean;
  cookie(name: string): string | undefined;
  setCookie(name: string, value: string, attributes?: CookieAttributes): void;
  setHeader(name: string, value: string): void;
  /**
   * The caller's session; null when signed out. Loaded once per request. The cookie cache may answer only on GET
   * routes; on any other method it is read from the database whatever `disableCookieCache` says.
   */
  getSession(opts?: { disableCookieCache?: boolean }): Promise<SessionAndUser | null>;
  /** Set by the runner for routes whose auth level requires a session. */
  session: SessionAndUser | null;
}

export interface Redirect {
  redirect: string;
  status?: 302 | 303;
}

export interface Endpoint<B extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, R = unknown, D = Runtime> {
  method: "GET" | "POST";
  path: string;
  body?: B;
  query?: Q;
  auth: AuthLevel;
  /** Reachable only through the server-side API, never over HTTP. */
  serverOnly?: boolean;
  /** Also accept application/x-www-form-urlencoded bodies (HTML form posts). */
  acceptsForm?: boolean;
  /**
   * Skip the origin and form-CSRF checks: for a provider posting its answer from its own site (Apple's form_post),
   * on a route that changes nothing and only redirects to its GET form.
   */
  crossSitePost?: boolean;
  /**
   * The request (URL or body) or the answer carries a single-use token (a mailed link's, a reset token, a
   * confirmation): every answer, errors and redirects included, is sent with `Cache-Control: no-store` and
   * `Referrer-Policy: no-referrer`, so no cache keeps it and no next page's Referer leaks it.
   */
  carriesToken?: boolean;
  /**
   * The route's rate limit (http/rate-limit.ts), declared with the route rather than matched by path, so a route
   * that checks a password is limited by saying so: "credential" for every route that checks or sets a password or
   * signs in (3 per 10 s per client), "mail" for the routes that mail a link to an address (3 per 60 s), or a rule of
   * its own. Unset: the default rule. `rateLimit.customRules` override all of these.
   */
  rateLimit?: RateLimitDeclaration;
  /**
   * Answer only clients on this machine: the socket's address is loopback, the Host names this machine, and no proxy
   * relayed the request (http/client-ip.ts isLocalRequest). Anyone else is told 404. In-process calls pass.
   */
  loopbackOnly?: boolean;
  /** Body fields holding URLs that must be trusted callbacks (checked before the handler runs). */
  callbackFields?: readonly CallbackField[];
  /**
   * A successful call changes the caller's session or its user (signs in or out, replaces the session, ends it, or
   * changes what it holds: the user, the active organization or team). The client's session store fetches the
   * session again after such a call (client/src/contract.gen.ts ROUTES, generated from this flag).
   */
  changesSession?: boolean;
  /**
   * A browser navigates here rather than an application fetching it (a mailed link, a provider's redirect back, the
   * error page): the answer is a redirect or an HTML page, never JSON, so the route declares no `response` and the
   * client offers a URL builder (`client.$url`) instead of a method.
   */
  navigation?: boolean;
  /**
   * The success answer's shape: the client's types (client/src/contract.gen.ts) and the OpenAPI document are printed
   * from it. Every route declares one, except navigation routes.
   */
  response?: z.ZodType;
  summary: string;
  tags: readonly string[];
  handler(ctx: EndpointContext<z.output<B>, z.output<Q>, D>): Promise<R>;
}

export type RateLimitDeclaration = "credential" | "mail" | { window: number; max: number };

export type CallbackField = "callbackURL" | "redirectTo" | "errorCallbackURL" | "newUserCallbackURL";

/** Either a JSON answer's schema or a navigation route: a route without both does not type-check. */
type AnswerDeclaration = { response: z.ZodType; navigation?: false } | { navigation: true };

export function defineEndpoint<B extends z.ZodType, Q extends z.ZodType, R>(
  endpoint: Endpoint<B, Q, R> & AnswerDeclaration,
): Endpoint<B, Q, R> {
  return endpoint;
}

/** A handler result that becomes a redirect response. */
export function redirectTo(url: string, status: 302 | 303 = 302): { __redirect: Redirect } {
  return { __redirect: { redirect: url, status } };
}

export function isRedirect(value: unknown): value is { __redirect: Redirect } {
  return typeof value === "object" && value !== null && "__redirect" in value;
}

/** A handler result sent as-is (an HTML page, for example). */
export class RawResponse {
  constructor(
    readonly body: string,
    readonly contentType: string,
    readonly status = 200,
  ) {}
}

export type AnyEndpoint = Endpoint<z.ZodType, z.ZodType, unknown>;

/**
 * defineEndpoint for a domain whose handlers see only the dependencies it names (D, a part of Runtime such as
 * organization/deps.ts OrganizationDeps) instead of the whole Runtime: `const defineX = defineEndpointFor<XDeps>()`.
 * The pipeline hands them the Runtime, which has every part D names.
 */
export function defineEndpointFor<D>() {
  return <B extends z.ZodType, Q extends z.ZodType, R>(
    endpoint: Endpoint<B, Q, R, D> & AnswerDeclaration,
  ): Endpoint<B, Q, R, D> => endpoint;
}
import type { ReadableAtom } from "nanostores";
import { AuthClientError } from "./errors.js";
import {
  createFetcher,
  toSearchParams,
  type Call,
  type CallOptions,
  type FetchFunction,
  type HeadersOption,
  type Result,
} from "./fetcher.js";
import { buildMethods, type RouteMethods } from "./method-tree.js";
import { withCursor, type Cursor } from "./paging.js";
import type { BodyOf, DataOf, HttpMethod, MethodOf, QueryOf } from "./route-spec.js";
import {
  changesSession,
  ROUTES,
  type NavigationPath,
  type Navigations,
  type ParamsOf,
  type RoutePath,
  type Routes,
} from "./routes.js";
import { createSessionSignal, createSessionStore, type SessionStore } from "./session-store.js";
import type { SessionData } from "./types.js";

export const DEFAULT_BASE_PATH = "/api/auth";

export interface AuthClientOptions {
  /**
   * The server's origin, e.g. "https://auth.example.com". Optional in a browser, where calls then go to
   * the page's own origin. Required elsewhere.
   */
  baseURL?: string;
  /** The API's path on that origin; "/api/auth" unless the server was configured otherwise. */
  basePath?: string;
  /** Replaces the global fetch, e.g. with `createCookieJar().fetch` in Node. */
  fetch?: FetchFunction;
  /** Sent with every call. In Node, pass `origin` here for calls that carry a session cookie. */
  headers?: HeadersOption;
  /** Never follow `{ url, redirect: true }` answers in the browser (each call can also opt out). */
  disableRedirect?: boolean;
}

type Body<P extends RoutePath> = Exclude<BodyOf<Routes[P]>, void>;
type Query<P extends RoutePath> = QueryOf<Routes[P]>;

type BodyPart<P extends RoutePath> = [BodyOf<Routes[P]>] extends [void]
  ? { body?: undefined }
  : undefined extends BodyOf<Routes[P]>
    ? { body?: Body<P> }
    : { body: Body<P> };

type QueryPart<P extends RoutePath> = [Query<P>] extends [void]
  ? { query?: undefined }
  : object extends Query<P>
    ? { query?: Query<P> }
    : { query: Query<P> };

/** Options of `$fetch`: the route's own method (the default), its body and its query string. */
export type FetchOptions<P extends RoutePath> = CallOptions & { method?: MethodOf<Routes[P]> } & BodyPart<P> & QueryPart<P>;

type FetchArgs<P extends RoutePath> = object extends BodyPart<P> & QueryPart<P>
  ? [options?: FetchOptions<P>]
  : [options: FetchOptions<P>];

type GetPath = { [P in RoutePath]: MethodOf<Routes[P]> extends "GET" ? P : never }[RoutePath];

export type ListOptions<P extends GetPath> = CallOptions & {
  /** The page to read; 0 (the first) unless given. */
  cursor?: Cursor;
  query?: [Query<P>] extends [void] ? undefined : Omit<Query<P>, "cursor">;
};

type NavigationQuery<P extends NavigationPath> = QueryOf<Navigations[P]>;

/** Options of `$url`: the path's parameters (required when it has any) and its query string. */
export type UrlOptions<P extends NavigationPath> = (P extends `${string}:${string}`
  ? { params: ParamsOf<P> }
  : { params?: undefined }) & { query?: NavigationQuery<P> };

type UrlArgs<P extends NavigationPath> = P extends `${string}:${string}` ? [options: UrlOptions<P>] : [options?: UrlOptions<P>];

export interface AuthClientExtras {
  /**
   * Calls a route by path and returns its answer: null for 204 or an empty body. Unlike the generated
   * methods it throws, an `AuthClientError` carrying the server's status, code and message.
   */
  $fetch<P extends RoutePath>(path: P, ...options: FetchArgs<P>): Promise<DataOf<Routes[P]>>;
  /** Reads one page of a GET list route through `$fetch`, sending `cursor` (0 unless given). */
  $list<P extends GetPath>(path: P, options?: ListOptions<P>): Promise<DataOf<Routes[P]>>;
  /** The current session as a nanostores atom: `{ data, error, isPending, isRefetching }`, plus `refetch()`. */
  $session: SessionStore;
  /** The watcher signal: bumped 10 ms after each successful session-changing call. */
  $sessionSignal: ReadableAtom<number>;
  /**
   * The URL of a route a browser navigates to rather than fetches (NAVIGATIONS in contract.gen.ts): a provider's
   * redirect URI (`$url("/callback/:id", { params: { id: "google" } })`), the error page, a reset link.
   */
  $url<P extends NavigationPath>(path: P, ...options: UrlArgs<P>): string;
}

export type AuthClient = RouteMethods<Routes> & AuthClientExtras;

function apiBase(options: AuthClientOptions): string {
  const trimmed = (options.basePath ?? DEFAULT_BASE_PATH).replace(/\/+$/, "");
  const basePath = trimmed === "" || trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
  if (options.baseURL) {
    try {
      new URL(options.baseURL);
    } catch {
      throw new TypeError(`createAuthClient: baseURL "${options.baseURL}" is not an absolute URL`);
    }
    return options.baseURL.replace(/\/+$/, "") + basePath;
  }
  if (typeof window === "undefined") {
    throw new TypeError("createAuthClient: baseURL is required outside a browser");
  }
  return basePath;
}

/** A client for one Gatehouse server: a method per route, a low-level `$fetch`, and the session store. */
export function createAuthClient(options: AuthClientOptions = {}): AuthClient {
  const signal = createSessionSignal();
  const base = apiBase(options);
  const request = createFetcher({
    apiBase: base,
    // Wrapped so a browser's fetch is always called on the global object, never on the options object.
    fetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
    headers: options.headers,
    disableRedirect: options.disableRedirect ?? false,
    onSuccess: (path) => {
      if (changesSession(path)) signal.notify();
    },
  });

  const $session = createSessionStore(
    () => request("/get-session", { method: "GET" }) as Promise<Result<SessionData | null>>,
    signal.$signal,
  );

  async function $fetch(path: RoutePath, options: Omit<Call, "method"> & { method?: HttpMethod } = {}): Promise<unknown> {
    const { method, ...call } = options;
    const result = await request(path, { ...call, method: method ?? ROUTES[path].method });
    if (result.error) throw new AuthClientError(result.error);
    return result.data;
  }

  const $url = (path: string, { params, query }: { params?: Record<string, string>; query?: object } = {}) =>
    base +
    path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(params?.[name] ?? "")) +
    toSearchParams(query);

  const extras: AuthClientExtras = {
    $fetch: $fetch as AuthClientExtras["$fetch"],
    $list: ((path: GetPath, { cursor, query, ...call }: ListOptions<GetPath> = {}) =>
      $fetch(path, { ...call, query: withCursor(query, cursor) })) as AuthClientExtras["$list"],
    $session,
    $sessionSignal: signal.$signal,
    $url: $url as AuthClientExtras["$url"],
  };
  return Object.assign(buildMethods(ROUTES, request), extras);
}

export {
  createAuthClient,
  DEFAULT_BASE_PATH,
  type AuthClient,
  type AuthClientExtras,
  type AuthClientOptions,
  type FetchOptions,
  type ListOptions,
} from "./client.js";
export { createCookieJar, type CookieJar } from "./cookie-jar.js";
export { AuthClientError, CLIENT_ERROR_CODES, type AuthError, type ValidationIssue } from "./errors.js";
export type { CallOptions, FetchFunction, HeadersOption, Result } from "./fetcher.js";
export type { MethodArgs, RouteMethod, RouteMethods } from "./method-tree.js";
export { DEFAULT_CURSOR, withCursor, type Cursor } from "./paging.js";
export { shape, type RouteSpec, type RouteTable, type Shape } from "./route-spec.js";
export { ROUTES, type RoutePath, type Routes } from "./routes.js";
export {
  SESSION_CHANGING_PATHS,
  SESSION_SIGNAL_DELAY_MS,
  type SessionState,
  type SessionStore,
} from "./session-store.js";
export type * from "./types.js";

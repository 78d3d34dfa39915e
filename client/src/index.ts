export {
  createAuthClient,
  DEFAULT_BASE_PATH,
  type AuthClient,
  type AuthClientExtras,
  type AuthClientOptions,
  type FetchOptions,
  type ListOptions,
  type UrlOptions,
} from "./client.js";
export { createCookieJar, type CookieJar } from "./cookie-jar.js";
export { AuthClientError, CLIENT_ERROR_CODES, type AuthError, type ValidationIssue } from "./errors.js";
export type { CallOptions, FetchFunction, HeadersOption, Result } from "./fetcher.js";
export type { MethodArgs, RouteMethod, RouteMethods } from "./method-tree.js";
export { DEFAULT_CURSOR, withCursor, type Cursor } from "./paging.js";
export { ERROR_CODES, type ErrorCode } from "./contract.gen.js";
export type { NavigationSpec, NavigationTable, RouteSpec, RouteTable, Shape } from "./route-spec.js";
export {
  changesSession,
  NAVIGATIONS,
  ROUTES,
  type NavigationPath,
  type Navigations,
  type ParamsOf,
  type RouteBody,
  type RouteData,
  type RoutePath,
  type RouteQuery,
  type Routes,
} from "./routes.js";
export { SESSION_SIGNAL_DELAY_MS, type SessionState, type SessionStore } from "./session-store.js";
export type * from "./types.js";

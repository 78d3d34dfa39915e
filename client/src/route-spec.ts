/**
 * How one route is described to the client (client/src/contract.gen.ts, generated from the server's endpoints): its
 * HTTP method, whether it changes the session and, as compile-time-only markers, the shapes of its body, query string
 * and answer. The markers carry no data at run time; their presence tells the client whether a route's method takes
 * an input argument.
 */
declare const SHAPE: unique symbol;

/** A compile-time marker for a payload type; `shape<T>()` makes one. */
export interface Shape<T> {
  readonly [SHAPE]: T;
}

/** Declares a payload type in the route table. Mark an optional body with `shape<T | void>()`. */
export function shape<T>(): Shape<T> {
  return {} as Shape<T>;
}

export type HttpMethod = "GET" | "POST";

export interface RouteSpec {
  method: HttpMethod;
  /** A successful call changes the caller's session or user: the session store then fetches it again. */
  changesSession?: boolean;
  /** The JSON body; a route's generated method takes it as its first argument. */
  body?: Shape<unknown>;
  /** The query string; a GET route's generated method takes it as its first argument. */
  query?: Shape<unknown>;
  data: Shape<unknown>;
}

export type RouteTable = Record<`/${string}`, RouteSpec>;

/** A route a browser navigates to (a mailed link, a provider's redirect back): its path parameters and query. */
export interface NavigationSpec {
  params: readonly string[];
  query?: Shape<unknown>;
}

export type NavigationTable = Record<`/${string}`, NavigationSpec>;

/** The body type of a route, or void when it has none. */
export type BodyOf<S> = S extends { body: Shape<infer B> } ? B : void;
/** The query type of a route, or void when it has none. */
export type QueryOf<S> = S extends { query: Shape<infer Q> } ? Q : void;
/** The answer of a route when it succeeds. */
export type DataOf<S> = S extends { data: Shape<infer D> } ? D : never;
export type MethodOf<S> = S extends { method: infer M } ? M : never;

/** The input a generated method takes first: the body for a POST, the query string for a GET. */
export type InputOf<S> = S extends { method: "POST" } ? BodyOf<S> : QueryOf<S>;

/**
 * Whether the input may be left out: never when there is none to give; a query when all its keys are
 * optional; a body only when declared `T | void`, so a call like `updateUser()` with nothing to say does
 * not type-check just because every field happens to be optional.
 */
export type InputIsOptional<S> = S extends { method: "POST" }
  ? undefined extends BodyOf<S>
    ? true
    : false
  : [QueryOf<S>] extends [void]
    ? true
    : object extends QueryOf<S>
      ? true
      : false;

import type { CallOptions, Fetcher, Result } from "./fetcher.js";
import type { DataOf, InputIsOptional, InputOf, QueryOf, RouteSpec, RouteTable } from "./route-spec.js";

/** Options of a generated method; a POST route that also reads a query string takes it here. */
export type MethodOptions<S> = CallOptions & (S extends { method: "POST"; query: unknown } ? { query?: QueryOf<S> } : unknown);

/** The arguments of a route's generated method: `(options?)`, `(input?, options?)` or `(input, options?)`. */
export type MethodArgs<S> = [InputOf<S>] extends [void]
  ? [options?: MethodOptions<S>]
  : InputIsOptional<S> extends true
    ? [input?: InputOf<S>, options?: MethodOptions<S>]
    : [input: InputOf<S>, options?: MethodOptions<S>];

export type RouteMethod<S> = (...args: MethodArgs<S>) => Promise<Result<DataOf<S>>>;

type KebabToCamel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<KebabToCamel<Tail>>}` : S;

/** "/sign-in/email" with method F becomes `{ signIn: { email: F } }`. */
type PathTree<P extends string, F> = P extends `/${infer Head}/${infer Rest}`
  ? { [K in KebabToCamel<Head>]: PathTree<`/${Rest}`, F> }
  : P extends `/${infer Last}`
    ? { [K in KebabToCamel<Last>]: F }
    : never;

type UnionToIntersection<U> = (U extends unknown ? (arg: U) => void : never) extends (arg: infer I) => void ? I : never;

/** All methods of a route table, nested by path: the intersection of every route's own tree. */
export type RouteMethods<R extends RouteTable> = UnionToIntersection<
  { [P in keyof R & string]: PathTree<P, RouteMethod<R[P]>> }[keyof R & string]
>;

export function kebabToCamel(segment: string): string {
  return segment.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

type Node = Record<string, unknown> | ((...args: unknown[]) => unknown);

function child(node: Node, key: string): Node {
  const existing = (node as Record<string, unknown>)[key];
  if (existing) return existing as Node;
  const created: Record<string, unknown> = {};
  (node as Record<string, unknown>)[key] = created;
  return created;
}

/**
 * Builds the nested methods of a route table. A path that is both a route and the parent of others
 * ("/delete-user" and "/delete-user/callback") becomes a callable function that also holds its children.
 */
export function buildMethods<R extends RouteTable>(routes: R, fetcher: Fetcher): RouteMethods<R> {
  const root: Record<string, unknown> = {};
  for (const [path, spec] of Object.entries(routes) as [string, RouteSpec][]) {
    const keys = path.slice(1).split("/").map(kebabToCamel);
    const last = keys.pop()!;
    const parent = keys.reduce<Node>(child, root) as Record<string, unknown>;
    const method = routeMethod(path, spec, fetcher);
    const existing = parent[last];
    parent[last] = existing ? Object.assign(method, existing) : method;
  }
  return root as RouteMethods<R>;
}

function routeMethod(path: string, spec: RouteSpec, fetcher: Fetcher) {
  const takesInput = spec.method === "POST" ? spec.body !== undefined : spec.query !== undefined;
  return (...args: unknown[]) => {
    const input = takesInput ? args[0] : undefined;
    const options = ((takesInput ? args[1] : args[0]) ?? {}) as CallOptions & { query?: object };
    const { query, ...rest } = options;
    return fetcher(path, {
      ...rest,
      method: spec.method,
      body: spec.method === "POST" ? input : undefined,
      query: spec.method === "GET" ? (input as object | undefined) : query,
    });
  };
}

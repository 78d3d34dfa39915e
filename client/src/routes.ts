import { NAVIGATIONS, ROUTES } from "./contract.gen.js";
import type { NavigationTable, RouteSpec, RouteTable, Shape } from "./route-spec.js";

/**
 * Every route the client knows, by path relative to the API base, as the server declares it: the tables are generated
 * (client/src/contract.gen.ts, by `npm run contract` from the server's ENDPOINTS), never written here. The client
 * derives a method from each path (kebab-case segments become camelCase, each "/" a level of nesting), so
 * "/sign-in/social" becomes `client.signIn.social`, "/forget-password" `client.forgetPassword` and
 * "/organization/create" `client.organization.create`. Navigation routes (a path with ":token", the error page) get a
 * URL builder, `client.$url`, instead.
 */
export { NAVIGATIONS, ROUTES };

export type Routes = typeof ROUTES;
export type RoutePath = keyof Routes;
export type Navigations = typeof NAVIGATIONS;
export type NavigationPath = keyof Navigations;

// The generated tables must keep the shape the client reads; a generator change that breaks it fails here.
type Table<T extends RouteTable> = T;
type NavigationTableOf<T extends NavigationTable> = T;
type _CheckedTables = [Table<Routes>, NavigationTableOf<Navigations>];

/** A successful call to this path changes the caller's session or user, as the server's endpoint declares. */
export function changesSession(path: string): boolean {
  return (ROUTES as Record<string, RouteSpec>)[path]?.changesSession === true;
}

/** The successful answer of a route, by path: `RouteData<"/organization/get-full-organization">`. */
export type RouteData<P extends RoutePath> = Routes[P]["data"] extends Shape<infer D> ? D : never;
/** The body a route takes, by path (never when it takes none). */
export type RouteBody<P extends RoutePath> = Routes[P] extends { body: Shape<infer B> } ? Exclude<B, void> : never;
/** The query string a route takes, by path (never when it takes none). */
export type RouteQuery<P extends RoutePath> = Routes[P] extends { query: Shape<infer Q> } ? Q : never;

/** "/reset-password/:token" needs `{ token: string }`. */
export type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<string, never>;

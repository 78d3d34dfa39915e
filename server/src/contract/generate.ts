import { z } from "zod";
import type { AnyEndpoint } from "../http/endpoint.js";
import { isPlainObject, printDeclaration, refName, type JsonSchema } from "./json-schema-to-ts.js";

/**
 * The client's contract (client/src/contract.gen.ts), generated from the server's endpoint table: for every HTTP
 * route its method, whether it changes the session, and the TypeScript types of its body, query string and answer,
 * printed from the same zod schemas that validate requests; for every browser navigation route (a mailed link, a
 * provider's redirect back, the error page) its query string; and every error code. Schemas named with
 * `.meta({ id: "User" })` become shared declarations (`export interface User`) the routes' types refer to.
 *
 * A pure function of its input, so a test can feed it the real table plus a route of its own.
 */
export const CONTRACT_FILE = "client/src/contract.gen.ts";
export const CONTRACT_COMMAND = "npm run contract";

type Io = "input" | "output";
type ObjectSchema = { [key: string]: unknown };

/** A route's name in the client's types: "/organization/get-full-organization" is "OrganizationGetFullOrganization". */
export function typeNameOf(path: string): string {
  return path
    .split("/")
    .filter(Boolean)
    .map((segment) => (segment.startsWith(":") ? `By-${segment.slice(1)}` : segment))
    .flatMap((segment) => segment.split(/[-_]/))
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join("");
}

/** Converts schemas to JSON Schema, gathering the named ones (`$defs`) of every conversion in one place. */
class SchemaCollector {
  readonly named = new Map<string, { json: string; schema: JsonSchema }>();

  convert(schema: z.ZodType, io: Io, where: string): JsonSchema {
    const converted = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as ObjectSchema;
    const json = (io === "input" ? closeObjects(converted) : converted) as ObjectSchema;
    const { $schema: _schema, $defs, ...rest } = json;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      const text = JSON.stringify(def);
      const known = this.named.get(id);
      if (known && known.json !== text) {
        throw new Error(
          `contract: the schema named "${id}" reads differently in ${where} than elsewhere (a request and an answer, ` +
            "or two schemas sharing the id); give them different ids",
        );
      }
      this.named.set(id, { json: text, schema: def });
    }
    return rest;
  }
}

/**
 * A request's type names the fields the route reads. Some request schemas are open (z.looseObject) only so the
 * handler can refuse a field by name (FIELD_NOT_ALLOWED for `email` on update-user) or a provider may add parameters;
 * the client's type does not invite other keys, so their `additionalProperties` is dropped where properties are named.
 */
function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (typeof schema !== "object" || schema === null) return schema;
  const entries = Object.entries(schema).map(([key, value]) => [key, closeObjects(value)] as const);
  const named = "properties" in schema && Object.keys((schema as ObjectSchema).properties as object).length > 0;
  return Object.fromEntries(named ? entries.filter(([key]) => key !== "additionalProperties") : entries);
}

interface FetchRoute {
  path: string;
  method: "GET" | "POST";
  changesSession: boolean;
  body?: { schema: JsonSchema; optional: boolean };
  query?: JsonSchema;
  data: JsonSchema;
}

interface NavigationRoute {
  path: string;
  query?: JsonSchema;
}

/** An object schema without a single property: the route takes no input (the server reads an absent body as `{}`). */
function isEmptyObject(schema: JsonSchema): boolean {
  return (
    typeof schema === "object" &&
    schema.type === "object" &&
    Object.keys((schema.properties ?? {}) as object).length === 0 &&
    (schema.additionalProperties === undefined || schema.additionalProperties === false) &&
    schema.anyOf === undefined
  );
}

function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
}

function collectRoutes(endpoints: Iterable<AnyEndpoint>, collector: SchemaCollector) {
  const fetchRoutes = new Map<string, FetchRoute>();
  const navigations = new Map<string, NavigationRoute>();
  for (const endpoint of endpoints) {
    if (endpoint.serverOnly) continue;
    const where = `${endpoint.method} ${endpoint.path}`;
    if (endpoint.navigation) {
      // One URL, whatever the method (GET /callback/:id and the form_post to the same path): the GET's query wins.
      const known = navigations.get(endpoint.path);
      if (known && endpoint.method !== "GET") continue;
      const query = endpoint.query ? collector.convert(endpoint.query, "input", where) : undefined;
      navigations.set(endpoint.path, { path: endpoint.path, ...(query ? { query } : {}) });
      continue;
    }
    if (pathParams(endpoint.path).length > 0) {
      throw new Error(
        `contract: ${where} has a path parameter but is not a navigation route; the client calls routes by fixed paths ` +
          "(take the value in the query or body, or declare `navigation: true`)",
      );
    }
    if (!endpoint.response) {
      throw new Error(`contract: ${where} declares no response schema; every route the client fetches needs one`);
    }
    if (fetchRoutes.has(endpoint.path)) throw new Error(`contract: two routes share the path ${endpoint.path}`);
    const route: FetchRoute = {
      path: endpoint.path,
      method: endpoint.method,
      changesSession: endpoint.changesSession === true,
      data: collector.convert(endpoint.response, "output", where),
    };
    if (endpoint.body) {
      const schema = collector.convert(endpoint.body, "input", where);
      if (!isEmptyObject(schema)) route.body = { schema, optional: endpoint.body.safeParse(undefined).success };
    }
    if (endpoint.query) {
      const schema = collector.convert(endpoint.query, "input", where);
      if (!isEmptyObject(schema)) route.query = schema;
    }
    fetchRoutes.set(endpoint.path, route);
  }
  const byPath = <T extends { path: string }>(routes: Map<string, T>) =>
    [...routes.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { fetchRoutes: byPath(fetchRoutes), navigations: byPath(navigations) };
}

/** The declaration of a route's type: `export type X = User;` for a bare reference, else the printed schema. */
function declare(names: Set<string>, name: string, schema: JsonSchema): string {
  if (names.has(name)) throw new Error(`contract: the type name ${name} is declared twice (a route's and a named schema's)`);
  names.add(name);
  if (typeof schema === "object" && typeof schema.$ref === "string" && !isPlainObject(schema)) {
    return `export type ${name} = ${refName(schema.$ref)};`;
  }
  return printDeclaration(name, schema);
}

const HEADER = `/**
 * GENERATED FILE, DO NOT EDIT. The client's contract with the server, printed by server/src/contract/generate.ts from
 * the server's endpoint table (ENDPOINTS in server/src/routes.ts: each route's method, zod schemas and
 * \`changesSession\`) and its error catalogues (server/src/http/error-catalogue.ts).
 *
 * To change it, change the server and run \`${CONTRACT_COMMAND}\`; server/test/contract.test.ts fails while this
 * file differs from what the generator prints.
 */
import { shape } from "./route-spec.js";

/** A timestamp as the server sends it: an ISO-8601 string (\`new Date(value)\` makes a Date of it). */
export type ISODateString = string;
`;

function section(title: string): string {
  return `\n// ${"-".repeat(4)} ${title} ${"-".repeat(Math.max(4, 112 - title.length))}\n`;
}

/** The text of client/src/contract.gen.ts for these endpoints and error codes. */
export function generateContract(endpoints: Record<string, AnyEndpoint>, errorCodes: readonly string[]): string {
  const collector = new SchemaCollector();
  const { fetchRoutes, navigations } = collectRoutes(Object.values(endpoints), collector);
  const names = new Set<string>(["ISODateString"]);
  const named = [...collector.named.keys()].sort();
  const out: string[] = [HEADER];

  out.push(section("Named shapes (zod schemas with .meta({ id }))"));
  out.push(named.map((id) => declare(names, id, collector.named.get(id)!.schema)).join("\n\n"));

  out.push(section("Each route's body, query string and answer"));
  const routeTypes: string[] = [];
  const table: string[] = [];
  for (const route of fetchRoutes) {
    const base = typeNameOf(route.path);
    const parts = [`method: "${route.method}"`];
    if (route.changesSession) parts.push("changesSession: true");
    if (route.body) {
      routeTypes.push(declare(names, `${base}Body`, route.body.schema));
      parts.push(`body: shape<${base}Body${route.body.optional ? " | void" : ""}>()`);
    }
    if (route.query) {
      routeTypes.push(declare(names, `${base}Query`, route.query));
      parts.push(`query: shape<${base}Query>()`);
    }
    routeTypes.push(declare(names, `${base}Data`, route.data));
    parts.push(`data: shape<${base}Data>()`);
    table.push(`  ${JSON.stringify(route.path)}: { ${parts.join(", ")} },`);
  }
  out.push(routeTypes.join("\n\n"));

  const navigationTypes: string[] = [];
  const navigationTable: string[] = [];
  for (const route of navigations) {
    const base = typeNameOf(route.path);
    const parts = [`params: [${pathParams(route.path).map((name) => JSON.stringify(name)).join(", ")}]`];
    if (route.query) {
      navigationTypes.push(declare(names, `${base}Query`, route.query));
      parts.push(`query: shape<${base}Query>()`);
    }
    navigationTable.push(`  ${JSON.stringify(route.path)}: { ${parts.join(", ")} },`);
  }
  if (navigationTypes.length > 0) {
    out.push(section("Each navigation route's query string"));
    out.push(navigationTypes.join("\n\n"));
  }

  out.push(section("The route tables"));
  out.push(`/**
 * Every route the client fetches, by path relative to the API base: its method, whether a successful call changes
 * the caller's session (the session store then fetches it again), and, as compile-time markers, its body, query
 * string and answer. A body marked \`| void\` may be left out.
 */
export const ROUTES = {
${table.join("\n")}
} as const;

/**
 * The routes a browser navigates to rather than fetches (a mailed link, a provider's redirect back, the error page):
 * their answer is a redirect or an HTML page. The client builds their URLs (\`client.$url\`).
 */
export const NAVIGATIONS = {
${navigationTable.join("\n")}
} as const;
`);

  out.push(section("Error codes"));
  out.push(`/** Every code the server's error catalogues can answer with (the \`code\` of an error's body). */
export const ERROR_CODES = [
${errorCodes.map((code) => `  ${JSON.stringify(code)},`).join("\n")}
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
`);
  return out.join("\n").replace(/\n{3,}/g, "\n\n");
}

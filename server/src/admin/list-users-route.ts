import { z } from "zod";
import type { Config } from "../config/index.js";
import { APIError, fillMessage } from "../http/errors.js";
import { HTTP_FIXED_CODES } from "../http/messages.js";
import {
  FILTER_OPERATORS,
  TEXT_OPERATORS,
  USER_FILTER_FIELDS,
  USER_SEARCH_FIELDS,
  USER_SORT_FIELDS,
  type FilterValue,
  type UserFilterField,
  type UserListQuery,
} from "./store/user-search.js";
import { publicUser, publicUserSchema } from "../user/public.js";
import { isAdministrator } from "./access.js";
import { defineAdminEndpoint } from "./deps.js";
import { requirePermission } from "./guard.js";
import { ADMIN_MESSAGES } from "./messages.js";

/** Rows per page when the caller names no limit, and the most one page may hold. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** A whole number in a query string ("25"), at most max. */
export const queryInteger = (max: number) =>
  z
    .union([z.number().int(), z.string().regex(/^\d{1,10}$/, "Expected a whole number")])
    .transform(Number)
    .pipe(z.number().int().min(0).max(max));

const BOOLEAN_FIELDS: ReadonlySet<UserFilterField> = new Set(["banned", "emailVerified"]);
const DATE_FIELDS: ReadonlySet<UserFilterField> = new Set(["createdAt", "updatedAt"]);
const LOWER_CASE_FIELDS: ReadonlySet<UserFilterField> = new Set(["email", "username"]);

function invalidFilter(message: string): APIError {
  return new APIError("BAD_REQUEST", fillMessage(HTTP_FIXED_CODES.VALIDATION_ERROR, { source: "query" }), {
    code: "VALIDATION_ERROR",
    extra: { issues: [{ path: "query.filterValue", message }] },
  });
}

/** A query-string filter value as the column's type: booleans and dates parsed, email and username lower-cased. */
function filterValueOf(field: UserFilterField, raw: string): FilterValue {
  if (BOOLEAN_FIELDS.has(field)) {
    if (raw === "true" || raw === "1") return true;
    if (raw === "false" || raw === "0") return false;
    throw invalidFilter(`Expected true or false for ${field}`);
  }
  if (DATE_FIELDS.has(field)) {
    const date = new Date(raw);
    if (Number.isNaN(date.getTime())) throw invalidFilter(`Expected a date for ${field}`);
    return date;
  }
  return LOWER_CASE_FIELDS.has(field) ? raw.toLowerCase() : raw;
}

const listUsersQuery = z.object({
  searchValue: z.string().max(256).optional(),
  searchField: z.enum(USER_SEARCH_FIELDS).default("email"),
  searchOperator: z.enum(TEXT_OPERATORS).default("contains"),
  limit: queryInteger(MAX_PAGE_SIZE).optional(),
  offset: queryInteger(1_000_000_000).optional(),
  sortBy: z.enum(USER_SORT_FIELDS).default("createdAt"),
  sortDirection: z.enum(["asc", "desc"]).default("asc"),
  filterField: z.enum(USER_FILTER_FIELDS).default("email"),
  filterValue: z.union([z.string().max(256), z.array(z.string().max(256)).min(1).max(100)]).optional(),
  filterOperator: z.enum(FILTER_OPERATORS).default("eq"),
  /** "true": only site administrators (admin.adminRoles or adminUserIds); "false": only the others. */
  administrator: z
    .union([z.boolean(), z.enum(["true", "false"])])
    .transform((value) => value === true || value === "true")
    .optional(),
});

function toListQuery(query: z.output<typeof listUsersQuery>, admin: Config["admin"]): UserListQuery {
  const out: UserListQuery = {
    sortBy: query.sortBy,
    sortDirection: query.sortDirection,
    limit: query.limit || DEFAULT_PAGE_SIZE,
    offset: query.offset ?? 0,
  };
  if (query.administrator !== undefined) {
    out.administrators = {
      include: query.administrator,
      roles: admin.adminRoles,
      ids: admin.adminUserIds,
      defaultIsAdmin: admin.adminRoles.includes(admin.defaultRole),
    };
  }
  if (query.searchValue) {
    out.search = { field: query.searchField, operator: query.searchOperator, value: query.searchValue };
  }
  if (query.filterValue !== undefined) {
    const { filterField: field, filterOperator: operator } = query;
    const isText = !BOOLEAN_FIELDS.has(field) && !DATE_FIELDS.has(field);
    if ((TEXT_OPERATORS as readonly string[]).includes(operator) && !isText) {
      throw invalidFilter(`${operator} applies to text fields only`);
    }
    const values = Array.isArray(query.filterValue) ? query.filterValue : [query.filterValue];
    const list = operator === "in" || operator === "not_in";
    // "in" takes a list: repeated filterValue parameters or one comma-separated value.
    const raw = list ? values.flatMap((v) => v.split(",")).filter(Boolean) : values.slice(0, 1);
    const typed = raw.map((v) => filterValueOf(field, v));
    out.filter = { field, operator, value: list ? typed : typed[0]! };
  }
  return out;
}

export const listUsers = defineAdminEndpoint({
  method: "GET",
  path: "/admin/list-users",
  auth: "sensitive",
  query: listUsersQuery,
  response: z.object({
    users: z.array(
      publicUserSchema.extend({
        administrator: z.boolean().describe("Whether the user is a site administrator (admin.adminRoles or adminUserIds)"),
      }),
    ),
    total: z.number(),
    limit: z.number(),
    offset: z.number(),
  }),
  summary: "Users, searched, filtered, sorted and paged, with the total that match; each says whether they are an administrator",
  tags: ["Admin"],
  async handler(ctx) {
    requirePermission(ctx, { user: ["list"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_LIST_USERS);
    const { config } = ctx.runtime;
    const query = toListQuery(ctx.query, config.admin);
    const { users, total } = await ctx.runtime.stores.userDirectory.listUsers(query);
    return {
      users: users.map((user) => ({ ...publicUser(user), administrator: isAdministrator(config.admin, user) })),
      total,
      limit: query.limit,
      offset: query.offset,
    };
  },
});

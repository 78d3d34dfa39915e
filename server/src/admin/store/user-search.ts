import { sql, type Expression, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool } from "kysely";
import { escapeLike } from "../../storage/like.js";
import { dbBool, dbDate } from "../../storage/rows.js";
import type { Database, UserTable } from "../../storage/schema.js";

/**
 * The administrators' user list: search, filter, sort and page over the user table. Column names come only from
 * the allow-lists below (callers validate against them), values are always bound parameters.
 *
 * Kept fast on a large table: every sort column has an index ending in id (migration 0003-admin), and the page
 * is ordered by (column, id), so a page's ids are a walk of one index, and only its own rows are read. The total
 * is a separate count(*), run beside the page query. On PostgreSQL, contains and ends_with searches are served by
 * trigram indexes (0006-user-trigram) and starts_with on name by a pattern index (0004-admin-search); on SQLite
 * they scan (bench/README.md has the figures at 100,000 users).
 */
export const USER_SORT_FIELDS = ["createdAt", "updatedAt", "name", "email", "username", "role"] as const;
export const USER_SEARCH_FIELDS = ["email", "name", "username"] as const;
export const USER_FILTER_FIELDS = [
  "id",
  "email",
  "name",
  "username",
  "displayUsername",
  "role",
  "banned",
  "emailVerified",
  "createdAt",
  "updatedAt",
] as const;
export const TEXT_OPERATORS = ["contains", "starts_with", "ends_with"] as const;
export const FILTER_OPERATORS = ["eq", "ne", "lt", "lte", "gt", "gte", "in", "not_in", ...TEXT_OPERATORS] as const;

export type UserSortField = (typeof USER_SORT_FIELDS)[number];
export type UserSearchField = (typeof USER_SEARCH_FIELDS)[number];
export type UserFilterField = (typeof USER_FILTER_FIELDS)[number];
export type TextOperator = (typeof TEXT_OPERATORS)[number];
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
export type FilterValue = string | boolean | Date;

export interface UserListQuery {
  search?: { field: UserSearchField; operator: TextOperator; value: string };
  filter?: { field: UserFilterField; operator: FilterOperator; value: FilterValue | FilterValue[] };
  /** Only the site administrators (or, false, only the others): a role among `roles`, or an id among `ids`. */
  administrators?: { include: boolean; roles: readonly string[]; ids: readonly string[]; defaultIsAdmin: boolean };
  sortBy: UserSortField;
  sortDirection: "asc" | "desc";
  limit: number;
  offset: number;
}

/** Stored in lower case already, so matched without lower() on the column. */
const LOWER_CASE_COLUMNS: ReadonlySet<string> = new Set(["email", "username", "id"]);

const COMPARISONS = { eq: "=", ne: "<>", lt: "<", lte: "<=", gt: ">", gte: ">=" } as const;

type UserExpressions = ExpressionBuilder<Database, "user">;


const toDbValue = (value: FilterValue): string | number =>
  typeof value === "boolean" ? dbBool(value) : value instanceof Date ? dbDate(value) : value;

/** Case-insensitive contains / starts-with / ends-with, with the input's own % and _ escaped. */
function textMatch(column: string, operator: TextOperator, value: string): Expression<SqlBool> {
  const needle = escapeLike(value.toLowerCase());
  const pattern = operator === "starts_with" ? `${needle}%` : operator === "ends_with" ? `%${needle}` : `%${needle}%`;
  const target = LOWER_CASE_COLUMNS.has(column) ? sql.ref(column) : sql`lower(${sql.ref(column)})`;
  return sql<SqlBool>`${target} like ${pattern} escape '\\'`;
}

function filterCondition(eb: UserExpressions, filter: NonNullable<UserListQuery["filter"]>): Expression<SqlBool> {
  const { field, operator, value } = filter;
  const values = Array.isArray(value) ? value : [value];
  if (operator === "in" || operator === "not_in") {
    if (values.length === 0) return operator === "in" ? sql<SqlBool>`1 = 0` : sql<SqlBool>`1 = 1`;
    return eb(field, operator === "in" ? "in" : "not in", values.map(toDbValue));
  }
  const single = values[0];
  if (single === undefined) return sql<SqlBool>`1 = 1`;
  if (operator === "contains" || operator === "starts_with" || operator === "ends_with") {
    return textMatch(field, operator, String(single));
  }
  return eb(field, COMPARISONS[operator], toDbValue(single));
}

/**
 * Whether a user is an administrator, as admin/access.ts `isAdministrator` decides it: one of the roles in the
 * comma-joined role string (spaces ignored), an empty role when the default role is an administrator's, or an id.
 * These scan the table; the filter is for a console's "administrators only", which is read a page at a time.
 */
function administratorCondition(
  eb: UserExpressions,
  { roles, ids, defaultIsAdmin }: NonNullable<UserListQuery["administrators"]>,
): Expression<SqlBool> {
  const listed = sql<string>`',' || replace(coalesce(${sql.ref("role")}, ''), ' ', '') || ','`;
  const parts: Expression<SqlBool>[] = roles.map((role) => sql<SqlBool>`${listed} like ${`%,${escapeLike(role)},%`} escape '\\'`);
  if (ids.length > 0) parts.push(eb("id", "in", [...ids]));
  if (defaultIsAdmin) parts.push(sql<SqlBool>`replace(coalesce(${sql.ref("role")}, ''), ' ', '') = ''`);
  return parts.length > 0 ? eb.or(parts) : sql<SqlBool>`1 = 0`;
}

export async function searchUsers(
  db: Kysely<Database>,
  query: UserListQuery,
): Promise<{ rows: Selectable<UserTable>[]; total: number }> {
  const conditions = (eb: UserExpressions): Expression<SqlBool> => {
    const parts: Expression<SqlBool>[] = [];
    if (query.search) parts.push(textMatch(query.search.field, query.search.operator, query.search.value));
    if (query.filter) parts.push(filterCondition(eb, query.filter));
    if (query.administrators) {
      const admins = administratorCondition(eb, query.administrators);
      parts.push(query.administrators.include ? admins : eb.not(admins));
    }
    return eb.and(parts);
  };
  const filtered = query.search || query.filter || query.administrators;
  // The page's ids first (from the sort index alone, however deep the offset), then those rows: a deep page
  // then skips index entries instead of whole rows.
  let ids = db.selectFrom("user").select("id").orderBy(query.sortBy, query.sortDirection);
  // Ties are broken by id so paging is stable; email is unique and needs no tie-break.
  if (query.sortBy !== "email") ids = ids.orderBy("id", query.sortDirection);
  let count = db.selectFrom("user").select((eb) => eb.fn.countAll<number | string | bigint>().as("total"));
  if (filtered) {
    ids = ids.where(conditions);
    count = count.where(conditions);
  }
  let page = db
    .selectFrom("user")
    .selectAll()
    .where("id", "in", ids.limit(query.limit).offset(query.offset))
    .orderBy(query.sortBy, query.sortDirection);
  if (query.sortBy !== "email") page = page.orderBy("id", query.sortDirection);
  const [rows, counted] = await Promise.all([page.execute(), count.executeTakeFirstOrThrow()]);
  return { rows, total: Number(counted.total) };
}

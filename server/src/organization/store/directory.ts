import { sql, type Kysely, type SqlBool } from "kysely";
import { containsPattern } from "../../storage/like.js";
import type { Organization } from "./models.js";
import { toOrganization } from "./organizations.js";
import type { OrganizationDatabase as Database } from "../tables.js";

/**
 * Read-only views over every organization, for site administrators (member-scoped reads live in
 * organizations.ts and members.ts). Sort columns come from the allow-list; values are bound parameters.
 */
export const ORGANIZATION_SORT_FIELDS = ["createdAt", "name", "slug"] as const;
export type OrganizationSortField = (typeof ORGANIZATION_SORT_FIELDS)[number];

export interface OrganizationListQuery {
  /** Matched, case-insensitively, anywhere in the name or the slug. */
  search?: string | undefined;
  sortBy: OrganizationSortField;
  sortDirection: "asc" | "desc";
  limit: number;
  offset: number;
}

export type OrganizationWithCount = Organization & { memberCount: number };

export function organizationDirectoryStore(db: Kysely<Database>) {
  return {
    /** A page of organizations with their member counts, and how many match in all. */
    async listAllOrganizations(query: OrganizationListQuery): Promise<{ organizations: OrganizationWithCount[]; total: number }> {
      const pattern = query.search ? containsPattern(query.search.toLowerCase()) : null;
      const matches = pattern
        ? sql<SqlBool>`(lower(${sql.ref("o.name")}) like ${pattern} escape '\\' or lower(${sql.ref("o.slug")}) like ${pattern} escape '\\')`
        : sql<SqlBool>`1 = 1`;
      const [rows, counted] = await Promise.all([
        db
          .selectFrom("organization as o")
          .selectAll("o")
          .select((eb) =>
            eb
              .selectFrom("member as m")
              .select(eb.fn.countAll<number | string | bigint>().as("n"))
              .whereRef("m.organizationId", "=", "o.id")
              .as("memberCount"),
          )
          .where(matches)
          .orderBy(`o.${query.sortBy}`, query.sortDirection)
          .orderBy("o.id", query.sortDirection)
          .limit(query.limit)
          .offset(query.offset)
          .execute(),
        db
          .selectFrom("organization as o")
          .select((eb) => eb.fn.countAll<number | string | bigint>().as("total"))
          .where(matches)
          .executeTakeFirstOrThrow(),
      ]);
      return {
        organizations: rows.map(({ memberCount, ...row }) => ({ ...toOrganization(row), memberCount: Number(memberCount ?? 0) })),
        total: Number(counted.total),
      };
    },
  };
}

export type OrganizationDirectoryStore = ReturnType<typeof organizationDirectoryStore>;

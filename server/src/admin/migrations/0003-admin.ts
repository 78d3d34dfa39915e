import type { Kysely } from "kysely";

/**
 * Indexes behind the administrators' user list (admin/store/user-search.ts): each sortable column with id as the
 * tie-break, so ordering by (column, id) and taking a page walks one index instead of sorting the table.
 * email and username are unique, so their own indexes serve already.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ["createdAt", "updatedAt", "name", "role"]) {
    await db.schema
      .createIndex(`user_${column}_idx`)
      .ifNotExists()
      .on("user")
      .columns([column, "id"])
      .execute();
  }
}

import { sql, type Kysely } from "kysely";

/**
 * Sessions by the administrator impersonating through them: banning, removing or demoting an administrator deletes
 * the impersonation sessions they hold (`impersonatedBy = id`), and a user deleting their own account does the
 * same, so the lookup must not read the whole session table. Partial: only impersonation sessions carry the
 * column, so the index stays as small as they are few (both databases use it for `impersonatedBy = ?`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("session_impersonatedBy_idx")
    .ifNotExists()
    .on("session")
    .column("impersonatedBy")
    .where(sql.ref("impersonatedBy"), "is not", null)
    .execute();
}

import type { Kysely } from "kysely";

/**
 * One account row per provider identity: (providerId, accountId) becomes unique, so two sign-ins or links racing
 * for the same provider account cannot both insert it (the loser's insert fails and it reports the conflict).
 * The plain index of 0001 is replaced by the unique one, which serves the same lookups.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("account_providerId_accountId_uidx")
    .ifNotExists()
    .unique()
    .on("account")
    .columns(["providerId", "accountId"])
    .execute();
  await db.schema.dropIndex("account_providerId_accountId_idx").ifExists().execute();
}

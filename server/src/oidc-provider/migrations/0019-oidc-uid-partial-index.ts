import type { Kysely } from "kysely";
import { indexOnlyNotNull } from "../../storage/migrations/types.js";

/**
 * `oidcPayload.uid` is set for oidc-provider's sessions and interactions only, never for codes and tokens, which
 * are most rows: its index holds only the rows that have one (tables.ts `onlyNotNull`; lookups by uid always name
 * one). Each token row then writes no entry into it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await indexOnlyNotNull(db, "oidcPayload", "oidcPayload_uid_idx", ["uid"]);
}

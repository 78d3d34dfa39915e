import type { Kysely, Selectable } from "kysely";
import { dbDate, toDate, toDateOrNull } from "../../storage/rows.js";
import type { OidcDatabase, OidcSigningKeyTable } from "../tables.js";
import type { StoredSigningKey } from "./models.js";

function toKey(row: Selectable<OidcSigningKeyTable>): StoredSigningKey {
  return {
    kid: row.kid,
    alg: row.alg === "ES256" ? "ES256" : "RS256",
    publicKey: JSON.parse(row.publicKey) as Record<string, unknown>,
    privateKey: row.privateKey,
    createdAt: toDate(row.createdAt),
    retiredAt: toDateOrNull(row.retiredAt),
    expiresAt: toDateOrNull(row.expiresAt),
  };
}

/** The provider's signing keys (keys.ts). */
export function oidcSigningKeyStore(db: Kysely<OidcDatabase>) {
  return {
    /** The keys still published (not past expiresAt), newest first. */
    async listSigningKeys(now: Date): Promise<StoredSigningKey[]> {
      const rows = await db
        .selectFrom("oidcSigningKey")
        .selectAll()
        .where((eb) => eb.or([eb("expiresAt", "is", null), eb("expiresAt", ">", dbDate(now))]))
        .orderBy("createdAt", "desc")
        .orderBy("kid", "desc")
        .execute();
      return rows.map(toKey);
    },

    async insertSigningKey(key: StoredSigningKey): Promise<void> {
      await db
        .insertInto("oidcSigningKey")
        .values({
          kid: key.kid,
          alg: key.alg,
          publicKey: JSON.stringify(key.publicKey),
          privateKey: key.privateKey,
          createdAt: dbDate(key.createdAt),
          retiredAt: key.retiredAt ? dbDate(key.retiredAt) : null,
          expiresAt: key.expiresAt ? dbDate(key.expiresAt) : null,
        })
        .execute();
    },

    /**
     * Retires at `at` every key but the ones named that would sign after it (not retired, or retired later: an
     * earlier rotation's keys included); they verify until `expiresAt`, then leave the JWKS.
     */
    async retireSigningKeys(keep: readonly string[], at: Date, expiresAt: Date): Promise<number> {
      let query = db
        .updateTable("oidcSigningKey")
        .set({ retiredAt: dbDate(at), expiresAt: dbDate(expiresAt) })
        .where((eb) => eb.or([eb("retiredAt", "is", null), eb("retiredAt", ">", dbDate(at))]));
      if (keep.length) query = query.where("kid", "not in", [...keep]);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** Keys past their overlap window. */
    async deleteExpiredSigningKeys(now: Date): Promise<number> {
      const result = await db.deleteFrom("oidcSigningKey").where("expiresAt", "<=", dbDate(now)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

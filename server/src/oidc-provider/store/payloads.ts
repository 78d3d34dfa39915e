import type { ExpressionBuilder, Kysely, Selectable } from "kysely";
import { dbDate, toDateOrNull } from "../../storage/rows.js";
import { precompiled } from "./precompiled.js";
import type { OidcDatabase, OidcPayloadTable } from "../tables.js";
import type { StoredPayload } from "./models.js";

function toStored(row: Selectable<OidcPayloadTable>): StoredPayload {
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(row.payload) as Record<string, unknown>;
  } catch {
    payload = {};
  }
  return {
    key: row.key,
    model: row.model,
    payload,
    grantId: row.grantId ?? null,
    uid: row.uid ?? null,
    accountId: row.accountId ?? null,
    clientId: row.clientId ?? null,
    expiresAt: toDateOrNull(row.expiresAt),
    consumedAt: toDateOrNull(row.consumedAt),
  };
}

/** What oidc-provider stores (adapter.ts): one row per entity, by `{model}:{id}` (the id hashed for tokens). */
export function oidcPayloadStore(db: Kysely<OidcDatabase>) {
  const live = (now: Date) => (eb: ExpressionBuilder<OidcDatabase, "oidcPayload">) =>
    eb.or([eb("expiresAt", "is", null), eb("expiresAt", ">", dbDate(now))]);
  const selectAll = () => db.selectFrom("oidcPayload").selectAll();

  // The reads and writes of every token request, compiled once (precompiled.ts).
  const findOne = precompiled<"key" | "now", Selectable<OidcPayloadTable>>(db, (v) =>
    selectAll()
      .where("key", "=", v("key"))
      .where((eb) => eb.or([eb("expiresAt", "is", null), eb("expiresAt", ">", v("now"))])),
  );
  const upsertOne = precompiled<
    "key" | "model" | "payload" | "grantId" | "uid" | "accountId" | "clientId" | "expiresAt",
    unknown
  >(db, (v) =>
    db
      .insertInto("oidcPayload")
      .values({
        key: v("key"),
        model: v("model"),
        payload: v("payload"),
        grantId: v("grantId"),
        uid: v("uid"),
        accountId: v("accountId"),
        clientId: v("clientId"),
        expiresAt: v("expiresAt"),
      })
      .onConflict((oc) =>
        oc.column("key").doUpdateSet({
          model: v("model"),
          payload: v("payload"),
          grantId: v("grantId"),
          uid: v("uid"),
          accountId: v("accountId"),
          clientId: v("clientId"),
          expiresAt: v("expiresAt"),
        }),
      ),
  );
  const consumeOne = precompiled<"key" | "now", unknown>(db, (v) =>
    db.updateTable("oidcPayload").set({ consumedAt: v("now") }).where("key", "=", v("key")).where("consumedAt", "is", null),
  );

  return {
    /** The entity, unless it has expired. */
    async findPayload(key: string, now: Date): Promise<StoredPayload | null> {
      const { rows } = await findOne({ key, now: dbDate(now) });
      return rows[0] ? toStored(rows[0]) : null;
    },

    async findPayloadByUid(model: string, uid: string, now: Date): Promise<StoredPayload | null> {
      const row = await selectAll().where("uid", "=", uid).where("model", "=", model).where(live(now)).executeTakeFirst();
      return row ? toStored(row) : null;
    },

    /** Writes the entity, replacing one stored under the same key (a session or grant saved again). */
    async upsertPayload(row: StoredPayload): Promise<void> {
      await upsertOne({
        key: row.key,
        model: row.model,
        payload: JSON.stringify(row.payload),
        grantId: row.grantId,
        uid: row.uid,
        accountId: row.accountId,
        clientId: row.clientId,
        expiresAt: row.expiresAt ? dbDate(row.expiresAt) : null,
      });
    },

    /**
     * Marks a code or refresh token used, in one statement: of two requests presenting it at once, only one
     * marks it; the other is told false.
     */
    async consumePayload(key: string, now: Date): Promise<boolean> {
      const result = await consumeOne({ key, now: dbDate(now) });
      return Number(result.numAffectedRows ?? 0) === 1;
    },

    async grantIdOf(key: string): Promise<string | null> {
      const row = await db.selectFrom("oidcPayload").select("grantId").where("key", "=", key).executeTakeFirst();
      return row?.grantId ?? null;
    },

    async deletePayload(key: string): Promise<void> {
      await db.deleteFrom("oidcPayload").where("key", "=", key).execute();
    },

    /** The entities of one kind issued under a grant (oidc-provider's revokeByGrantId). */
    async deleteByGrantId(model: string, grantId: string): Promise<void> {
      await db.deleteFrom("oidcPayload").where("grantId", "=", grantId).where("model", "=", model).execute();
    },

    /** Whose a grant is (its user and client), or null when it is gone. */
    async grantOwner(grantId: string): Promise<{ accountId: string | null; clientId: string | null } | null> {
      const row = await db
        .selectFrom("oidcPayload")
        .select(["accountId", "clientId"])
        .where("key", "=", `Grant:${grantId}`)
        .executeTakeFirst();
      return row ? { accountId: row.accountId ?? null, clientId: row.clientId ?? null } : null;
    },

    /** A grant and everything issued under it, in one statement; answers the rows deleted. */
    async deleteGrantAndTokens(grantId: string): Promise<number> {
      const result = await db
        .deleteFrom("oidcPayload")
        .where((eb) => eb.or([eb("grantId", "=", grantId), eb("key", "=", `Grant:${grantId}`)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** The user's unexpired grants, newest first. */
    async listUserGrants(accountId: string, now: Date): Promise<StoredPayload[]> {
      const rows = await selectAll()
        .where("accountId", "=", accountId)
        .where("model", "=", "Grant")
        .where(live(now))
        .execute();
      return rows.map(toStored);
    },

    /** The grant ids the user holds for a client (usually one). */
    async userClientGrantIds(accountId: string, clientId: string, now: Date): Promise<string[]> {
      const rows = await db
        .selectFrom("oidcPayload")
        .select("key")
        .where("accountId", "=", accountId)
        .where("model", "=", "Grant")
        .where("clientId", "=", clientId)
        .where(live(now))
        .execute();
      return rows.map((r) => r.key.slice("Grant:".length));
    },

    /** Everything kept for a user (grants, tokens, provider sessions); answers the rows deleted. */
    async deleteUserPayloads(accountId: string): Promise<number> {
      const result = await db.deleteFrom("oidcPayload").where("accountId", "=", accountId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** The user's tokens and provider sessions, keeping their grants (consents). */
    async deleteUserTokens(accountId: string): Promise<number> {
      const result = await db
        .deleteFrom("oidcPayload")
        .where("accountId", "=", accountId)
        .where("model", "not in", ["Grant", "GatehouseContext"])
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Everything kept for a client (its grants and tokens). */
    async deleteClientPayloads(clientId: string): Promise<number> {
      const result = await db.deleteFrom("oidcPayload").where("clientId", "=", clientId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Expired rows (the hourly sweep). */
    async deleteExpiredPayloads(now: Date): Promise<number> {
      const result = await db.deleteFrom("oidcPayload").where("expiresAt", "<=", dbDate(now)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

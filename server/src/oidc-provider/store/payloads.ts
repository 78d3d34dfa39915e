import { CompiledQuery, type ExpressionBuilder, type Kysely, type Selectable } from "kysely";
import type { Dialect } from "../../storage/database.js";
import type { ExtraRow } from "../../storage/extra-rows.js";
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

/** A payload row as its insert's values. */
function payloadValues(row: StoredPayload): Record<string, unknown> {
  return {
    key: row.key,
    model: row.model,
    payload: JSON.stringify(row.payload),
    grantId: row.grantId,
    uid: row.uid,
    accountId: row.accountId,
    clientId: row.clientId,
    expiresAt: row.expiresAt ? dbDate(row.expiresAt) : null,
  };
}

interface InsertGroup {
  table: string;
  columns: string[];
  rows: Record<string, unknown>[];
}

/** Consecutive rows of one table, one multi-row insert each (their columns are the first row's). */
function groupsOf(inserts: readonly ExtraRow[]): InsertGroup[] {
  const groups: InsertGroup[] = [];
  for (const { table, values } of inserts) {
    const last = groups[groups.length - 1];
    if (last && last.table === table) last.rows.push(values);
    else groups.push({ table, columns: Object.keys(values), rows: [values] });
  }
  return groups;
}

/**
 * The SQL of a token response's inserts, compiled once per shape (tables, columns and row counts) and dialect: a
 * response writes one to three rows, and building the query each time would cost more than running it. The values
 * are built as markers and the compiled parameters mapped back to [group, row, column], so the order Kysely puts
 * them in never matters.
 */
const insertSql = new Map<string, { sql: string; order: [number, number, string][] }>();
const MARK = "\u0000gh-insert:";

function compiledInsert(db: Kysely<any>, dialect: Dialect, groups: readonly InsertGroup[]): CompiledQuery {
  const shape = `${dialect}|${groups.map((g) => `${g.table}(${g.columns.join(",")})x${g.rows.length}`).join("|")}`;
  let compiled = insertSql.get(shape);
  if (!compiled) {
    const marked = (g: number) =>
      groups[g]!.rows.map((_, r) => Object.fromEntries(groups[g]!.columns.map((c) => [c, `${MARK}${g}:${r}:${c}`])));
    // PostgreSQL: every group but the last a data-modifying WITH clause of the last (one statement, all or nothing).
    let query: any = db;
    for (let g = 0; g < groups.length - 1; g++) query = query.with(`w${g}`, (q: Kysely<any>) => q.insertInto(groups[g]!.table).values(marked(g)));
    const last = groups.length - 1;
    const built = (query as Kysely<any>).insertInto(groups[last]!.table).values(marked(last)).compile();
    const order = built.parameters.map((parameter): [number, number, string] => {
      if (typeof parameter !== "string" || !parameter.startsWith(MARK)) throw new Error("compiledInsert: a value was not named");
      const [g, r, ...column] = parameter.slice(MARK.length).split(":");
      return [Number(g), Number(r), column.join(":")];
    });
    compiled = { sql: built.sql, order };
    insertSql.set(shape, compiled);
  }
  return CompiledQuery.raw(
    compiled.sql,
    compiled.order.map(([g, r, c]) => groups[g]!.rows[r]![c]),
  );
}

/** What oidc-provider stores (adapter.ts): one row per entity, by `{model}:{id}` (the id hashed for tokens). */
export function oidcPayloadStore(db: Kysely<OidcDatabase>, dialect: Dialect) {
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

  /** A change and the rows written with it (its security event): both or neither, in one transaction. */
  const withRows = async <T>(extraRows: readonly ExtraRow[], change: (conn: Kysely<any>) => Promise<T>): Promise<T> => {
    const run = async (conn: Kysely<any>) => {
      const result = await change(conn);
      for (const group of groupsOf(extraRows)) await conn.executeQuery(compiledInsert(conn, dialect, [group]));
      return result;
    };
    return extraRows.length === 0 || db.isTransaction ? run(db) : db.transaction().execute(run);
  };

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
     * The new token rows of a token endpoint response (adapter.ts IssuedTokens) with extra rows (its security
     * event), all or nothing: one statement on PostgreSQL (a data-modifying WITH), one transaction on SQLite (or the
     * caller's). Tokens have fresh random keys: a plain insert.
     */
    async insertTokens(rows: readonly StoredPayload[], extraRows: readonly ExtraRow[] = []): Promise<void> {
      const inserts = [...rows.map((row) => ({ table: "oidcPayload", values: payloadValues(row) })), ...extraRows];
      if (inserts.length === 0) return;
      const groups = groupsOf(inserts);
      if (dialect === "postgres" || groups.length === 1) {
        await db.executeQuery(compiledInsert(db, dialect, groups));
        return;
      }
      const write = async (conn: Kysely<any>) => {
        for (const group of groups) await conn.executeQuery(compiledInsert(conn, dialect, [group]));
      };
      await (db.isTransaction ? write(db) : db.transaction().execute(write));
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

    /** One entity; `extraRows` (a grant's revocation event) are written in the same transaction. */
    async deletePayload(key: string, extraRows: readonly ExtraRow[] = []): Promise<void> {
      await withRows(extraRows, (conn) => conn.deleteFrom("oidcPayload").where("key", "=", key).execute());
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

    /**
     * A grant and everything issued under it, in one statement; answers the rows deleted. `extraRows` (the
     * revocation's security event) are written in the same transaction.
     */
    async deleteGrantAndTokens(grantId: string, extraRows: readonly ExtraRow[] = []): Promise<number> {
      const result = await withRows(extraRows, (conn) =>
        conn
          .deleteFrom("oidcPayload")
          .where((eb) => eb.or([eb("grantId", "=", grantId), eb("key", "=", `Grant:${grantId}`)]))
          .executeTakeFirst(),
      );
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

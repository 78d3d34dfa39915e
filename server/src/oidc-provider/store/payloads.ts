import { CompiledQuery, sql, type ExpressionBuilder, type Kysely, type Selectable } from "kysely";
import type { Dialect } from "../../storage/database.js";
import type { ExtraRow } from "../../storage/extra-rows.js";
import type { User } from "../../storage/models.js";
import { precompiled, runNamed, type Param } from "../../storage/precompiled.js";
import { batchedWriteOf } from "../../storage/sqlite-write-batch.js";
import { jsonInsertClauses, jsonInsertParameters, rowShapes, type RowShape } from "../../storage/pg-row-batch.js";
import { batchOrEach, turnBatcher } from "../../storage/turn-batch.js";
import { dbDate, toDateOrNull } from "../../storage/rows.js";
import { toUserFromJoined, USER_COLUMNS } from "../../storage/users.js";
import type { OidcDatabase, OidcPayloadTable } from "../tables.js";
import type { StoredPayload } from "./models.js";

/** Every column of a payload row, named (a named prepared statement answers no `*`: storage/precompiled.ts). */
const PAYLOAD_COLUMNS = ["key", "model", "payload", "grantId", "uid", "accountId", "clientId", "expiresAt", "consumedAt"] as const;

/** A token's row with its grant's and its user's, read in one statement (findTokenBundle). */
export interface TokenBundle {
  token: StoredPayload;
  /** The token's grant, unless it has none or it is gone or expired. */
  grant: StoredPayload | null;
  /** The user the token acts for, unless it has none or they are gone. */
  user: User | null;
}

/** A joined row's payload columns selected as `{prefix}{column}`, as a stored payload (null when the join found none). */
function toStoredFromJoined(row: Readonly<Record<string, unknown>>, prefix: string): StoredPayload | null {
  if (row[`${prefix}key`] == null) return null;
  const fields: Record<string, unknown> = {};
  for (const column of PAYLOAD_COLUMNS) fields[column] = row[`${prefix}${column}`];
  return toStored(fields as unknown as Selectable<OidcPayloadTable>);
}

// The statements of every token request, built once per dialect and run as named prepared statements on
// PostgreSQL (parsed once per connection): a token request reads its token and writes its response, a userinfo
// request reads its token; on PostgreSQL's pool the reads of one turn of the event loop go as one statement, and
// the writes too (postgresBatchesOf).
type KeyNow = { key: string; now: unknown };
const live = (eb: ExpressionBuilder<any, any>, table: string, now: unknown) =>
  eb.or([eb(`${table}.expiresAt`, "is", null), eb(`${table}.expiresAt`, ">", now)]);

const findOne = precompiled(
  (db: Kysely<OidcDatabase>, v: Param<KeyNow>) =>
    db
      .selectFrom("oidcPayload")
      .select([...PAYLOAD_COLUMNS])
      .where("key", "=", v("key"))
      .where((eb) => live(eb, "oidcPayload", v("now"))),
  { named: true },
);

/**
 * A token (code, access or refresh token) with its grant and its user: what the token endpoint and userinfo read
 * next, in the same statement. The grant must be unexpired as the token must; the user is read as it is (the
 * provider's findAccount decides whether a banned one may act).
 */
const bundleSelect = (db: Kysely<any>, now: unknown) =>
  db
    .selectFrom("oidcPayload as t")
    .leftJoin("oidcPayload as g", (join) =>
      join.on("g.key", "=", sql<string>`${"Grant:"} || ${sql.ref("t.grantId")}`).on((eb) => live(eb, "g", now)),
    )
    .leftJoin("user as u", "u.id", "t.accountId")
    .select(PAYLOAD_COLUMNS.map((c) => `t.${c} as ${c}`))
    .select(PAYLOAD_COLUMNS.map((c) => `g.${c} as g_${c}`))
    .select(USER_COLUMNS.map((c) => `u.${c} as u_${c}`))
    .where((eb) => live(eb, "t", now));

const findBundle = precompiled((db: Kysely<any>, v: Param<KeyNow>) => bundleSelect(db, v("now")).where("t.key", "=", v("key")), {
  named: true,
});

/** The bundles of several tokens in one statement (PostgreSQL's reads of one turn: postgresBatchesOf). */
const findBundles = precompiled(
  (db: Kysely<any>, v: Param<{ keys: string[]; now: unknown }>) =>
    bundleSelect(db, v("now")).where("t.key", "=", sql<string>`any(${v("keys")}::text[])`),
  { named: true },
);

/** Whether a stored payload has expired by `now` (the statements' `live`, for a row read as of an earlier time). */
const expiredBy = (payload: StoredPayload, now: Date) => payload.expiresAt !== null && payload.expiresAt <= now;
/** The same for an `expiresAt` column as read. */
const isPast = (expiresAt: unknown, now: Date) => {
  const at = toDateOrNull(expiresAt as Parameters<typeof toDateOrNull>[0]);
  return at !== null && at <= now;
};

/** A bundle's row as the bundle, as of `now` (null when there is no row or its token has expired by then). */
function toBundle(row: Record<string, unknown> | undefined, now: Date): TokenBundle | null {
  if (!row) return null;
  const token = toStored(row as unknown as Selectable<OidcPayloadTable>);
  if (expiredBy(token, now)) return null;
  const grant = toStoredFromJoined(row, "g_");
  return {
    token,
    grant: grant && !expiredBy(grant, now) ? grant : null,
    user: row.u_id == null ? null : toUserFromJoined(row),
  };
}

type PayloadValues = Record<"key" | "model" | "payload" | "grantId" | "uid" | "accountId" | "clientId" | "expiresAt", unknown>;
const upsertOne = precompiled(
  (db: Kysely<any>, v: Param<PayloadValues>) => {
    const values = {
      key: v("key"),
      model: v("model"),
      payload: v("payload"),
      grantId: v("grantId"),
      uid: v("uid"),
      accountId: v("accountId"),
      clientId: v("clientId"),
      expiresAt: v("expiresAt"),
    };
    const { key: _key, ...changed } = values;
    return db.insertInto("oidcPayload").values(values).onConflict((oc) => oc.column("key").doUpdateSet(changed));
  },
  { named: true },
);

const consumeOne = precompiled(
  (db: Kysely<OidcDatabase>, v: Param<KeyNow>) =>
    db.updateTable("oidcPayload").set({ consumedAt: v("now") as never }).where("key", "=", v("key")).where("consumedAt", "is", null),
  { named: true },
);

/** Marks a code or refresh token used unless it was already: true when this call marked it. */
async function markUsed(db: Kysely<any>, dialect: Dialect, key: string, now: Date): Promise<boolean> {
  const result = await consumeOne(db, dialect, { key, now: dbDate(now) });
  return Number(result.numAffectedRows ?? 0) === 1;
}

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
 * The SQL of a token response's inserts, compiled once per shape (tables, columns and row counts, whether a code or
 * refresh token is consumed with them) and dialect: a response writes one to three rows, and building the query each
 * time would cost more than running it. The values are built as markers and the compiled parameters mapped back to
 * [group, row, column] (group -1: the consumed token's key and time), so the order Kysely puts them in never
 * matters.
 *
 * With `consume` (PostgreSQL only), the statement first marks the token used (a data-modifying WITH, as the
 * inserts) and ends with `1 / (count of tokens it marked)`: when the token was used already, that division fails
 * and the whole statement with it (PostgreSQL runs a statement all or nothing), so nothing is written.
 */
const insertSql = new Map<string, { sql: string; order: [number, number, string][] }>();
const MARK = "\u0000gh-insert:";

/** The SQLSTATE of the division by zero a consuming insert ends with when its token was used already. */
const NOT_CONSUMED = "22012";

function compiledInsert(db: Kysely<any>, dialect: Dialect, groups: readonly InsertGroup[], consume?: ConsumedWith): CompiledQuery {
  const shape = `${dialect}|${consume ? "consume|" : ""}${groups.map((g) => `${g.table}(${g.columns.join(",")})x${g.rows.length}`).join("|")}`;
  let compiled = insertSql.get(shape);
  if (!compiled) {
    const marked = (g: number) =>
      groups[g]!.rows.map((_, r) => Object.fromEntries(groups[g]!.columns.map((c) => [c, `${MARK}${g}:${r}:${c}`])));
    let built: CompiledQuery;
    if (consume) {
      // PostgreSQL: the token marked used, every group inserted, then the check that fails the statement.
      let query: any = db.with("consumed", (q: any) =>
        q
          .updateTable("oidcPayload")
          .set({ consumedAt: `${MARK}-1:0:now` })
          .where("key", "=", `${MARK}-1:0:key`)
          .where("consumedAt", "is", null)
          .returning("key"),
      );
      for (let g = 0; g < groups.length; g++) query = query.with(`w${g}`, (q: Kysely<any>) => q.insertInto(groups[g]!.table).values(marked(g)));
      built = (query as Kysely<any>).selectNoFrom(sql<number>`1 / (select count(*) from ${sql.table("consumed")})`.as("consumed")).compile();
    } else {
      // PostgreSQL: every group but the last a data-modifying WITH clause of the last (one statement, all or nothing).
      let query: any = db;
      for (let g = 0; g < groups.length - 1; g++) query = query.with(`w${g}`, (q: Kysely<any>) => q.insertInto(groups[g]!.table).values(marked(g)));
      const last = groups.length - 1;
      built = (query as Kysely<any>).insertInto(groups[last]!.table).values(marked(last)).compile();
    }
    const order = built.parameters.map((parameter): [number, number, string] => {
      if (typeof parameter !== "string" || !parameter.startsWith(MARK)) throw new Error("compiledInsert: a value was not named");
      const [g, r, ...column] = parameter.slice(MARK.length).split(":");
      return [Number(g), Number(r), column.join(":")];
    });
    compiled = { sql: built.sql, order };
    insertSql.set(shape, compiled);
  }
  const consumeValues: Record<string, unknown> = { key: consume?.key, now: consume ? dbDate(consume.now) : null };
  return CompiledQuery.raw(
    compiled.sql,
    compiled.order.map(([g, r, c]) => (g === -1 ? consumeValues[c] : groups[g]!.rows[r]![c])),
  );
}

/** A code or refresh token to mark used with a token response's rows (insertTokens). */
export interface ConsumedWith {
  key: string;
  now: Date;
}

/** A token response's rows, with the code or refresh token it spends (insertTokens). */
interface TokenWrite {
  inserts: readonly ExtraRow[];
  consume?: ConsumedWith | undefined;
}

/**
 * PostgreSQL: a token response's rows as one statement of their own (compiledInsert): true when written, false when
 * its code or refresh token was marked used by another request first (then nothing was written).
 */
async function insertOnce(db: Kysely<any>, dialect: Dialect, write: TokenWrite): Promise<boolean> {
  try {
    await runNamed(db, compiledInsert(db, dialect, groupsOf(write.inserts), write.consume));
  } catch (error) {
    if (write.consume && (error as { code?: unknown }).code === NOT_CONSUMED) return false;
    throw error;
  }
  return true;
}

/**
 * The SQL of a batch of token responses, per shape (storage/pg-row-batch.ts: the tables and column lists of its
 * rows). $1 is the keys of the codes and refresh tokens spent and $2 the times they are spent at; each further
 * parameter a JSON array of `[spent key or null, row]` for one shape. One statement: the tokens are marked used where
 * no other request marked them, and a row is inserted only when it spends nothing or its key was marked here (so a
 * response whose token was used already writes nothing); it answers the keys it marked.
 */
const batchSql = new Map<string, string>();
function tokenBatchSql(shapeKey: string, shapes: readonly RowShape[]): string {
  let text = batchSql.get(shapeKey);
  if (!text) {
    const inserts = jsonInsertClauses(shapes, 3, `e.v ->> 0 is null or e.v ->> 0 in (select "key" from "consumed")`);
    // The spent tokens are found by their key (`= any`: the primary key's index whatever the planner knows of the
    // table), each marked with its own request's time.
    text =
      `with "consumed" as (update "oidcPayload" as p set "consumedAt" = ($2::timestamptz[])[array_position($1::text[], p."key")] ` +
      `where p."key" = any($1::text[]) and p."consumedAt" is null returning p."key"), ` +
      `${inserts.join(", ")} select "key" from "consumed"`;
    if (batchSql.size >= 64) batchSql.clear();
    batchSql.set(shapeKey, text);
  }
  return text;
}

/**
 * PostgreSQL: the token responses of one turn of the event loop (turnBatcher), in one statement (tokenBatchSql):
 * a database round trip, a commit and a write of each index page for all of them rather than for each (bench/README.md
 * "What moved it"). Each response stays all or nothing and its token is still spent once:
 * - a code or refresh token spent by two responses of the batch is left to the second's own statement, run after
 *   the batch (where it finds the token used, as it would have);
 * - when the batch statement fails as a whole (a unique key taken, the database gone), each response is written
 *   again by its own statement, so only the one that fails is refused.
 */
function writeTokenBatch(db: Kysely<any>, dialect: Dialect, writes: readonly TokenWrite[]): Promise<PromiseSettledResult<boolean>[]> {
  return batchOrEach(writes, {
    keyOf: (write) => write.consume?.key,
    runOne: (write) => insertOnce(db, dialect, write),
    async runBatch(together) {
      const consumed = await runTokenBatch(db, together);
      return together.map((write) => !write.consume || consumed.has(write.consume.key));
    },
  });
}

/** Runs one batch statement (tokenBatchSql): the keys of the codes and refresh tokens it marked used. */
async function runTokenBatch(db: Kysely<any>, writes: readonly TokenWrite[]): Promise<Set<string>> {
  const spending = writes.filter((write) => write.consume);
  const { key, shapes } = rowShapes(writes, (write) => write.inserts, (write) => write.consume?.key ?? null);
  const text = tokenBatchSql(key, shapes);
  const { rows } = await runNamed(
    db,
    CompiledQuery.raw(text, [
      spending.map((write) => write.consume!.key),
      spending.map((write) => dbDate(write.consume!.now)),
      ...jsonInsertParameters(shapes),
    ]),
  );
  return new Set((rows as { key: string }[]).map((row) => row.key));
}

/** PostgreSQL's per-turn batches of a pool (not of a transaction: its statements run in order on its connection). */
interface PostgresBatches {
  readBundle(item: { key: string; now: Date }): Promise<TokenBundle | null>;
  writeTokens(write: TokenWrite): Promise<boolean>;
}
const postgresBatches = new WeakMap<object, PostgresBatches>();

function postgresBatchesOf(db: Kysely<any>, dialect: Dialect): PostgresBatches {
  let batches = postgresBatches.get(db);
  if (!batches) {
    batches = {
      // The token reads of a turn: one statement as of the earliest of their times, each row then checked against
      // its own request's time (toBundle), so each answer is the one its own statement would have given.
      readBundle: turnBatcher(async (items) => {
        let earliest = items[0]!.now;
        for (const item of items) if (item.now < earliest) earliest = item.now;
        const { rows } = await findBundles(db, dialect, { keys: [...new Set(items.map((item) => item.key))], now: dbDate(earliest) });
        const byKey = new Map((rows as Record<string, unknown>[]).map((row) => [row.key as string, row]));
        return items.map((item) => ({ status: "fulfilled" as const, value: toBundle(byKey.get(item.key), item.now) }));
      }),
      writeTokens: turnBatcher((writes) => writeTokenBatch(db, dialect, writes)),
    };
    postgresBatches.set(db, batches);
  }
  return batches;
}

/** What oidc-provider stores (adapter.ts): one row per entity, by `{model}:{id}` (the id hashed for tokens). */
export function oidcPayloadStore(db: Kysely<OidcDatabase>, dialect: Dialect) {
  // The lookups by uid, by user and by user and client below check expiry on the rows their index finds, not in SQL:
  // nearly every row is unexpired, and an `expiresAt > now` beside them led PostgreSQL (its statistics behind a
  // growing table) to intersect with a walk of the expiresAt index over every live token, 4 to 13 ms per
  // authorization at 70,000 rows.
  const selectAll = () => db.selectFrom("oidcPayload").selectAll();

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
      const { rows } = await findOne(db, dialect, { key, now: dbDate(now) });
      return rows[0] ? toStored(rows[0] as Selectable<OidcPayloadTable>) : null;
    },

    /** A token with its grant and user, in one statement (null when the token is unknown or expired). */
    async findTokenBundle(key: string, now: Date): Promise<TokenBundle | null> {
      // PostgreSQL's pool: with the other token reads of this turn of the event loop, in one statement.
      if (dialect === "postgres" && !db.isTransaction) return postgresBatchesOf(db, dialect).readBundle({ key, now });
      const { rows } = await findBundle(db, dialect, { key, now: dbDate(now) });
      return toBundle(rows[0] as Record<string, unknown> | undefined, now);
    },

    async findPayloadByUid(model: string, uid: string, now: Date): Promise<StoredPayload | null> {
      const rows = await selectAll().where("uid", "=", uid).where("model", "=", model).execute();
      const row = rows.map(toStored).find((payload) => !expiredBy(payload, now));
      return row ?? null;
    },

    /** Writes the entity, replacing one stored under the same key (a session or grant saved again). */
    async upsertPayload(row: StoredPayload): Promise<void> {
      await upsertOne(db, dialect, {
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
     *
     * With `consume`, the code or refresh token the response spends is marked used in the same statement or
     * transaction, and only if no other request marked it first: answers false when one did, and then nothing is
     * written (of two requests presenting it at once, one gets its tokens). Answers true when written.
     */
    async insertTokens(rows: readonly StoredPayload[], extraRows: readonly ExtraRow[] = [], consume?: ConsumedWith): Promise<boolean> {
      const inserts = [...rows.map((row) => ({ table: "oidcPayload", values: payloadValues(row) })), ...extraRows];
      if (inserts.length === 0) return consume ? markUsed(db, dialect, consume.key, consume.now) : true;
      // PostgreSQL's pool: with the other token responses of this turn of the event loop, in one statement.
      if (dialect === "postgres" && !db.isTransaction) return postgresBatchesOf(db, dialect).writeTokens({ inserts, consume });
      const groups = groupsOf(inserts);
      const batched = db.isTransaction ? undefined : batchedWriteOf(db);
      if (batched) {
        // SQLite: committed with the other token responses of this turn of the event loop (sqlite-write-batch.ts).
        const consumed = consume && consumeOne.compiled(db, dialect, { key: consume.key, now: dbDate(consume.now) });
        const statements = groups.map((group) => compiledInsert(db, dialect, [group]));
        return batched((run) => {
          if (consumed && run(consumed.sql, consumed.parameters).changes !== 1) return false;
          for (const statement of statements) run(statement.sql, statement.parameters);
          return true;
        });
      }
      const write = async (conn: Kysely<any>) => {
        if (consume && !(await markUsed(conn, dialect, consume.key, consume.now))) return false;
        for (const group of groups) await conn.executeQuery(compiledInsert(conn, dialect, [group]));
        return true;
      };
      return db.isTransaction || (!consume && groups.length === 1) ? write(db) : db.transaction().execute(write);
    },

    /**
     * Marks a code or refresh token used, in one statement: of two requests presenting it at once, only one
     * marks it; the other is told false.
     */
    async consumePayload(key: string, now: Date): Promise<boolean> {
      return markUsed(db, dialect, key, now);
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
      const rows = await selectAll().where("accountId", "=", accountId).where("model", "=", "Grant").execute();
      return rows.map(toStored).filter((payload) => !expiredBy(payload, now));
    },

    /** The grant ids the user holds for a client (usually one). */
    async userClientGrantIds(accountId: string, clientId: string, now: Date): Promise<string[]> {
      const rows = await db
        .selectFrom("oidcPayload")
        .select(["key", "expiresAt"])
        .where("accountId", "=", accountId)
        .where("model", "=", "Grant")
        .where("clientId", "=", clientId)
        .execute();
      return rows.filter((r) => !isPast(r.expiresAt, now)).map((r) => r.key.slice("Grant:".length));
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

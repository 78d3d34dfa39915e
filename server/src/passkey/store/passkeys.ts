import { CompiledQuery, type Kysely, type Selectable } from "kysely";
import type { Dialect } from "../../storage/database.js";
import type { User } from "../../storage/models.js";
import { precompiled, runNamed, type Param } from "../../storage/precompiled.js";
import { dbBool, dbDate, toBool, toDate } from "../../storage/rows.js";
import type { DbDate } from "../../storage/schema.js";
import { toUserFromJoined, USER_COLUMNS } from "../../storage/users.js";
import { batchOrEach, turnBatcher } from "../../storage/turn-batch.js";
import { PASSKEY_TABLE_SPECS, type PasskeyDatabase, type PasskeyTable } from "../tables.js";
import type { Passkey } from "./models.js";

function toPasskey(row: Selectable<PasskeyTable>): Passkey {
  return {
    id: row.id,
    name: row.name ?? null,
    publicKey: row.publicKey,
    userId: row.userId,
    credentialID: row.credentialID,
    counter: Number(row.counter),
    deviceType: row.deviceType,
    backedUp: toBool(row.backedUp),
    transports: row.transports ?? null,
    createdAt: toDate(row.createdAt),
    aaguid: row.aaguid ?? null,
    userHandle: row.userHandle ?? null,
    registeredBySession: row.registeredBySession ?? null,
  };
}

/** A sign-in's read, compiled once (storage/precompiled.ts): the passkey and its user. */
const readPasskeyAndUser = precompiled((db: Kysely<PasskeyDatabase>, param: Param<{ credentialID: string }>) =>
  db
    .selectFrom("passkey as p")
    .leftJoin("user as u", "u.id", "p.userId")
    .selectAll("p")
    .select(USER_COLUMNS.map((column) => `u.${column} as u_${column}` as const))
    .where("p.credentialID", "=", param("credentialID")),
);

/** Takes (deletes and answers) a stored challenge: the verification row under its identifier. */
const takeVerification = precompiled((db: Kysely<PasskeyDatabase>, param: Param<{ identifier: string }>) =>
  db.deleteFrom("verification").where("identifier", "=", param("identifier")).returning(["value", "expiresAt"]),
);

/** The passkey table's columns, named (a named prepared statement answers no `*`: storage/precompiled.ts). */
const PASSKEY_COLUMNS = Object.keys(PASSKEY_TABLE_SPECS.passkey.columns);

/**
 * PostgreSQL: the challenges of several passkey sign-ins taken (their rows deleted, in a WITH) and each one's
 * passkey with its user read, in one statement: $1 the challenges' identifiers, $2 the credential ids, one row per
 * pair in their order (`n`; `v_value` null: no challenge; `id` null: no passkey). The identifiers must differ: a
 * row deleted once is answered once.
 */
const TAKE_CHALLENGES_READ_PASSKEYS =
  `with "taken" as (delete from "verification" where "identifier" = any($1::text[]) returning "identifier", "value", "expiresAt") ` +
  `select r."n", t."value" as "v_value", t."expiresAt" as "v_expiresAt", ` +
  `${PASSKEY_COLUMNS.map((c) => `p."${c}"`).join(", ")}, ${USER_COLUMNS.map((c) => `u."${c}" as "u_${c}"`).join(", ")} ` +
  `from unnest($1::text[], $2::text[]) with ordinality as r("identifier", "credentialID", "n") ` +
  `left join "taken" as t on t."identifier" = r."identifier" ` +
  `left join "passkey" as p on p."credentialID" = r."credentialID" ` +
  `left join "user" as u on u."id" = p."userId" order by r."n"`;

type ChallengeAndPasskey = { challenge: { value: string; expiresAt: unknown } | null; row: Record<string, unknown> | null };

/** Runs TAKE_CHALLENGES_READ_PASSKEYS for pairs whose identifiers differ: each pair's challenge row and passkey row. */
async function takeChallengesReadPasskeys(
  db: Kysely<any>,
  pairs: readonly { identifier: string; credentialID: string }[],
): Promise<ChallengeAndPasskey[]> {
  const { rows } = await runNamed(
    db,
    CompiledQuery.raw(TAKE_CHALLENGES_READ_PASSKEYS, [pairs.map((p) => p.identifier), pairs.map((p) => p.credentialID)]),
  );
  // Each pair's row by its number (the first, should rows under one identifier ever be several).
  const byNumber = new Map<number, Record<string, unknown>>();
  for (const row of rows as Record<string, unknown>[]) if (!byNumber.has(Number(row.n))) byNumber.set(Number(row.n), row);
  return pairs.map((_, i) => {
    const row = byNumber.get(i + 1) ?? {};
    return {
      challenge: typeof row.v_value === "string" ? { value: row.v_value, expiresAt: row.v_expiresAt } : null,
      row: row.id === null || row.id === undefined ? null : row,
    };
  });
}

/**
 * PostgreSQL, a pool: the passkey sign-ins of one turn of the event loop take their challenges and read their
 * passkeys in one statement (storage/turn-batch.ts batchOrEach). A challenge presented twice in one turn is taken by the first
 * alone; each repeat runs after the batch, in a statement of its own, and finds it gone, as it would have. When the
 * batch statement fails, each sign-in runs its own, so only one at fault fails.
 */
const signInReads = new WeakMap<object, (pair: { identifier: string; credentialID: string }) => Promise<ChallengeAndPasskey>>();
function postgresSignInReadsOf(db: Kysely<any>) {
  let reads = signInReads.get(db);
  if (!reads) {
    reads = turnBatcher((pairs) =>
      batchOrEach(pairs, {
        keyOf: (pair) => pair.identifier,
        runBatch: (together) => takeChallengesReadPasskeys(db, together),
        runOne: async (pair) => (await takeChallengesReadPasskeys(db, [pair]))[0]!,
      }),
    );
    signInReads.set(db, reads);
  }
  return reads;
}

/** A passkey and its user (null if the user is gone), from a row of either read above. */
function passkeyAndUserOf(row: Record<string, unknown>): { passkey: Passkey; user: User | null } | null {
  if (row.id === null || row.id === undefined) return null;
  return {
    passkey: toPasskey(row as unknown as Selectable<PasskeyTable>),
    user: row.u_id === null || row.u_id === undefined ? null : toUserFromJoined(row),
  };
}

export function passkeyStore(db: Kysely<PasskeyDatabase>, dialect: Dialect) {
  return {
    /** Inserts a registered passkey; a credential id registered already fails on the unique index. */
    async createPasskey(passkey: Passkey): Promise<Passkey> {
      await db
        .insertInto("passkey")
        .values({ ...passkey, backedUp: dbBool(passkey.backedUp), createdAt: dbDate(passkey.createdAt) })
        .execute();
      return passkey;
    },

    /** The user's passkeys, oldest first. */
    async listUserPasskeys(userId: string): Promise<Passkey[]> {
      const rows = await db
        .selectFrom("passkey")
        .selectAll()
        .where("userId", "=", userId)
        .orderBy("createdAt")
        .orderBy("id")
        .execute();
      return rows.map(toPasskey);
    },

    async findPasskeyByCredentialID(credentialID: string): Promise<Passkey | null> {
      const row = await db.selectFrom("passkey").selectAll().where("credentialID", "=", credentialID).executeTakeFirst();
      return row ? toPasskey(row) : null;
    },

    /**
     * A passkey sign-in's reads: the stored challenge taken (deleted, so of concurrent uses exactly one gets it;
     * answered only while unexpired) and the passkey of this credential id with its user. One statement on
     * PostgreSQL's pool, shared with the other sign-ins of this turn of the event loop (postgresSignInReadsOf); two
     * on SQLite; the challenge is taken whatever the passkey read finds.
     */
    async takeChallengeAndFindPasskey(
      identifier: string,
      credentialID: string,
      now: Date,
    ): Promise<{ challenge: { value: string } | null; found: { passkey: Passkey; user: User | null } | null }> {
      const live = (value: unknown, expiresAt: unknown) =>
        typeof value === "string" && toDate(expiresAt as DbDate) > now ? { value } : null;
      if (dialect === "postgres" && !db.isTransaction) {
        const { challenge, row } = await postgresSignInReadsOf(db)({ identifier, credentialID });
        return { challenge: challenge && live(challenge.value, challenge.expiresAt), found: row && passkeyAndUserOf(row) };
      }
      const taken = (await takeVerification(db, dialect, { identifier })).rows[0];
      const row = (await readPasskeyAndUser(db, dialect, { credentialID })).rows[0];
      return { challenge: taken ? live(taken.value, taken.expiresAt) : null, found: row ? passkeyAndUserOf(row) : null };
    },

    /** The passkey with this id, only when it is the user's. */
    async findUserPasskey(userId: string, id: string): Promise<Passkey | null> {
      const row = await db
        .selectFrom("passkey")
        .selectAll()
        .where("id", "=", id)
        .where("userId", "=", userId)
        .executeTakeFirst();
      return row ? toPasskey(row) : null;
    },

    /** Renames the user's passkey; null when the user has no passkey of that id. */
    async renameUserPasskey(userId: string, id: string, name: string): Promise<Passkey | null> {
      const row = await db
        .updateTable("passkey")
        .set({ name })
        .where("id", "=", id)
        .where("userId", "=", userId)
        .returningAll()
        .executeTakeFirst();
      return row ? toPasskey(row) : null;
    },

    /** Deletes the user's passkey; false when the user has no passkey of that id (any more). */
    async deleteUserPasskey(userId: string, id: string): Promise<boolean> {
      const result = await db.deleteFrom("passkey").where("id", "=", id).where("userId", "=", userId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    /** Every passkey of the user, and their user handle (the next passkey gets a new one); answers the passkeys deleted. */
    async deleteUserPasskeys(userId: string): Promise<number> {
      const result = await db.deleteFrom("passkey").where("userId", "=", userId).executeTakeFirst();
      await db.deleteFrom("passkeyUserHandle").where("userId", "=", userId).execute();
      return Number(result.numDeletedRows);
    },

    /**
     * Moves the signature counter from the value the assertion was checked against to the new one, in one statement:
     * of two sign-ins checked against the same stored counter, only the first moves it, and the other is refused.
     */
    async advanceCounter(id: string, checkedAgainst: number, next: number): Promise<boolean> {
      const result = await db
        .updateTable("passkey")
        .set({ counter: next })
        .where("id", "=", id)
        .where("counter", "=", checkedAgainst)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * The user's WebAuthn user handle, made (from `candidate`) the first time it is asked for: an insert that does
     * nothing when the user has one already, then a read, so two concurrent first registrations agree on one.
     */
    async userHandleOf(userId: string, candidate: string, now: Date): Promise<string> {
      await db
        .insertInto("passkeyUserHandle")
        .values({ userId, userHandle: candidate, createdAt: dbDate(now) })
        .onConflict((oc) => oc.column("userId").doNothing())
        .execute();
      const row = await db
        .selectFrom("passkeyUserHandle")
        .select("userHandle")
        .where("userId", "=", userId)
        .executeTakeFirstOrThrow();
      return row.userHandle;
    },
  };
}

export type PasskeyStore = ReturnType<typeof passkeyStore>;

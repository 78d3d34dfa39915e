import { sql, type Kysely, type Selectable } from "kysely";
import type { Dialect } from "../../storage/database.js";
import type { User } from "../../storage/models.js";
import { precompiled, type Param } from "../../storage/precompiled.js";
import { dbBool, dbDate, toBool, toDate } from "../../storage/rows.js";
import type { DbDate } from "../../storage/schema.js";
import { toUserFromJoined, USER_COLUMNS } from "../../storage/users.js";
import type { PasskeyDatabase, PasskeyTable } from "../tables.js";
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

/**
 * PostgreSQL: the challenge taken (its row deleted, in a WITH) and the passkey with its user read, in one
 * statement; one row whatever is found (`v_value` null: no challenge; `id` null: no passkey).
 */
const takeChallengeReadPasskey = precompiled(
  (db: Kysely<PasskeyDatabase>, param: Param<{ identifier: string; credentialID: string }>) =>
    db
      .with("taken", (conn) =>
        conn.deleteFrom("verification").where("identifier", "=", param("identifier")).returning(["value", "expiresAt"]),
      )
      .selectFrom(sql<{ one: number }>`(select 1 as one)`.as("one"))
      .leftJoin("taken as t", (join) => join.onTrue())
      .leftJoin("passkey as p", (join) => join.on("p.credentialID", "=", param("credentialID")))
      .leftJoin("user as u", "u.id", "p.userId")
      .select(["t.value as v_value", "t.expiresAt as v_expiresAt"])
      .selectAll("p")
      .select(USER_COLUMNS.map((column) => `u.${column} as u_${column}` as const)),
);

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
     * PostgreSQL, two on SQLite; the challenge is taken whatever the passkey read finds.
     */
    async takeChallengeAndFindPasskey(
      identifier: string,
      credentialID: string,
      now: Date,
    ): Promise<{ challenge: { value: string } | null; found: { passkey: Passkey; user: User | null } | null }> {
      const live = (value: unknown, expiresAt: unknown) =>
        typeof value === "string" && toDate(expiresAt as DbDate) > now ? { value } : null;
      if (dialect === "postgres") {
        const row = (await takeChallengeReadPasskey(db, dialect, { identifier, credentialID })).rows[0]!;
        return { challenge: live(row.v_value, row.v_expiresAt), found: passkeyAndUserOf(row) };
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

import type { Kysely } from "kysely";
import { generateId } from "../../crypto/random.js";
import { dbDate, toDate } from "../../storage/rows.js";
import type { PasswordlessDatabase } from "../tables.js";

/** A code's row as a try sees it: which row, its hash, the tries made with this one counted. */
export interface CountedTry {
  id: string;
  codeHash: string;
  attempts: number;
}

/** Why a try was not counted: no code, its life is over, or its tries are used up. */
export type Uncounted = "absent" | "expired" | "exhausted";

/**
 * The mailed one-time codes (tables.ts). Every change that decides a race is one statement: a try is counted by an
 * UPDATE that also checks the code is alive and has tries left, and the right code is consumed by a DELETE that
 * names the row and its hash, so of twenty concurrent redemptions exactly one gets it.
 */
export function emailOtpStore(db: Kysely<PasswordlessDatabase>) {
  return {
    /**
     * Stores a new code for `identifier`, replacing the one it had (its tries start again), in one statement; rows
     * whose life is over are removed first.
     */
    async issue(identifier: string, codeHash: string, expiresAt: Date, now: Date): Promise<void> {
      await db.deleteFrom("emailOtp").where("expiresAt", "<=", dbDate(now)).execute();
      await db
        .insertInto("emailOtp")
        .values({
          id: generateId(),
          identifier,
          codeHash,
          attempts: 0,
          expiresAt: dbDate(expiresAt),
          createdAt: dbDate(now),
        })
        .onConflict((oc) =>
          oc.column("identifier").doUpdateSet({
            codeHash,
            attempts: 0,
            expiresAt: dbDate(expiresAt),
            createdAt: dbDate(now),
          }),
        )
        .execute();
    },

    /**
     * Counts one try against the live code of `identifier` and answers its row, or why no try was counted. The try
     * is counted before the code is compared, so guesses sent all at once are counted all the same.
     */
    async countTry(identifier: string, allowedAttempts: number, now: Date): Promise<CountedTry | Uncounted> {
      const counted = await db
        .updateTable("emailOtp")
        .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
        .where("identifier", "=", identifier)
        .where("attempts", "<", allowedAttempts)
        .where("expiresAt", ">", dbDate(now))
        .returning(["id", "codeHash", "attempts"])
        .executeTakeFirst();
      if (counted) return { id: counted.id, codeHash: counted.codeHash, attempts: Number(counted.attempts) };
      const row = await db
        .selectFrom("emailOtp")
        .select(["id", "attempts", "expiresAt"])
        .where("identifier", "=", identifier)
        .executeTakeFirst();
      if (!row) return "absent";
      if (toDate(row.expiresAt) <= now) {
        await db.deleteFrom("emailOtp").where("id", "=", row.id).execute();
        return "expired";
      }
      return "exhausted";
    },

    /** Consumes the code a counted try matched: true for exactly one caller, while it is still that code. */
    async consume(id: string, codeHash: string): Promise<boolean> {
      const rows = await db.deleteFrom("emailOtp").where("id", "=", id).where("codeHash", "=", codeHash).returning("id").execute();
      return rows.length > 0;
    },

    /** Gives back the try a right code used (a check that does not consume it), while it is still that code. */
    async giveBackTry(id: string, codeHash: string): Promise<void> {
      await db
        .updateTable("emailOtp")
        .set((eb) => ({ attempts: eb("attempts", "-", 1) }))
        .where("id", "=", id)
        .where("codeHash", "=", codeHash)
        .where("attempts", ">", 0)
        .execute();
    },

    /** Removes the code of `identifier` (a mail that could not be sent). */
    async remove(identifier: string, codeHash: string): Promise<void> {
      await db.deleteFrom("emailOtp").where("identifier", "=", identifier).where("codeHash", "=", codeHash).execute();
    },

    /** Removes the codes of these identifiers, whatever they are (an address proven: its other codes go). */
    async removeAll(identifiers: readonly string[]): Promise<void> {
      if (identifiers.length === 0) return;
      await db.deleteFrom("emailOtp").where("identifier", "in", identifiers).execute();
    },
  };
}

export type EmailOtpStore = ReturnType<typeof emailOtpStore>;

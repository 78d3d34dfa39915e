import type { Kysely, Selectable } from "kysely";
import type { Dialect } from "./database.js";
import type { Verification } from "./models.js";
import { postgresRowWriter } from "./pg-row-batch.js";
import { dbDate, toDate } from "./rows.js";
import type { Database, VerificationTable } from "./schema.js";

export function toVerification(row: Selectable<VerificationTable>): Verification {
  return {
    id: row.id,
    identifier: row.identifier,
    value: row.value,
    expiresAt: toDate(row.expiresAt),
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
  };
}

export function verificationStore(db: Kysely<Database>, dialect: Dialect) {
  return {
    async createVerification(value: Verification): Promise<Verification> {
      const row = {
        ...value,
        expiresAt: dbDate(value.expiresAt),
        createdAt: dbDate(value.createdAt),
        updatedAt: dbDate(value.updatedAt),
      };
      // PostgreSQL's pool: with the other rows written in this turn of the event loop (a passkey ceremony's
      // challenges, the sessions of sign-ins), in one statement.
      if (dialect === "postgres" && !db.isTransaction) await postgresRowWriter(db)([{ table: "verification", values: row }]);
      else await db.insertInto("verification").values(row).execute();
      return value;
    },

    async findVerification(identifier: string): Promise<Verification | null> {
      const row = await db
        .selectFrom("verification")
        .selectAll()
        .where("identifier", "=", identifier)
        .orderBy("createdAt", "desc")
        .executeTakeFirst();
      return row ? toVerification(row) : null;
    },

    /**
     * Deletes and returns the unexpired value stored under `identifier` in one statement, so that of two
     * concurrent uses of a single-use token exactly one gets it back.
     */
    async consumeVerification(identifier: string, now: Date): Promise<Verification | null> {
      const rows = await db
        .deleteFrom("verification")
        .where("identifier", "=", identifier)
        .returningAll()
        .execute();
      const live = rows.map(toVerification).filter((v) => v.expiresAt > now);
      return live[0] ?? null;
    },

    /**
     * Deletes every value of one kind (identifiers starting with `prefix`, a constant without LIKE wildcards)
     * stored for a user (`value` = their id): all their reset tokens once one is used or the password changes,
     * all their verification links once the address is proven.
     */
    async deleteUserVerifications(prefix: string, userId: string): Promise<number> {
      const result = await db
        .deleteFrom("verification")
        .where("identifier", "like", `${prefix}%`)
        .where("value", "=", userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async deleteExpiredVerifications(now: Date): Promise<number> {
      const result = await db.deleteFrom("verification").where("expiresAt", "<=", dbDate(now)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type VerificationStore = ReturnType<typeof verificationStore>;

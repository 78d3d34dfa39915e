import type { Kysely, Selectable } from "kysely";
import type { Account } from "./models.js";
import { dbDate, toDate, toDateOrNull } from "./rows.js";
import type { AccountTable, Database } from "./schema.js";

export function toAccount(row: Selectable<AccountTable>): Account {
  return {
    id: row.id,
    accountId: row.accountId,
    providerId: row.providerId,
    userId: row.userId,
    accessToken: row.accessToken ?? null,
    refreshToken: row.refreshToken ?? null,
    idToken: row.idToken ?? null,
    accessTokenExpiresAt: toDateOrNull(row.accessTokenExpiresAt),
    refreshTokenExpiresAt: toDateOrNull(row.refreshTokenExpiresAt),
    scope: row.scope ?? null,
    password: row.password ?? null,
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
  };
}

const dateOrNull = (date: Date | null | undefined) => (date ? dbDate(date) : null);

/** An account as a row of the account table. */
export function toAccountRow(account: Account) {
  return {
    ...account,
    accessTokenExpiresAt: dateOrNull(account.accessTokenExpiresAt),
    refreshTokenExpiresAt: dateOrNull(account.refreshTokenExpiresAt),
    createdAt: dbDate(account.createdAt),
    updatedAt: dbDate(account.updatedAt),
  };
}

/** What a provider hands out for an account, as stored (possibly encrypted by the caller). */
export type AccountTokens = Pick<
  Account,
  "accessToken" | "refreshToken" | "idToken" | "accessTokenExpiresAt" | "refreshTokenExpiresAt" | "scope"
>;

export function accountStore(db: Kysely<Database>) {
  return {
    async createAccount(account: Account): Promise<Account> {
      await db.insertInto("account").values(toAccountRow(account)).execute();
      return account;
    },

    async findCredentialAccount(userId: string): Promise<Account | null> {
      const row = await db
        .selectFrom("account")
        .selectAll()
        .where("userId", "=", userId)
        .where("providerId", "=", "credential")
        .executeTakeFirst();
      return row ? toAccount(row) : null;
    },

    async listUserAccounts(userId: string): Promise<Account[]> {
      const rows = await db.selectFrom("account").selectAll().where("userId", "=", userId).orderBy("createdAt").execute();
      return rows.map(toAccount);
    },

    async deleteUserAccounts(userId: string): Promise<void> {
      await db.deleteFrom("account").where("userId", "=", userId).execute();
    },

    async updateAccountPassword(accountId: string, password: string, now: Date): Promise<void> {
      await db.updateTable("account").set({ password, updatedAt: dbDate(now) }).where("id", "=", accountId).execute();
    },

    /**
     * Replaces the user's password hash only while it is still `expected` (the one just verified), in one statement:
     * a password changed or reset meanwhile is not overwritten. Returns whether it replaced it.
     */
    async replaceCredentialPassword(userId: string, expected: string, password: string, now: Date): Promise<boolean> {
      const result = await db
        .updateTable("account")
        .set({ password, updatedAt: dbDate(now) })
        .where("userId", "=", userId)
        .where("providerId", "=", "credential")
        .where("password", "=", expected)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Removes a password (the account stays, so a reset can set a new one on it). */
    async clearAccountPassword(accountId: string, now: Date): Promise<void> {
      await db.updateTable("account").set({ password: null, updatedAt: dbDate(now) }).where("id", "=", accountId).execute();
    },

    /** The account a provider knows by `accountId` (served by the providerId+accountId index). */
    async findAccountByProvider(providerId: string, accountId: string): Promise<Account | null> {
      const row = await db
        .selectFrom("account")
        .selectAll()
        .where("providerId", "=", providerId)
        .where("accountId", "=", accountId)
        .orderBy("createdAt")
        .executeTakeFirst();
      return row ? toAccount(row) : null;
    },

    /** Replaces an account's provider tokens (a refresh token of null keeps none: pass the old one to keep it). */
    async updateAccountTokens(id: string, tokens: AccountTokens, now: Date): Promise<void> {
      await db
        .updateTable("account")
        .set({
          accessToken: tokens.accessToken,
          refreshToken: tokens.refreshToken,
          idToken: tokens.idToken,
          accessTokenExpiresAt: dateOrNull(tokens.accessTokenExpiresAt),
          refreshTokenExpiresAt: dateOrNull(tokens.refreshTokenExpiresAt),
          scope: tokens.scope,
          updatedAt: dbDate(now),
        })
        .where("id", "=", id)
        .execute();
    },

    /**
     * Deletes one of the user's accounts. With `keepLast`, only while the user has another account, checked in the
     * same statement. Returns whether a row was deleted.
     */
    async deleteUserAccount(userId: string, id: string, opts: { keepLast: boolean }): Promise<boolean> {
      let query = db.deleteFrom("account").where("id", "=", id).where("userId", "=", userId);
      if (opts.keepLast) {
        query = query.where((eb) =>
          eb.exists(
            eb
              .selectFrom("account as other")
              .select("other.id")
              .where("other.userId", "=", userId)
              .where("other.id", "!=", id),
          ),
        );
      }
      const result = await query.executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type AccountStore = ReturnType<typeof accountStore>;

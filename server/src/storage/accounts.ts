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

export function accountStore(db: Kysely<Database>) {
  return {
    async createAccount(account: Account): Promise<Account> {
      await db
        .insertInto("account")
        .values({
          ...account,
          accessTokenExpiresAt: dateOrNull(account.accessTokenExpiresAt),
          refreshTokenExpiresAt: dateOrNull(account.refreshTokenExpiresAt),
          createdAt: dbDate(account.createdAt),
          updatedAt: dbDate(account.updatedAt),
        })
        .execute();
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
  };
}

export type AccountStore = ReturnType<typeof accountStore>;

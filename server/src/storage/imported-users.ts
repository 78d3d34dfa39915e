import type { Kysely } from "kysely";
import { toAccountRow } from "./accounts.js";
import type { Account } from "./models.js";
import type { Database } from "./schema.js";
import { toUserRow, type NewUser } from "./users.js";

/** A user of an import and the accounts that come with them (their password's, their provider links). */
export interface ImportedUser {
  user: NewUser;
  accounts: Account[];
}

/** Which of an import batch's addresses, usernames and provider identities the database already holds. */
export interface TakenIdentities {
  emails: Set<string>;
  usernames: Set<string>;
  /** `providerId` NUL `accountId`. */
  providerAccounts: Set<string>;
}

export const providerAccountKey = (providerId: string, accountId: string): string => `${providerId}\u0000${accountId}`;

/** Rows per statement: under PostgreSQL's 65,535 bound parameters and SQLite's 32,766 with 14 columns a row. */
const CHUNK = 1000;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * Looks up a batch's identities in one statement per kind and chunk (the email and username indexes, and the
 * (providerId, accountId) index one provider at a time, so that it is used on its leading column).
 */
export async function findTakenIdentities(
  db: Kysely<Database>,
  wanted: { emails: string[]; usernames: string[]; providerAccounts: { providerId: string; accountId: string }[] },
): Promise<TakenIdentities> {
  const taken: TakenIdentities = { emails: new Set(), usernames: new Set(), providerAccounts: new Set() };
  for (const part of chunks(wanted.emails)) {
    const rows = await db.selectFrom("user").select("email").where("email", "in", part).execute();
    for (const row of rows) taken.emails.add(row.email);
  }
  for (const part of chunks(wanted.usernames)) {
    const rows = await db.selectFrom("user").select("username").where("username", "in", part).execute();
    for (const row of rows) if (row.username) taken.usernames.add(row.username);
  }
  const byProvider = new Map<string, string[]>();
  for (const { providerId, accountId } of wanted.providerAccounts) {
    const list = byProvider.get(providerId) ?? [];
    list.push(accountId);
    byProvider.set(providerId, list);
  }
  for (const [providerId, accountIds] of byProvider) {
    for (const part of chunks(accountIds)) {
      const rows = await db
        .selectFrom("account")
        .select("accountId")
        .where("providerId", "=", providerId)
        .where("accountId", "in", part)
        .execute();
      for (const row of rows) taken.providerAccounts.add(providerAccountKey(providerId, row.accountId));
    }
  }
  return taken;
}

/**
 * Writes a batch of users with their accounts, many rows to a statement; run it inside a transaction (the caller's),
 * so that a failure leaves none of the batch. A user whose email or username was taken since it was looked up (a
 * sign-up racing the import) is not written (ON CONFLICT DO NOTHING), nor are their accounts: answers the ids of the
 * users written. A provider identity taken meanwhile fails the statement with the unique violation.
 */
export async function insertImportedUsers(db: Kysely<Database>, batch: readonly ImportedUser[]): Promise<Set<string>> {
  const written = new Set<string>();
  for (const part of chunks(batch)) {
    const rows = await db
      .insertInto("user")
      .values(part.map((entry) => toUserRow(entry.user)))
      .onConflict((oc) => oc.doNothing())
      .returning("id")
      .execute();
    for (const row of rows) written.add(row.id);
  }
  const accounts = batch.flatMap((entry) => (written.has(entry.user.id) ? entry.accounts : []));
  for (const part of chunks(accounts)) {
    await db.insertInto("account").values(part.map(toAccountRow)).execute();
  }
  return written;
}

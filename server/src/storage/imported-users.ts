import { sql, type Kysely } from "kysely";
import { toAccountRow } from "./accounts.js";
import type { Dialect } from "./database.js";
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
 * Inside an import batch's transaction on PostgreSQL: plans the batch's lookups (`email in (…)`, `username in (…)`)
 * on the B-tree unique indexes. Otherwise the planner may take the trigram GIN indexes of the administrators'
 * search (migration 0006), which also answer equality: with a few hundred values, on a table that grows faster
 * than its statistics during an import, one such lookup took 0.8 s where the B-tree answers in milliseconds
 * (bench/, part import). Only this transaction is affected.
 */
export async function planImportLookups(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  if (dialect === "postgres") await sql`set local enable_bitmapscan = off`.execute(db);
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
 * Writes a batch of users with their accounts; run it inside a transaction (the caller's), so that a failure leaves
 * none of the batch. A user whose email or username was taken since it was looked up (a sign-up racing the import)
 * is not written (ON CONFLICT DO NOTHING), nor are their accounts: answers the ids of the users written. A provider
 * identity taken meanwhile fails the statement with the unique violation.
 *
 * PostgreSQL gets one statement per table, every column as one array parameter (`INSERT … SELECT FROM unnest(…)`):
 * a thousand rows as 14 parameters instead of 14,000, which the driver, the query builder and the server's parser
 * each handle faster. SQLite, in the process, takes plain multi-row inserts.
 */
export async function insertImportedUsers(db: Kysely<Database>, dialect: Dialect, batch: readonly ImportedUser[]): Promise<Set<string>> {
  const written = new Set<string>();
  const userRows = batch.map((entry) => toUserRow(entry.user));
  if (dialect === "postgres") {
    const { rows } = await sql<{ id: string }>`insert into "user" ${columnsFromArrays(USER_COLUMNS, userRows)}
      on conflict do nothing returning id`.execute(db);
    for (const row of rows) written.add(row.id);
  } else {
    for (const part of chunks(userRows)) {
      const rows = await db.insertInto("user").values(part).onConflict((oc) => oc.doNothing()).returning("id").execute();
      for (const row of rows) written.add(row.id);
    }
  }
  const accountRows = batch.flatMap((entry) => (written.has(entry.user.id) ? entry.accounts.map(toAccountRow) : []));
  if (!accountRows.length) return written;
  if (dialect === "postgres") {
    await sql`insert into "account" ${columnsFromArrays(ACCOUNT_COLUMNS, accountRows)}`.execute(db);
  } else {
    for (const part of chunks(accountRows)) await db.insertInto("account").values(part).execute();
  }
  return written;
}

/** Each column of the user and account tables with its PostgreSQL type, for the unnest(…) inserts. */
const USER_COLUMNS = {
  id: "text",
  name: "text",
  email: "text",
  emailVerified: "boolean",
  image: "text",
  createdAt: "timestamptz",
  updatedAt: "timestamptz",
  username: "text",
  displayUsername: "text",
  role: "text",
  banned: "boolean",
  banReason: "text",
  banExpires: "timestamptz",
  lang: "text",
} as const;

const ACCOUNT_COLUMNS = {
  id: "text",
  accountId: "text",
  providerId: "text",
  userId: "text",
  accessToken: "text",
  refreshToken: "text",
  idToken: "text",
  accessTokenExpiresAt: "timestamptz",
  refreshTokenExpiresAt: "timestamptz",
  scope: "text",
  password: "text",
  createdAt: "timestamptz",
  updatedAt: "timestamptz",
} as const;

/** `("a", "b") select * from unnest($1::text[], $2::boolean[])`: the rows' values column by column. */
function columnsFromArrays<R extends object>(columns: Record<keyof R & string, string>, rows: readonly R[]) {
  const names = Object.keys(columns) as (keyof R & string)[];
  const arrays = names.map((name) => sql`${rows.map((row) => row[name] ?? null)}::${sql.raw(columns[name])}[]`);
  return sql`(${sql.join(names.map((name) => sql.id(name)))}) select * from unnest(${sql.join(arrays)})`;
}

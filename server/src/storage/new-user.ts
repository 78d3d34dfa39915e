import type { Kysely } from "kysely";
import { accountStore, toAccountRow } from "./accounts.js";
import type { Dialect } from "./database.js";
import type { Account, Session } from "./models.js";
import type { Database } from "./schema.js";
import { sessionStore, toSessionRow } from "./sessions.js";
import { toUserRow, userStore, type NewUser } from "./users.js";
import { insertAsOneStatement, insertRows, type ExtraRow } from "./extra-rows.js";

export type { ExtraRow } from "./extra-rows.js";

/** A new user and the records that come with them at sign-up: their password's account, their first session. */
export interface NewUserRecords {
  user: NewUser;
  account?: Account | null | undefined;
  session?: Session | null | undefined;
  /** Written with them, all or nothing (the events of the sign-up). */
  extraRows?: readonly ExtraRow[] | undefined;
}

/**
 * Writes a new user with their account, session and extra rows, all or nothing. On PostgreSQL it is one statement
 * (the user, the account and the extra rows as data-modifying WITH clauses of the last insert): atomic like a
 * transaction, without BEGIN and COMMIT each costing a round trip, and the constraint checks (a unique email or
 * username, the foreign keys) run at its end as in any statement. SQLite, in the process, takes a transaction (or
 * joins the caller's).
 * A unique violation comes out as the driver's error, for the caller to word.
 */
export async function insertNewUser(db: Kysely<Database>, dialect: Dialect, records: NewUserRecords): Promise<void> {
  const { user, account, session, extraRows = [] } = records;
  if (dialect === "postgres" && (account || session || extraRows.length)) {
    const inserts: ExtraRow[] = [
      { table: "user", values: toUserRow(user) },
      ...(account ? [{ table: "account", values: toAccountRow(account) }] : []),
      ...extraRows,
      ...(session ? [{ table: "session", values: toSessionRow(session) }] : []),
    ];
    await insertAsOneStatement(db, inserts);
    return;
  }
  const write = async (conn: Kysely<Database>) => {
    await userStore(conn, dialect).createUser(user);
    if (account) await accountStore(conn).createAccount(account);
    if (session) await sessionStore(conn, dialect).createSession(session);
    await insertRows(conn, extraRows);
  };
  await (db.isTransaction ? write(db) : db.transaction().execute(write));
}

import type { Kysely } from "kysely";
import { accountStore, toAccountRow } from "./accounts.js";
import type { Dialect } from "./database.js";
import type { Account, Session } from "./models.js";
import type { Database } from "./schema.js";
import { sessionStore, toSessionRow } from "./sessions.js";
import { toUserRow, userStore, type NewUser } from "./users.js";

/** A new user and the records that come with them at sign-up: their password's account, their first session. */
export interface NewUserRecords {
  user: NewUser;
  account?: Account | null | undefined;
  session?: Session | null | undefined;
}

/**
 * Writes a new user with their account and session, all or nothing. On PostgreSQL it is one statement (the
 * user and the account as data-modifying WITH clauses of the session's insert): atomic like a transaction,
 * without BEGIN and COMMIT each costing a round trip, and the constraint checks (a unique email or username,
 * the foreign keys) run at its end as in any statement. SQLite, in the process, takes a transaction (or joins the
 * caller's).
 * A unique violation comes out as the driver's error, for the caller to word.
 */
export async function insertNewUser(db: Kysely<Database>, dialect: Dialect, records: NewUserRecords): Promise<void> {
  const { user, account, session } = records;
  if (dialect === "postgres" && (account || session)) {
    const withUser = db.with("new_user", (q) => q.insertInto("user").values(toUserRow(user)));
    if (account && session) {
      await withUser
        .with("new_account", (q) => q.insertInto("account").values(toAccountRow(account)))
        .insertInto("session")
        .values(toSessionRow(session))
        .execute();
    } else if (account) {
      await withUser.insertInto("account").values(toAccountRow(account)).execute();
    } else if (session) {
      await withUser.insertInto("session").values(toSessionRow(session)).execute();
    }
    return;
  }
  const write = async (conn: Kysely<Database>) => {
    await userStore(conn).createUser(user);
    if (account) await accountStore(conn).createAccount(account);
    if (session) await sessionStore(conn).createSession(session);
  };
  await (db.isTransaction ? write(db) : db.transaction().execute(write));
}

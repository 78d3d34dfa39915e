import type { Kysely } from "kysely";
import { accountStore } from "./accounts.js";
import type { Dialect } from "./database.js";
import { findTakenIdentities, insertImportedUsers, planImportLookups, type ImportedUser } from "./imported-users.js";
import { insertNewUser, type NewUserRecords } from "./new-user.js";
import type { Database } from "./schema.js";
import { sessionStore, type SessionStoreOptions } from "./sessions.js";
import { userStore } from "./users.js";
import { verificationStore } from "./verifications.js";

export { openDatabase, isUnavailableError, type DatabaseHandle, type Dialect } from "./database.js";
export { composeDatabaseShape, migrateToLatest, type DatabaseShape, type SchemaPart } from "./migrator.js";
export type * from "./models.js";

/**
 * Repositories with `transaction(fn)`: fn gets the same repositories bound to one transaction, and what it returns
 * is committed with it (a throw rolls everything back). Called on repositories already bound to a transaction, it
 * runs fn inside that one. Inside fn only fn's repositories may be used: SQLite has a single connection, which
 * the transaction holds until it ends.
 *
 * `afterCommit(task)` is for what must not leave before the change it tells of is durable (a mail, a call to another
 * system): on repositories bound to a transaction, the task runs once the outermost transaction has committed, and
 * never when it rolls back (a throw, a failed COMMIT); on the others, at once (each write commits by itself). Tasks
 * run in the order they were given, before `transaction(fn)` returns. A task only starts its work (in the
 * background: verification/background.ts inBackground) and must not throw: the change is committed already.
 */
export type Transactional<S> = S & {
  transaction<T>(fn: (stores: Transactional<S>) => Promise<T>): Promise<T>;
  afterCommit(task: () => void): void;
};

/**
 * Builds repositories over a connection or a transaction, with transaction(fn) and afterCommit(task) on top;
 * `committed` holds the tasks of the transaction `db` is (transaction(fn) gives it).
 */
export function transactional<S extends object>(
  db: Kysely<any>,
  build: (db: Kysely<any>) => S,
  committed?: (() => void)[],
): Transactional<S> {
  const stores: Transactional<S> = Object.assign(build(db), {
    transaction: async <T>(fn: (stores: Transactional<S>) => Promise<T>): Promise<T> => {
      if (db.isTransaction) return fn(stores);
      const tasks: (() => void)[] = [];
      const result = await db.transaction().execute((trx) => fn(transactional(trx, build, tasks)));
      for (const task of tasks) task();
      return result;
    },
    afterCommit: (task: () => void): void => {
      if (committed) committed.push(task);
      else task();
    },
  });
  return stores;
}

/** Core's repositories over one connection (or one transaction); modules.ts adds the modules'. */
export function createRepositories(db: Kysely<Database>, dialect: Dialect, opts: SessionStoreOptions = {}) {
  return {
    users: userStore(db, dialect),
    sessions: sessionStore(db, dialect, opts),
    accounts: accountStore(db),
    verifications: verificationStore(db, dialect),
    /** A new user with their first account and session, all or nothing (new-user.ts). */
    signUps: { insertNewUser: (records: NewUserRecords) => insertNewUser(db, dialect, records) },
    /** The `gatehouse import` command's batch reads and writes (imported-users.ts); call them in a transaction. */
    imports: {
      planLookups: () => planImportLookups(db, dialect),
      findTakenIdentities: (wanted: Parameters<typeof findTakenIdentities>[1]) => findTakenIdentities(db, wanted),
      insertImportedUsers: (batch: readonly ImportedUser[]) => insertImportedUsers(db, dialect, batch),
    },
  };
}

export type CoreRepositories = ReturnType<typeof createRepositories>;

/** Core's repositories with transaction(fn): what core code needs (the runtime's stores hold the modules' too). */
export type CoreStores = Transactional<CoreRepositories>;

import type { Kysely } from "kysely";
import { accountStore } from "./accounts.js";
import type { Database } from "./schema.js";
import { sessionStore } from "./sessions.js";
import { userStore } from "./users.js";
import { verificationStore } from "./verifications.js";

export { openDatabase, isUnavailableError, type DatabaseHandle, type Dialect } from "./database.js";
export { migrateToLatest } from "./migrator.js";
export type * from "./models.js";

/** Every repository over one connection (or one transaction: pass the transaction as db). */
export function createStores(db: Kysely<Database>) {
  return {
    users: userStore(db),
    sessions: sessionStore(db),
    accounts: accountStore(db),
    verifications: verificationStore(db),
  };
}

export type Stores = ReturnType<typeof createStores>;

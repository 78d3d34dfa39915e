import type { Kysely } from "kysely";
import { accountStore } from "./accounts.js";
import { invitationStore } from "./invitations.js";
import { memberStore } from "./members.js";
import { organizationDirectoryStore } from "./organization-directory.js";
import { organizationStore } from "./organizations.js";
import type { Database } from "./schema.js";
import { sessionStore, type SessionStoreOptions } from "./sessions.js";
import { teamStore } from "./teams.js";
import { userStore } from "./users.js";
import { verificationStore } from "./verifications.js";

export { openDatabase, isUnavailableError, type DatabaseHandle, type Dialect } from "./database.js";
export { migrateToLatest } from "./migrator.js";
export type * from "./models.js";

/** Every repository over one connection (or one transaction: pass the transaction as db). */
export function createStores(db: Kysely<Database>, opts: SessionStoreOptions = {}) {
  return {
    users: userStore(db),
    sessions: sessionStore(db, opts),
    accounts: accountStore(db),
    verifications: verificationStore(db),
    organizations: organizationStore(db),
    members: memberStore(db),
    invitations: invitationStore(db),
    teams: teamStore(db),
    /** Every organization, for site administrators (read-only). */
    organizationDirectory: organizationDirectoryStore(db),
  };
}

export type Stores = ReturnType<typeof createStores>;

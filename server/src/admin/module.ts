import { defineModule } from "../gatehouse-module.js";
import { banUser, unbanUser } from "./ban-routes.js";
import { listUserFactors, resetUserFactors } from "./factor-routes.js";
import { impersonateUser, stopImpersonating } from "./impersonation-routes.js";
import { listUsers } from "./list-users-route.js";
import { ADMIN_MESSAGES } from "./messages.js";
import * as userListIndexes from "./migrations/0003-admin.js";
import * as userSearchIndexes from "./migrations/0004-admin-search.js";
import * as userTrigramIndexes from "./migrations/0006-user-trigram.js";
import * as impersonationIndex from "./migrations/0007-impersonation-index.js";
import { adminGetOrganization, adminListOrganizations } from "./organization-routes.js";
import { listRoles, userHasPermission } from "./permission-routes.js";
import { listUserSessions, revokeUserSession, revokeUserSessions } from "./session-routes.js";
import { adminRepositories } from "./store/index.js";
import { adminUpdateUser, createUser, getUser, removeUser, setRole, setUserPassword } from "./user-routes.js";

/**
 * Site administration (API-NOTES-PLUGINS.md, admin): users, roles, bans, impersonation, sessions, a read-only
 * view of every organization (through the organization module's store), and a user's sign-in factors, shown and
 * reset (through the two-factor and passkey modules' stores: factor-routes.ts). No option turns it off today. It has no table
 * of its own: its columns (user.role, user.banned, ..., session.impersonatedBy) are core's since migration 0001; it
 * adds the indexes behind its user list and its impersonation lookups, to core's tables.
 */
export const adminModule = defineModule({
  name: "admin",
  enabled: () => true,
  endpoints: {
    createUser,
    listUsers,
    getUser,
    adminUpdateUser,
    setRole,
    banUser,
    unbanUser,
    impersonateUser,
    stopImpersonating,
    removeUser,
    setUserPassword,
    listUserSessions,
    revokeUserSession,
    revokeUserSessions,
    userHasPermission,
    listRoles,
    adminListOrganizations,
    adminGetOrganization,
    listUserFactors,
    resetUserFactors,
  },
  // The names they had when they lived in storage/migrations: databases record them, so they never change.
  migrations: {
    "0003-admin": userListIndexes,
    "0004-admin-search": userSearchIndexes,
    "0006-user-trigram": userTrigramIndexes,
    "0007-impersonation-index": impersonationIndex,
  },
  tables: {},
  tableAdditions: {
    user: {
      // The administrators' user list (migration 0003): each sortable column with id as the tie-break. The
      // PostgreSQL expression, partial and trigram indexes of 0004, 0006 and 0007 are not plain indexes: the
      // reconcile step does not check them.
      indexes: [
        { name: "user_createdAt_idx", columns: ["createdAt", "id"] },
        { name: "user_updatedAt_idx", columns: ["updatedAt", "id"] },
        { name: "user_name_idx", columns: ["name", "id"] },
        { name: "user_role_idx", columns: ["role", "id"] },
      ],
    },
  },
  repositories: adminRepositories,
  errors: ADMIN_MESSAGES,
});

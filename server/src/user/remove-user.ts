import { handOverOrganizations } from "../organization/membership.js";
import type { Runtime } from "../runtime.js";

/**
 * Removes a user with their sessions (and the impersonation sessions they hold over others), accounts and
 * memberships, in one transaction. Organizations they leave behind are deleted when nobody else is in them, or
 * passed to a successor when they were the only owner.
 */
export async function removeUserAndData(runtime: Runtime, userId: string): Promise<void> {
  const organizations = await runtime.stores.transaction(async (stores) => {
    const handed = await handOverOrganizations(runtime, stores, userId);
    await stores.sessions.deleteUserSessions(userId);
    // An administrator's impersonations (sessions of other users opened by them) end with them.
    await stores.sessions.deleteSessionsImpersonatedBy(userId);
    await stores.accounts.deleteUserAccounts(userId);
    await stores.users.deleteUser(userId);
    return handed;
  });
  runtime.logger.info(
    { userId, organizationsDeleted: organizations.deleted, ownershipHandedOver: organizations.handedOver },
    "user deleted",
  );
}

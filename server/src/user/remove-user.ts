import type { Runtime } from "../runtime.js";
import type { CoreStores } from "../storage/index.js";

/**
 * Removes a user with their sessions (and the impersonation sessions they hold over others), accounts and what the
 * modules keep for them, in one transaction. Each installed module cleans up first (beforeUserRemoved): the
 * organization module deletes organizations nobody else is in, and passes those the user was the only owner of to a
 * successor.
 */
export async function removeUserAndData(
  runtime: Pick<Runtime, "config" | "logger" | "modules"> & { stores: CoreStores },
  userId: string,
): Promise<void> {
  const outcome = await runtime.stores.transaction(async (stores) => {
    const done: Record<string, unknown> = {};
    for (const module of runtime.modules) Object.assign(done, await module.beforeUserRemoved?.(stores, userId, runtime.config));
    await stores.sessions.deleteUserSessions(userId);
    // An administrator's impersonations (sessions of other users opened by them) end with them.
    await stores.sessions.deleteSessionsImpersonatedBy(userId);
    await stores.accounts.deleteUserAccounts(userId);
    await stores.users.deleteUser(userId);
    return done;
  });
  runtime.logger.info({ userId, ...outcome }, "user deleted");
}

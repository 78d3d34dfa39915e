import type { Runtime } from "../runtime.js";
import { emitEvent, type EventSource } from "../events/emit.js";
import type { CoreStores, User } from "../storage/index.js";

/**
 * Removes a user with their sessions (and the impersonation sessions they hold over others), accounts and what the
 * modules keep for them, in one transaction. Each installed module cleans up first (beforeUserRemoved): the
 * organization module deletes organizations nobody else is in, and passes those the user was the only owner of to a
 * successor. The user.deleted event (with those counts) is written in the same transaction.
 */
export async function removeUserAndData(
  runtime: Pick<Runtime, "config" | "logger" | "modules"> & { stores: CoreStores },
  user: Pick<User, "id" | "email">,
  source: EventSource,
): Promise<void> {
  const userId = user.id;
  const outcome = await runtime.stores.transaction(async (stores) => {
    const done: Record<string, unknown> = {};
    for (const module of runtime.modules) Object.assign(done, await module.beforeUserRemoved?.(stores, userId, runtime.config));
    await stores.sessions.deleteUserSessions(userId);
    // An administrator's impersonations (sessions of other users opened by them) end with them.
    await stores.sessions.deleteSessionsImpersonatedBy(userId);
    await stores.accounts.deleteUserAccounts(userId);
    await stores.users.deleteUser(userId);
    const count = (value: unknown) => (Array.isArray(value) ? value.length : 0);
    await emitEvent(stores, source, "user.deleted", {
      userId,
      data: {
        email: user.email,
        organizationsDeleted: count(done.organizationsDeleted),
        organizationsHandedOver: count(done.ownershipHandedOver),
      },
    });
    return done;
  });
  runtime.logger.info({ userId, ...outcome }, "user deleted");
}

import type { Config } from "../config/index.js";
import { isBanned } from "../credentials/rules.js";
import type { Stores } from "../storage/index.js";
import type { User } from "../storage/models.js";
import { isAdministrator } from "./access.js";

/**
 * An impersonation lasts only while the administrator who opened it may hold it. Called with a user as they are
 * after a change (in the transaction that made it): when they are banned or no longer an administrator, the
 * sessions they hold as other users (impersonatedBy = their id) are deleted. Removing a user does the same
 * (user/remove-user.ts).
 */
export async function endImpersonationsIfNoLongerAdmin(
  config: Config,
  stores: Stores,
  user: User | null,
  now: Date,
): Promise<void> {
  if (!user) return;
  if (isBanned(user, now) || !isAdministrator(config.admin, user)) {
    await stores.sessions.deleteSessionsImpersonatedBy(user.id);
  }
}

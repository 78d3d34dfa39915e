import type { Config } from "../config/index.js";
import { isBanned } from "../credentials/rules.js";
import type { CoreStores as Stores } from "../storage/index.js";
import type { User } from "../storage/models.js";
import { hasPermission, isAdministrator } from "./access.js";

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

/**
 * Why impersonate-user would refuse `caller` acting as `target` now, or null when it would accept: the caller
 * lacks user:impersonate; the target is an administrator (by role or adminUserIds) and the caller does not hold
 * impersonate-admins (only admin.allowImpersonatingAdmins grants it); or a ban on the target still holds. The
 * route applies it, and get-user reports it, so an application offers only what will be accepted.
 */
export function impersonationRefusal(
  config: Config["admin"],
  caller: Pick<User, "id" | "role">,
  target: User,
  now: Date,
): "not-allowed" | "administrator" | "banned" | null {
  if (!hasPermission(config, caller, { user: ["impersonate"] })) return "not-allowed";
  if (isAdministrator(config, target) && !hasPermission(config, caller, { user: ["impersonate-admins"] })) {
    return "administrator";
  }
  return isBanned(target, now) ? "banned" : null;
}

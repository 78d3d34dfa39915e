import { z } from "zod";
import type { Config } from "../config/index.js";
import { APIError } from "../http/errors.js";
import type { User } from "../storage/models.js";
import type { SessionAndUser } from "../storage/sessions.js";
import { USER_MESSAGES } from "../user/messages.js";
import { hasPermission, knownRoles, type Permissions } from "./access.js";
import type { AdminDeps } from "./deps.js";
import { ADMIN_MESSAGES } from "./messages.js";

/**
 * The caller, when their roles allow every action asked for; 403 with `refusal` otherwise. Administrator routes
 * use auth "sensitive", so the caller's role is read from the database, never from a cookie cache.
 */
export function requirePermission(
  ctx: { session: SessionAndUser | null; runtime: { config: Config } },
  permissions: Permissions,
  refusal: string,
): SessionAndUser {
  const current = ctx.session!;
  if (!hasPermission(ctx.runtime.config.admin, current.user, permissions)) throw new APIError("FORBIDDEN", refusal);
  return current;
}

/** The user an administrator acts on; 404 User not found. */
export async function findTargetUser(runtime: Pick<AdminDeps, "stores">, id: string): Promise<User> {
  const user = await runtime.stores.users.findUserById(id);
  if (!user) throw new APIError("NOT_FOUND", USER_MESSAGES.USER_NOT_FOUND);
  return user;
}

export const userIdSchema = z.string().min(1).max(256);

/** A role as given to create-user, set-role and update-user: "admin", "admin,user" or ["admin", "user"]. */
export const roleInputSchema = z.union([z.string().max(1024), z.array(z.string().max(64)).max(16)]);

/** The stored role string (comma-joined, no repeats); 400 when empty or naming a role that does not exist. */
export function toRoleString(runtime: Pick<AdminDeps, "config">, input: z.output<typeof roleInputSchema>): string {
  const roles = [...new Set((Array.isArray(input) ? input : input.split(",")).map((r) => r.trim()).filter(Boolean))];
  if (roles.length === 0) throw new APIError("BAD_REQUEST", ADMIN_MESSAGES.INVALID_ROLE_TYPE);
  const known = knownRoles(runtime.config.admin);
  if (!roles.every((r) => known.has(r))) {
    throw new APIError("BAD_REQUEST", ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_SET_A_NON_EXISTENT_ROLE_VALUE);
  }
  return roles.join(",");
}

import type { User } from "@gatehouse/client";

/** Whether the user's roles (one role, or several joined with commas) include the site administrator's. */
export function isAdmin(user: Pick<User, "role">): boolean {
  return (user.role ?? "")
    .split(",")
    .map((role) => role.trim())
    .includes("admin");
}

/** The roles a member holds ("admin,member" holds both). */
export function rolesOf(role: string): string[] {
  return role.split(",").map((r) => r.trim());
}

/** Owners and admins manage members, invitations and teams; only owners change or delete the organization. */
export function canManage(role: string | undefined): boolean {
  return !!role && rolesOf(role).some((r) => r === "owner" || r === "admin");
}

export function isOwner(role: string | undefined): boolean {
  return !!role && rolesOf(role).includes("owner");
}

/** A slug as the create form suggests it from a name: lower-case letters, digits and dashes. */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48);
}

/** The service's refusal of a member whose account lacks the second factor the organization requires. */
export const TWO_FACTOR_REQUIRED = "TWO_FACTOR_REQUIRED_BY_ORGANIZATION";

/**
 * Whether the organization refuses this user for want of a second factor (README.md, "Organization policy and
 * administrators"): it requires one and the account has none. The service decides; this only says why ahead.
 */
export function refusesForSecondFactor(
  organization: { requireTwoFactor?: boolean },
  user: { twoFactorEnabled?: boolean | null },
): boolean {
  return organization.requireTwoFactor === true && user.twoFactorEnabled !== true;
}

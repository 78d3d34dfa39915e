import { ORG_MESSAGES } from "./messages.js";
/**
 * Organization access control as data (SPEC.md section 6, API-NOTES.md 2.2): what each built-in role may do
 * to each resource. A member's role string may hold several roles, comma-separated.
 */
export const STATEMENTS = {
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  ac: ["create", "read", "update", "delete"],
} as const;

export type Resource = keyof typeof STATEMENTS;
export type Action<R extends Resource> = (typeof STATEMENTS)[R][number];
export type Permissions = { [R in Resource]?: readonly Action<R>[] };

export const ROLE_NAMES = ["owner", "admin", "member"] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

export const ROLES: Readonly<Record<RoleName, Permissions>> = {
  owner: {
    organization: ["update", "delete"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: ["create", "update", "delete"],
    ac: ["create", "read", "update", "delete"],
  },
  admin: {
    organization: ["update"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: ["create", "update", "delete"],
    ac: ["create", "read", "update", "delete"],
  },
  member: {
    ac: ["read"],
  },
};

/** Why a check failed (SPEC.md section 6): ORG_MESSAGES' two access-control refusals. */
export type AccessResult = { success: true; error: null } | { success: false; error: string };

/** The roles of a role string: split on commas, trimmed, empty parts and repeats dropped. */
export function parseRoles(role: string): string[] {
  return [...new Set(role.split(",").map((part) => part.trim()).filter(Boolean))];
}

/** A role given as a string or an array (arrays are joined with ","), normalised to "a,b". */
export function joinRoles(input: string | readonly string[]): string {
  return parseRoles(typeof input === "string" ? input : input.join(",")).join(",");
}

export function isRoleName(role: string): role is RoleName {
  return (ROLE_NAMES as readonly string[]).includes(role);
}

export function hasRole(roleString: string, role: string): boolean {
  return parseRoles(roleString).includes(role);
}

/**
 * Passes when, for each requested resource, one of the roles allows every requested action on it
 * (OR across roles, AND across resources).
 */
export function checkAccess(roleString: string, request: Readonly<Record<string, readonly string[]>>): AccessResult {
  const grants = parseRoles(roleString)
    .filter(isRoleName)
    .map((role) => ROLES[role] as Readonly<Record<string, readonly string[] | undefined>>);
  for (const [resource, actions] of Object.entries(request)) {
    const allowed = grants
      .map((grant) => (Object.hasOwn(grant, resource) ? grant[resource] : undefined))
      .filter((a) => a !== undefined);
    if (allowed.length === 0) return { success: false, error: ORG_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_ACCESS_RESOURCE };
    if (!allowed.some((granted) => actions.every((action) => granted.includes(action)))) {
      return { success: false, error: ORG_MESSAGES.UNAUTHORIZED_TO_ACCESS_RESOURCE };
    }
  }
  return { success: true, error: null };
}

/** Whether the role string allows one action on one resource. */
export function can<R extends Resource>(roleString: string, resource: R, action: Action<R>): boolean {
  return checkAccess(roleString, { [resource]: [action] }).success;
}

/**
 * Why a member holding `inviterRole` may not invite someone at `invitedRole`, or null when they may: their roles
 * must allow invitation:create ("invite"), and only a holder of the creator role may hand it out ("role").
 * Checked when the invitation is made and again when it is viewed or accepted, so an invitation never outlives
 * its inviter's right to make it.
 */
export function invitingRefusal(inviterRole: string, invitedRole: string, creatorRole: string): "invite" | "role" | null {
  if (!can(inviterRole, "invitation", "create")) return "invite";
  if (hasRole(invitedRole, creatorRole) && !hasRole(inviterRole, creatorRole)) return "role";
  return null;
}

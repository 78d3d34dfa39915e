import type { Config } from "../config/index.js";
import type { User } from "../storage/models.js";

/**
 * Site-wide access control as data (SPEC.md section 6, API-NOTES.md 2.3): the actions there are, per resource,
 * and the actions each built-in role holds. The roles named in `admin.adminRoles` hold the `admin` role's
 * actions; any other role holds none. A user's role string may join several roles with commas, and a request
 * passes when any one of them allows every action it asks for.
 */
export const STATEMENTS = {
  user: [
    "create",
    "list",
    "set-role",
    "ban",
    "impersonate",
    "impersonate-admins",
    "delete",
    "set-password",
    "get",
    "update",
  ],
  session: ["list", "revoke", "delete"],
  /** The organizations overview: every organization, and its members, whoever is a member. */
  organization: ["list", "get"],
  /** A user's sign-in factors (factor-routes.ts): what they have (never a secret), and removing them. */
  factors: ["list", "reset"],
  /** The audit log (events/routes.ts): search it, and export it as CSV. */
  auditLog: ["list", "export"],
  /** The OpenID Provider's clients (oidc-provider/admin-routes.ts): see, register, change, remove them. */
  oidcClient: ["list", "get", "create", "update", "delete"],
  /** What users granted OpenID clients (oidc-provider/admin-routes.ts): see and revoke a user's grants. */
  oidcGrant: ["list", "revoke"],
  /** Webhook endpoints and their delivery logs (webhooks/routes.ts): see, make, change, remove, send again. */
  webhooks: ["list", "create", "update", "delete", "resend"],
} as const;

export type Resource = keyof typeof STATEMENTS;
export type Action<R extends Resource> = (typeof STATEMENTS)[R][number];
/** Actions asked for, per resource; every one must be allowed. */
export type Permissions = { [R in Resource]?: readonly Action<R>[] };
type RoleActions = { readonly [R in Resource]: readonly Action<R>[] };

export const ROLES: { readonly admin: RoleActions; readonly user: RoleActions } = {
  admin: {
    user: STATEMENTS.user.filter((action) => action !== "impersonate-admins"),
    session: STATEMENTS.session,
    organization: STATEMENTS.organization,
    factors: STATEMENTS.factors,
    auditLog: STATEMENTS.auditLog,
    oidcClient: STATEMENTS.oidcClient,
    oidcGrant: STATEMENTS.oidcGrant,
    webhooks: STATEMENTS.webhooks,
  },
  user: { user: [], session: [], organization: [], factors: [], auditLog: [], oidcClient: [], oidcGrant: [], webhooks: [] },
};

/**
 * Impersonating another administrator is held by nobody, whatever their roles or adminUserIds say, unless
 * `admin.allowImpersonatingAdmins` is on; then every administrator holds it.
 */
const IMPERSONATE_ADMINS = "impersonate-admins";

type AdminConfig = Config["admin"];

/** The roles in a stored role string ("admin,user"); a user without one has the default role. */
export function rolesOf(config: AdminConfig, role: string | null): string[] {
  const roles = (role ?? "")
    .split(",")
    .map((r) => r.trim())
    .filter(Boolean);
  return roles.length ? roles : [config.defaultRole];
}

function actionsOf(config: AdminConfig, role: string): RoleActions | undefined {
  if (config.adminRoles.includes(role)) return ROLES.admin;
  return role === "user" || role === config.defaultRole ? ROLES.user : undefined;
}

const isAdministratorById = (config: AdminConfig, user: Pick<User, "id">) =>
  user.id !== "" && config.adminUserIds.includes(user.id);

/**
 * Whether the user may do every action asked for. Ids in `admin.adminUserIds` pass every check, except
 * impersonating administrators, which only `admin.allowImpersonatingAdmins` grants (to every administrator).
 * Unknown resources and actions are refused. Asking for nothing is refused too (callers reject it first).
 */
export function hasPermission(
  config: AdminConfig,
  user: Pick<User, "id" | "role">,
  permissions: Readonly<Record<string, readonly string[]>>,
): boolean {
  let asked = Object.entries(permissions);
  if (asked.length === 0) return false;
  if (permissions.user?.includes(IMPERSONATE_ADMINS)) {
    if (!config.allowImpersonatingAdmins || !isAdministrator(config, user)) return false;
    // Granted; the other actions asked for are checked as usual (an administrator holds every `user` resource).
    asked = asked.map(([resource, actions]) => [
      resource,
      resource === "user" ? actions.filter((action) => action !== IMPERSONATE_ADMINS) : actions,
    ]);
  }
  if (isAdministratorById(config, user)) return true;
  return rolesOf(config, user.role).some((role) => {
    const actions = actionsOf(config, role);
    if (!actions) return false;
    return asked.every(([resource, wanted]) => {
      const held = (actions as Record<string, readonly string[] | undefined>)[resource];
      return held !== undefined && wanted.every((action) => held.includes(action));
    });
  });
}

/**
 * The one answer to "is this user an administrator": one of adminUserIds, or holding one of adminRoles. It decides
 * whom impersonation protects, who may impersonate administrators (with allowImpersonatingAdmins), and whose
 * impersonation sessions end when they stop being one.
 */
export function isAdministrator(config: AdminConfig, user: Pick<User, "id" | "role">): boolean {
  return isAdministratorById(config, user) || rolesOf(config, user.role).some((r) => config.adminRoles.includes(r));
}

/** The role names that may be given to a user: the default role, "user" and the administrator roles. */
export function knownRoles(config: AdminConfig): ReadonlySet<string> {
  return new Set(["user", config.defaultRole, ...config.adminRoles]);
}

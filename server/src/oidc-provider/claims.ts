import { firstFactorOf } from "../session/sign-in.js";
import type { User } from "../storage/models.js";
import type { OidcRepositories, OrganizationClaim } from "./store/index.js";

/**
 * The claims each scope gives (README "OpenID Provider", "Claims"), as oidc-provider's `claims` configuration:
 * `openid` the subject (the user's id), and in the ID token when and how the user signed in; `profile` name, picture, username, last update; `email` the address and
 * whether it is verified; `organizations` every organization of the user with their role; `active_organization`
 * the organization active in the Gatehouse session that signed the user in to the application.
 */
export const SCOPE_CLAIMS: Record<string, string[] | null> = {
  // auth_time and amr are the ID token's (when the user signed in, and how).
  openid: ["sub", "auth_time", "amr"],
  profile: ["name", "given_name", "family_name", "picture", "preferred_username", "updated_at"],
  email: ["email", "email_verified"],
  organizations: ["organizations"],
  active_organization: ["active_organization"],
  acr: null,
  amr: null,
  sid: null,
  auth_time: null,
  iss: null,
};

/** The model under which a grant's Gatehouse context (the active organization at its last authorization) is kept. */
export const CONTEXT_MODEL = "GatehouseContext";

export interface GrantContext {
  activeOrganizationId: string | null;
}

export async function readGrantContext(stores: OidcRepositories, grantId: string, now: Date): Promise<GrantContext | null> {
  const row = await stores.oidcPayloads.findPayload(`${CONTEXT_MODEL}:${grantId}`, now);
  if (!row) return null;
  const id = row.payload.activeOrganizationId;
  return { activeOrganizationId: typeof id === "string" ? id : null };
}

/** Records the Gatehouse session's active organization for the grant (each authorization replaces it). */
export async function writeGrantContext(
  stores: OidcRepositories,
  grant: { grantId: string; accountId: string; clientId: string; expiresAt: Date | null },
  context: GrantContext,
): Promise<void> {
  await stores.oidcPayloads.upsertPayload({
    key: `${CONTEXT_MODEL}:${grant.grantId}`,
    model: CONTEXT_MODEL,
    payload: { activeOrganizationId: context.activeOrganizationId },
    grantId: grant.grantId,
    uid: null,
    accountId: grant.accountId,
    clientId: grant.clientId,
    expiresAt: grant.expiresAt,
    consumedAt: null,
  });
}

const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

/** Given and family names split the way most directories do: the last word is the family name. */
function splitName(name: string): { given?: string; family?: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return words.length ? { given: words[0] } : {};
  return { given: words.slice(0, -1).join(" "), family: words[words.length - 1] };
}

/**
 * Every claim the scopes allow for the user; oidc-provider then keeps only those the scopes and the `claims`
 * parameter ask for (and the user did not refuse).
 */
export async function userClaims(
  stores: OidcRepositories,
  user: User,
  scopes: ReadonlySet<string>,
  activeOrganizationId: () => Promise<string | null>,
): Promise<Record<string, unknown>> {
  const claims: Record<string, unknown> = { sub: user.id };
  if (scopes.has("profile")) {
    const { given, family } = splitName(user.name);
    Object.assign(claims, {
      name: user.name,
      given_name: given,
      family_name: family,
      picture: user.image ?? undefined,
      preferred_username: user.username ?? undefined,
      updated_at: epoch(user.updatedAt),
    });
  }
  if (scopes.has("email")) Object.assign(claims, { email: user.email, email_verified: user.emailVerified });
  if (scopes.has("organizations")) {
    claims.organizations = (await stores.oidcDirectory.userOrganizations(user.id)).map(organizationClaim);
  }
  if (scopes.has("active_organization")) {
    const id = await activeOrganizationId();
    const organization = id ? await stores.oidcDirectory.userOrganization(user.id, id) : null;
    claims.active_organization = organization ? organizationClaim(organization) : null;
  }
  return claims;
}

const organizationClaim = (o: OrganizationClaim) => ({ id: o.id, name: o.name, slug: o.slug, role: o.role });

/**
 * RFC 8176 `amr` values from the factors the Gatehouse session recorded (session/sign-in.ts; for sessions older
 * than that record, the factor its sign-in method proves): a password is "pwd"; a mailed link or code and a second
 * step's code (authenticator app, mailed code, backup code) "otp"; a passkey "hwk"; a provider sign-in has no
 * registered value and is "fed". "mfa" is added when two or more different factors were proven.
 */
export function amrOf(factors: readonly string[] | null | undefined, loginMethod: string | null | undefined): string[] {
  const list = factors?.length ? [...new Set(factors)] : loginMethod ? [firstFactorOf(loginMethod)] : [];
  const amr: string[] = [];
  for (const factor of list) {
    const value =
      factor === "password"
        ? "pwd"
        : factor === "email" || factor === "totp" || factor === "otp" || factor === "backup-code"
          ? "otp"
          : factor === "passkey"
            ? "hwk"
            : factor === "impersonation"
              ? null
              : "fed";
    if (value && !amr.includes(value)) amr.push(value);
  }
  if (list.length >= 2) amr.push("mfa");
  return amr;
}

/**
 * Every security event there is, with its payload (the `data` column, JSON). Named `noun.past_verb`. The row
 * around a payload says who did it (actorId), to whom (userId), in which organization, from where (IP, user
 * agent) and when; the payload says only what that row cannot. Never a secret: no password, hash, token, code or
 * key, and no address or username typed into a failed sign-in (it may be a password typed in the wrong field).
 * README.md "Security events" lists them in a table; keep both in step.
 */

/** How a user was created. */
export type UserCreationMethod = "sign-up" | "admin" | "social" | "magic-link" | "email-otp";

/** Why a sign-in was refused (sign_in.failed). */
export type SignInFailureReason =
  /** Wrong password, or no such account (not told apart, as the answer does not either). */
  | "invalid_credentials"
  /** The account is banned. */
  | "banned"
  /** The address must be verified first (emailAndPassword.requireEmailVerification). */
  | "email_not_verified"
  /** A wrong second-factor code or backup code. */
  | "invalid_second_factor"
  /** Too many wrong passwords or codes: the account waits (rateLimit.account, twoFactor.accountLockout). */
  | "locked_out"
  /** A passkey assertion that names no registered passkey or whose signature does not verify. */
  | "invalid_passkey";

export interface EventPayloads {
  /** A new user. `method`: how. Social: `providerId` too. */
  "user.created": { method: UserCreationMethod; email: string; providerId?: string };
  /** Profile fields changed (names only, never values: an image is 4 KB, and values are in the user row). */
  "user.updated": { fields: string[] };
  /** The user is gone (by themselves or an administrator); their address, since the row is gone. */
  "user.deleted": { email: string; organizationsDeleted: number; organizationsHandedOver: number };
  /** A session was opened. `factors`: what the sign-in proved ("password", "totp", …). */
  "sign_in.succeeded": { method: string; factors: string[]; sessionId: string };
  /** A sign-in was refused. `method`: the way tried ("email", "username", "totp", …). */
  "sign_in.failed": { method: string; reason: SignInFailureReason };
  /** The user signed out of this session. */
  "session.signed_out": { sessionId: string };
  /**
   * Sessions ended by the user or an administrator: one (`sessionId`), the user's other ones, or all of them.
   * `count`: how many went.
   */
  "session.revoked": { scope: "one" | "others" | "all"; count: number; sessionId?: string };
  /** The user changed their password (knowing the old one). `otherSessionsRevoked`: revokeOtherSessions. */
  "password.changed": { otherSessionsRevoked: boolean };
  /** The password was reset with a mailed token. `sessionsRevoked`: how many sessions ended. */
  "password.reset": { sessionsRevoked: number };
  /** A password was set: by the user having none (set-password), or by an administrator. */
  "password.set": { byAdministrator: boolean };
  /** The user asked to move to a new address (confirmation mailed; the change waits for it). */
  "email.change_requested": { newEmail: string };
  /** The address changed (the confirmation used, or at once when the old one was unverified). */
  "email.changed": { from: string; to: string };
  /**
   * The address was proven. `passwordRemoved`: someone not provably the registrant proved an address an unverified
   * account held a password for, so the password and every session went (README "Pre-registration").
   */
  "email.verified": { email: string; passwordRemoved: boolean };
  /** A provider account joined the user. */
  "account.linked": { providerId: string; accountId: string };
  /** A provider account left the user. */
  "account.unlinked": { providerId: string; accountId: string };
  /** A second factor was turned on (confirmed). */
  "two_factor.enabled": { method: "totp" | "otp" };
  /** The user turned their second factors off. */
  "two_factor.disabled": Record<string, never>;
  /**
   * An administrator removed the user's second factors, backup codes and trusted devices (and passkeys with
   * includePasskeys). `totp`, `emailCode`: whether the user had them.
   */
  "two_factor.reset": { totp: boolean; emailCode: boolean; passkeysRemoved: number };
  /** A passkey was registered. */
  "passkey.added": { passkeyId: string; name: string | null; deviceType: string; backedUp: boolean };
  /** A passkey was deleted by the user. */
  "passkey.removed": { passkeyId: string; name: string | null };
  /**
   * An administrator banned the user. `expiresAt`: ISO date-time, null for ever. `sessionsRevoked`: how many of the
   * user's sessions ended with it (ban-user; absent for a ban set through update-user).
   */
  "user.banned": { reason: string; expiresAt: string | null; sessionsRevoked?: number };
  /** The ban was lifted (by an administrator, or because it had run out when the user signed in: actor null). */
  "user.unbanned": { expired: boolean };
  /** The user's site role changed. */
  "user.role_changed": { from: string | null; to: string };
  /** An administrator (the actor) opened a session as the user. */
  "impersonation.started": { sessionId: string; expiresAt: string };
  /** The administrator went back to their own session. */
  "impersonation.stopped": { sessionId: string };
  /** With it, its creator's membership (`memberId`, `role`: the creator role) and default team: no member.added. */
  "organization.created": { name: string; slug: string; memberId: string; role: string };
  /** Fields changed (names only). */
  "organization.updated": { fields: string[] };
  "organization.deleted": { name: string; slug: string };
  /** An owner or admin (or the server-side API) added a member (joining by invitation is invitation.accepted). */
  "member.added": { memberId: string; role: string };
  /** A member went: removed (actor is who removed them) or left (actor is the member). */
  "member.removed": { memberId: string; role: string; left: boolean };
  "member.role_changed": { memberId: string; from: string; to: string };
  /**
   * The actor invited the address (no user: it may have no account yet). `renewed`: a resend of the pending
   * invitation (same id, new expiry). `teamId`: comma-joined team ids, or null.
   */
  "invitation.created": { invitationId: string; email: string; role: string; teamId: string | null; renewed: boolean };
  /** The invited user (actor and subject) joined. */
  "invitation.accepted": { invitationId: string; memberId: string; role: string };
  "invitation.rejected": { invitationId: string };
  "invitation.canceled": { invitationId: string; email: string };
  /** OpenID provider (issue #16): the slot its routes emit into; payloads may grow there, never with a secret. */
  "oidc_client.created": { clientId: string; name: string };
  "oidc_client.updated": { clientId: string; fields: string[] };
  "oidc_client.deleted": { clientId: string };
  "oidc_grant.given": { clientId: string; scopes: string[] };
  /**
   * `reason`: the user disconnected the application, an administrator revoked it, or one of its codes or refresh
   * tokens was used a second time (a replay: the grant and every token issued under it went).
   */
  "oidc_grant.revoked": { clientId: string; reason?: "user" | "administrator" | "replay" };
  /**
   * A token endpoint response (one per response, not per token): the grant type, the access token's scopes, what the
   * response holds (`accessToken`: its format; a refresh token, an ID token) and the grant it came from (null for
   * client credentials). The user is the subject (none for client credentials); no actor: the client is `clientId`.
   * Never a token or a token's hash.
   */
  "oidc_token.issued": {
    clientId: string;
    grantType: "authorization_code" | "refresh_token" | "client_credentials";
    scopes: string[];
    accessToken: "jwt" | "opaque";
    refreshToken: boolean;
    idToken: boolean;
    grantId: string | null;
  };
  /**
   * A client revoked one of its tokens (RFC 7009). A refresh token's revocation ends its grant's access tokens too
   * (the grant stays). Tokens ended with a grant are in oidc_grant.revoked, not here.
   */
  "oidc_token.revoked": { clientId: string; kind: "access_token" | "refresh_token" };
}

export type EventType = keyof EventPayloads;
export type EventData<T extends EventType> = EventPayloads[T];

/** Every type, in the README's order: validation of filters, the webhooks' event lists. */
export const EVENT_TYPES = [
  "user.created",
  "user.updated",
  "user.deleted",
  "sign_in.succeeded",
  "sign_in.failed",
  "session.signed_out",
  "session.revoked",
  "password.changed",
  "password.reset",
  "password.set",
  "email.change_requested",
  "email.changed",
  "email.verified",
  "account.linked",
  "account.unlinked",
  "two_factor.enabled",
  "two_factor.disabled",
  "two_factor.reset",
  "passkey.added",
  "passkey.removed",
  "user.banned",
  "user.unbanned",
  "user.role_changed",
  "impersonation.started",
  "impersonation.stopped",
  "organization.created",
  "organization.updated",
  "organization.deleted",
  "member.added",
  "member.removed",
  "member.role_changed",
  "invitation.created",
  "invitation.accepted",
  "invitation.rejected",
  "invitation.canceled",
  "oidc_client.created",
  "oidc_client.updated",
  "oidc_client.deleted",
  "oidc_grant.given",
  "oidc_grant.revoked",
  "oidc_token.issued",
  "oidc_token.revoked",
] as const satisfies readonly EventType[];

// Every key of EventPayloads is listed above (a type added there and not here fails to compile).
type Missing = Exclude<EventType, (typeof EVENT_TYPES)[number]>;
const _allListed: Missing extends never ? true : Missing = true;
void _allListed;

const KNOWN: ReadonlySet<string> = new Set(EVENT_TYPES);
export const isEventType = (value: string): value is EventType => KNOWN.has(value);

/**
 * A filter on types: an exact type (`user.banned`), a prefix ending in `.*` (`user.*`, `sign_in.*`), or `*`.
 * Answers the exact types it stands for (empty: none known).
 */
export function typesMatching(pattern: string): EventType[] {
  if (pattern === "*") return [...EVENT_TYPES];
  if (pattern.endsWith(".*")) {
    const prefix = pattern.slice(0, -1);
    return EVENT_TYPES.filter((t) => t.startsWith(prefix));
  }
  return isEventType(pattern) ? [pattern] : [];
}

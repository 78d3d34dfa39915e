// Types only: the web app takes nothing from the server at run time.
import type { EventType } from "../../../server/src/events/types.js";

export type { EventType };

/** "user" of "user.banned". */
type Noun<T extends string> = T extends `${infer N}.${string}` ? N : never;
/** "banned" of "user.banned", for the noun N. */
type Verb<T extends string, N extends string> = T extends `${N}.${infer V}` ? V : never;

/**
 * The labels of every event type, nested by noun (`types.user.banned`): i18next reads dots in a key as nesting, so a
 * type's name is also its message's key. Written `satisfies EventTypeLabels` in en.ts, so a type the service adds
 * without a label, or a label for no type, does not compile.
 */
export type EventTypeLabels = { [N in Noun<EventType>]: { [V in Verb<EventType, N>]: string } };

/**
 * Every event type the service writes (server/src/events/types.ts, README "Security events"), in its order: the
 * audit log's type filter offers them. Checked against the server's list below.
 */
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

// A type the service adds and this list lacks fails to compile here.
type Unlisted = Exclude<EventType, (typeof EVENT_TYPES)[number]>;
const everyTypeListed: Unlisted extends never ? true : Unlisted = true;
void everyTypeListed;

/** The nouns in the list's order ("user", "sign_in", …): the filter's "every … event" choices (`user.*`). */
export const EVENT_NOUNS: readonly Noun<EventType>[] = [...new Set(EVENT_TYPES.map((type) => type.split(".")[0] as Noun<EventType>))];

const KNOWN: ReadonlySet<string> = new Set(EVENT_TYPES);

/** Whether a type is one this app has a label for (a newer service may write types it does not know). */
export const isKnownEventType = (type: string): type is EventType => KNOWN.has(type);

/**
 * A type filter of the audit log: "" (every type), an exact type, or a noun's prefix ("user.*"). Anything else,
 * from a hand-edited address, is dropped.
 */
export function typeFilterOf(value: string | null): string {
  if (!value) return "";
  if (isKnownEventType(value)) return value;
  if (value.endsWith(".*") && (EVENT_NOUNS as readonly string[]).includes(value.slice(0, -2))) return value;
  return "";
}

/**
 * The user's own security activity (the security page): their sign-ins and sessions, and every change to how they
 * sign in or who they are. Organization events name them too (they joined, were invited), but belong to the
 * organization's own page.
 */
export const SECURITY_TYPES = [
  "user.*",
  "sign_in.*",
  "session.*",
  "password.*",
  "email.*",
  "account.*",
  "two_factor.*",
  "passkey.*",
  "impersonation.*",
  "oidc_grant.*",
] as const;

/** The security page's narrower views. */
export const SIGN_IN_TYPES = ["sign_in.*", "session.*", "impersonation.*"] as const;
export const CHANGE_TYPES = ["user.*", "password.*", "email.*", "account.*", "two_factor.*", "passkey.*", "oidc_grant.*"] as const;

/** An organization's own activity (the organization page). */
export const ORGANIZATION_TYPES = ["organization.*", "member.*", "invitation.*"] as const;

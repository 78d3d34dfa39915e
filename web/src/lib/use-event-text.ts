import { useTranslation } from "react-i18next";
import { isKnownEventType } from "./event-types";
import { formatDateTime } from "./format-time";
import { rolesOf } from "./organizations";
import { useFeatures } from "./use-features";

/** What every audit-log answer's events share (the admin's, an organization's and the user's own). */
export interface EventLike {
  type: string;
  data: Record<string, unknown>;
}

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
const count = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);
const list = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);

/** Ways in with a name of their own; any other method is a sign-in provider's id ("google"). */
const METHODS = new Set(["email", "username", "passkey", "magic-link", "email-otp", "email-verification", "impersonation"]);
/** What a sign-in proves, and the second step's ways (a failed sign-in's method may be one of these too). */
const FACTORS = new Set(["password", "email", "passkey", "social", "impersonation", "totp", "otp", "backup-code"]);
const CREATION = new Set(["sign-up", "admin", "magic-link", "email-otp"]);
const REASONS = new Set(["invalid_credentials", "banned", "email_not_verified", "invalid_second_factor", "locked_out", "invalid_passkey"]);
const ORG_ROLES = new Set(["owner", "admin", "member"]);

export interface EventText {
  /** The type's name ("Account banned"); a type this app does not know is named by its code. */
  label(type: string): string;
  /** What the event's data says, as short phrases ("With a passkey", "Reason: spam"); empty when nothing. */
  details(event: EventLike): string[];
  /** A sign-in way ("email and password", "Google"). */
  method(method: string): string;
}

/**
 * Puts events into words in the language shown: each type's label and its data's details, for the audit log, an
 * organization's activity and the security page. Never shows a value the service did not put in the event.
 */
export function useEventText(): EventText {
  const { t, i18n } = useTranslation();
  const features = useFeatures();
  const provider = (id: string) => features?.providers.find((p) => p.id === id)?.name ?? id;

  const method = (value: string): string =>
    METHODS.has(value) ? t(`activity.methods.${value as "email"}`) : t("activity.methods.provider", { provider: provider(value) });
  const factor = (value: string): string => (FACTORS.has(value) ? t(`activity.factors.${value as "password"}`) : value);
  const orgRole = (role: string) =>
    rolesOf(role)
      .map((r) => (ORG_ROLES.has(r) ? t(`organization.roles.${r as "member"}`) : r))
      .join(", ");
  const date = (value: unknown) => {
    const at = text(value);
    return at && !Number.isNaN(Date.parse(at)) ? formatDateTime(at, i18n.language) : null;
  };

  function details({ type, data }: EventLike): string[] {
    const out: string[] = [];
    const add = (line: string | null | false | undefined) => {
      if (line) out.push(line);
    };
    const email = text(data.email);
    const name = text(data.name);
    const role = text(data.role);
    const from = text(data.from);
    const to = text(data.to);
    const clientId = text(data.clientId);
    const fields = list(data.fields);
    switch (type) {
      case "user.created": {
        const how = text(data.method);
        if (how === "social") add(t("activity.details.createdSocial", { provider: provider(text(data.providerId) ?? "") }));
        else if (how && CREATION.has(how)) add(t(`activity.details.created.${how as "admin"}`));
        if (email) add(t("activity.details.email", { email }));
        break;
      }
      case "user.updated":
      case "organization.updated":
      case "oidc_client.updated":
        if (fields.length > 0) add(t("activity.details.fields", { fields: fields.join(", ") }));
        break;
      case "user.deleted": {
        const deleted = count(data.organizationsDeleted);
        const handedOver = count(data.organizationsHandedOver);
        if (email) add(t("activity.details.email", { email }));
        if (deleted) add(t("activity.details.organizationsDeleted", { count: deleted }));
        if (handedOver) add(t("activity.details.organizationsHandedOver", { count: handedOver }));
        break;
      }
      case "sign_in.succeeded": {
        const how = text(data.method);
        if (how) add(t("activity.details.via", { method: method(how) }));
        // The first factor is the method's own; the others are the second step's.
        const more = list(data.factors).slice(1);
        if (more.length > 0) add(t("activity.details.secondStep", { factors: more.map(factor).join(", ") }));
        break;
      }
      case "sign_in.failed": {
        const how = text(data.method);
        const reason = text(data.reason);
        if (reason && REASONS.has(reason)) add(t(`activity.reasons.${reason as "banned"}`));
        // A second step's way ("totp") is a factor; a first step's ("email", "google") a method.
        if (how && FACTORS.has(how) && !METHODS.has(how)) add(t("activity.details.secondStep", { factors: factor(how) }));
        else if (how) add(t("activity.details.tried", { method: method(how) }));
        break;
      }
      case "session.revoked": {
        const scope = text(data.scope);
        const n = count(data.count) ?? 0;
        if (scope === "one") add(t("activity.details.revokedOne"));
        else if (scope === "others") add(t("activity.details.revokedOthers", { count: n }));
        else if (scope === "all") add(t("activity.details.revokedAll", { count: n }));
        break;
      }
      case "password.changed":
        if (data.otherSessionsRevoked === true) add(t("activity.details.otherSessionsSignedOut"));
        break;
      case "password.reset": {
        const ended = count(data.sessionsRevoked);
        if (ended) add(t("activity.details.sessionsEnded", { count: ended }));
        break;
      }
      case "password.set":
        if (data.byAdministrator === true) add(t("activity.details.byAdministrator"));
        break;
      case "email.change_requested": {
        const next = text(data.newEmail);
        if (next) add(t("activity.details.newEmail", { email: next }));
        break;
      }
      case "email.changed":
        if (from && to) add(t("activity.details.fromTo", { from, to }));
        break;
      case "email.verified":
        if (email) add(t("activity.details.email", { email }));
        if (data.passwordRemoved === true) add(t("activity.details.passwordRemoved"));
        break;
      case "account.linked":
      case "account.unlinked": {
        const id = text(data.providerId);
        if (id) add(t("activity.details.provider", { provider: provider(id) }));
        break;
      }
      case "two_factor.enabled": {
        const how = text(data.method);
        if (how === "totp" || how === "otp") add(t(`activity.factors.${how}`));
        break;
      }
      case "two_factor.reset": {
        const factors = [data.totp === true && factor("totp"), data.emailCode === true && factor("otp")].filter(
          (item): item is string => typeof item === "string",
        );
        const removed = count(data.passkeysRemoved);
        if (factors.length > 0) add(t("activity.details.factorsRemoved", { factors: factors.join(", ") }));
        if (removed) add(t("activity.details.passkeysRemoved", { count: removed }));
        break;
      }
      case "passkey.added":
      case "passkey.removed":
        add(name ? t("activity.details.passkeyName", { name }) : t("activity.details.passkeyUnnamed"));
        break;
      case "user.banned": {
        const reason = text(data.reason);
        const until = date(data.expiresAt);
        const ended = count(data.sessionsRevoked);
        if (reason) add(t("activity.details.reason", { reason }));
        add(until ? t("activity.details.until", { date: until }) : t("activity.details.noEnd"));
        if (ended) add(t("activity.details.sessionsEnded", { count: ended }));
        break;
      }
      case "user.unbanned":
        if (data.expired === true) add(t("activity.details.banExpired"));
        break;
      case "user.role_changed":
        if (to) add(t("activity.details.fromTo", { from: from ?? t("activity.details.noRole"), to }));
        break;
      case "impersonation.started": {
        const until = date(data.expiresAt);
        if (until) add(t("activity.details.until", { date: until }));
        break;
      }
      case "organization.created":
      case "organization.deleted":
        if (name) add(t("activity.details.organization", { name, slug: text(data.slug) ?? "" }));
        // Created: its creator's membership came with it.
        if (role) add(t("activity.details.role", { role: orgRole(role) }));
        break;
      case "member.added":
      case "member.removed":
      case "invitation.accepted":
        if (role) add(t("activity.details.role", { role: orgRole(role) }));
        if (type === "member.removed" && data.left === true) add(t("activity.details.left"));
        break;
      case "member.role_changed":
        if (from && to) add(t("activity.details.fromTo", { from: orgRole(from), to: orgRole(to) }));
        break;
      case "invitation.created":
      case "invitation.canceled":
        if (email) add(t("activity.details.invited", { email }));
        if (role) add(t("activity.details.role", { role: orgRole(role) }));
        if (data.renewed === true) add(t("activity.details.resent"));
        break;
      case "oidc_client.created":
        if (name) add(t("activity.details.client", { client: name }));
        break;
      case "oidc_grant.given":
      case "oidc_token.issued": {
        const scopes = list(data.scopes);
        if (clientId) add(t("activity.details.client", { client: clientId }));
        if (scopes.length > 0) add(t("activity.details.scopes", { scopes: scopes.join(" ") }));
        break;
      }
      case "oidc_client.deleted":
      case "oidc_token.revoked":
        if (clientId) add(t("activity.details.client", { client: clientId }));
        break;
      case "oidc_grant.revoked": {
        const reason = text(data.reason);
        if (clientId) add(t("activity.details.client", { client: clientId }));
        if (reason === "user") add(t("activity.details.byUser"));
        else if (reason === "administrator") add(t("activity.details.byAdministrator"));
        else if (reason === "replay") add(t("activity.details.replay"));
        break;
      }
    }
    return out;
  }

  return {
    label: (type) => (isKnownEventType(type) ? t(`activity.types.${type}`) : t("activity.unknownType", { type })),
    details,
    method,
  };
}

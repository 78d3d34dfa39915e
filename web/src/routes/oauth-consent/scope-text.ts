import type { TFunction } from "i18next";

const KNOWN = ["openid", "profile", "email", "offline_access", "organizations", "active_organization"] as const;
type Known = (typeof KNOWN)[number];

/** A scope in plain words (README.md, "OpenID Provider"); a custom scope (an API's) is shown by its name. */
export function scopeText(t: TFunction, scope: string): string {
  return (KNOWN as readonly string[]).includes(scope) ? t(`oauthApps.scope_${scope as Known}`) : t("oauthApps.scope_other", { scope });
}

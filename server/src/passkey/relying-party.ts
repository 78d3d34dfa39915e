import type { Config } from "../config/index.js";
import { createOriginMatcher, type OriginMatcher } from "../http/origin.js";
import type { PasskeyDeps } from "./deps.js";

/**
 * Who the service is to an authenticator, from configuration only (README.md, "Passkeys"). Better Auth checks a
 * ceremony against the request's own Origin header when no origin is configured (API-NOTES-PLUGINS.md 10.6): a
 * check against what the caller wrote. Here neither the relying party id nor the expected origins ever come from a
 * request.
 */

/**
 * passkey.rpID, else BASE_URL's hostname, else the hostname of the base fixed when the service started listening
 * (public-base.ts; never a request's Host), else "localhost".
 */
export function rpIDOf(runtime: Pick<PasskeyDeps, "config" | "base">): string {
  const { passkey, baseURL } = runtime.config;
  if (passkey.rpID) return passkey.rpID;
  const base = baseURL ?? runtime.base.url();
  return base ? new URL(base).hostname.replace(/^\[|\]$/g, "") : "localhost";
}

const configuredMatchers = new WeakMap<Config, OriginMatcher>();

/**
 * Whether a ceremony's origin (clientDataJSON.origin, which the browser writes and the authenticator signs over) is
 * one the passkey may be used from: passkey.origin when set, else the origins the service trusts (BASE_URL's origin,
 * trustedOrigins and, without BASE_URL, the origins it listens at).
 */
export function isExpectedOrigin(runtime: Pick<PasskeyDeps, "config" | "origins">, origin: string): boolean {
  const configured = runtime.config.passkey.origin;
  if (!configured) return runtime.origins.isTrustedOrigin(origin);
  let matcher = configuredMatchers.get(runtime.config);
  if (!matcher) {
    matcher = createOriginMatcher(configured);
    configuredMatchers.set(runtime.config, matcher);
  }
  return matcher.isTrustedOrigin(origin);
}

/** Better Auth's challenge cookie: `<prefix>.better-auth-passkey`, `__Secure-` in secure mode (API-NOTES-PLUGINS.md 3.2). */
export function challengeCookieName(config: Config): string {
  return `${config.secureCookies ? "__Secure-" : ""}${config.advanced.cookiePrefix}.better-auth-passkey`;
}

/**
 * The origin a WebAuthn response's clientDataJSON names, or null when it is not base64url JSON with a string origin
 * (the library checks the rest of it).
 */
export function clientDataOrigin(clientDataJSON: string): string | null {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as unknown;
    const origin = (parsed as { origin?: unknown } | null)?.origin;
    return typeof origin === "string" && origin.length <= 512 ? origin : null;
  } catch {
    return null;
  }
}

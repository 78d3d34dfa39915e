import type { Config } from "../config/index.js";
import { serializeCookie, signCookieValue, unsignCookieValue, type CookieAttributes } from "../http/cookies.js";
import type { CookieJar } from "../session/session-service.js";

/**
 * The module's two cookies, named and signed like the session's (`<prefix>.two_factor`, `<prefix>.trust_device`;
 * HMAC-SHA-256 under the secret, API-NOTES-PLUGINS.md 1.3), HttpOnly, SameSite=Lax, Secure with secure cookies.
 */
const attributes = (config: Config, maxAge: number | undefined): CookieAttributes => ({
  path: "/",
  httpOnly: true,
  sameSite: "Lax",
  secure: config.secureCookies,
  maxAge,
});

/** The pending second step: the challenge's token, for twoFactorCookieMaxAge. */
export function setPendingCookie(jar: CookieJar, config: Config, token: string): void {
  jar.setCookie(config.cookieNames.twoFactor, signCookieValue(token, config.secret), attributes(config, config.twoFactor.twoFactorCookieMaxAge));
}

/** The pending step's token from a validly signed cookie, or null. */
export function pendingToken(jar: CookieJar, config: Config): string | null {
  const raw = jar.cookie(config.cookieNames.twoFactor);
  return raw ? unsignCookieValue(raw, config.secret) : null;
}

export function expirePendingCookie(jar: CookieJar, config: Config): void {
  if (jar.cookie(config.cookieNames.twoFactor) !== undefined) jar.setCookie(config.cookieNames.twoFactor, "", attributes(config, 0));
}

/** The Set-Cookie line that removes the pending step's cookie, for an error answer (which carries no jar). */
export function expiredPendingCookieLine(config: Config): string {
  return serializeCookie(config.cookieNames.twoFactor, "", attributes(config, 0));
}

/** A trusted device: its id and token, for trustDeviceMaxAge. */
export function setTrustCookie(jar: CookieJar, config: Config, id: string, token: string): void {
  jar.setCookie(
    config.cookieNames.trustDevice,
    signCookieValue(`${id}:${token}`, config.secret),
    attributes(config, config.twoFactor.trustDeviceMaxAge),
  );
}

/** The trusted device a validly signed cookie names, or null. */
export function trustCookieOf(jar: CookieJar, config: Config): { id: string; token: string } | null {
  const raw = jar.cookie(config.cookieNames.trustDevice);
  const value = raw ? unsignCookieValue(raw, config.secret) : null;
  if (!value) return null;
  const colon = value.indexOf(":");
  if (colon < 1 || colon === value.length - 1) return null;
  return { id: value.slice(0, colon), token: value.slice(colon + 1) };
}

export function expireTrustCookie(jar: CookieJar, config: Config): void {
  if (jar.cookie(config.cookieNames.trustDevice) !== undefined) jar.setCookie(config.cookieNames.trustDevice, "", attributes(config, 0));
}

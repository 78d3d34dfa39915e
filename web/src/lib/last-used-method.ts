/**
 * The sign-in method this browser used last, from the cookie the service sets after each sign-in
 * (better-auth.last_used_login_method, readable by the page on purpose): "email", "username", a provider id,
 * "passkey", "magic-link" (a mailed link) or "email-otp" (a mailed code). The sign-in page marks that way in.
 */
const COOKIE = "better-auth.last_used_login_method";

export function lastUsedMethod(): string | null {
  if (typeof document === "undefined") return null;
  for (const part of document.cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === COOKIE) {
      try {
        return decodeURIComponent(rest.join("=")) || null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

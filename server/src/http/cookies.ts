import { MAX_COOKIE_AGE } from "../config/options.js";
import { hmacBase64, safeEqual } from "../crypto/hmac.js";

/**
 * Signed cookie values: `value + "." + base64(HMAC-SHA-256(secret, value))`, URI-encoded on the wire.
 * The signature is 44 characters ending in "=" (API-NOTES.md 1.5).
 */
export function signCookieValue(value: string, secret: string): string {
  return `${value}.${hmacBase64(secret, value)}`;
}

/** Returns the signed value, or null when the signature is missing, malformed or wrong. */
export function unsignCookieValue(signed: string, secret: string): string | null {
  const dot = signed.lastIndexOf(".");
  if (dot < 1) return null;
  const signature = signed.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith("=")) return null;
  const value = signed.slice(0, dot);
  return safeEqual(signature, hmacBase64(secret, value)) ? value : null;
}

/** Parses a Cookie header; the first occurrence of a name wins, values are URI-decoded when they hold "%". */
export function parseCookies(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  let start = 0;
  const length = header.length;
  while (start < length) {
    let end = header.indexOf(";", start);
    if (end === -1) end = length;
    const eq = header.indexOf("=", start);
    if (eq !== -1 && eq < end) {
      const name = header.slice(start, eq).trim();
      if (name && !cookies.has(name)) {
        let value = header.slice(eq + 1, end).trim();
        if (value.length > 1 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
        if (value.includes("%")) {
          try {
            value = decodeURIComponent(value);
          } catch {
            // keep the raw value: a malformed escape must not fail the request
          }
        }
        cookies.set(name, value);
      }
    }
    start = end + 1;
  }
  return cookies;
}

export interface CookieAttributes {
  maxAge?: number | undefined;
  path?: string;
  domain?: string;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: "Lax" | "Strict" | "None";
}

export function serializeCookie(name: string, value: string, attributes: CookieAttributes = {}): string {
  let out = `${name}=${encodeURIComponent(value)}`;
  if (attributes.maxAge !== undefined) {
    const maxAge = Math.floor(attributes.maxAge);
    if (maxAge > MAX_COOKIE_AGE) throw new RangeError(`Cookie ${name} may not live longer than 400 days`);
    out += `; Max-Age=${maxAge}`;
  }
  if (attributes.domain) out += `; Domain=${attributes.domain}`;
  out += `; Path=${attributes.path ?? "/"}`;
  if (attributes.httpOnly ?? true) out += "; HttpOnly";
  const sameSite = attributes.sameSite ?? "Lax";
  if (attributes.secure || sameSite === "None") out += "; Secure";
  out += `; SameSite=${sameSite}`;
  return out;
}

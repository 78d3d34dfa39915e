import { serialize } from "hono/utils/cookie";
import { hmacBase64, safeEqual } from "../crypto/hmac.js";

/**
 * Signed cookie values: `value + "." + base64(HMAC-SHA-256(secret, value))`, URI-encoded on the wire.
 * The signature is 44 characters ending in "=" (API-NOTES.md 1.5).
 *
 * Hono's signed cookies (`hono/cookie` getSignedCookie, `hono/utils/cookie` parseSigned) have the same format but
 * sign and verify with WebCrypto, asynchronously, importing the key at every call. Every get-session verifies the
 * session cookie, so these stay on node:crypto: verifying it takes 2.4 µs here against 47 µs with Hono's
 * parseSigned (`npm run bench:parts`, "Cookies and request bodies" in bench/README.md).
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

/**
 * Parses a Cookie header; the first occurrence of a name wins, values are URI-decoded when they hold "%".
 *
 * Hand-written rather than Hono's `parse` (`hono/utils/cookie`): get-session reads two or three cookies of the
 * header (session, cache, "don't remember"): parsing it once here and looking them up takes 1.8 µs against 3.3 µs
 * with Hono's parse of the whole header and 3.7 µs asking it for each name (`npm run bench:parts`), on a request
 * whose whole cost is 26-37 µs of CPU (bench/README.md, get-session server CPU per request).
 */
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

/** A Set-Cookie line, by Hono's `serialize`, with this service's defaults: Path=/, HttpOnly, SameSite=Lax, Secure with None. */
export function serializeCookie(name: string, value: string, attributes: CookieAttributes = {}): string {
  const sameSite = attributes.sameSite ?? "Lax";
  return serialize(name, value, {
    // Hono refuses a Max-Age past 400 days (RFC 6265bis, what browsers keep at most), as MAX_COOKIE_AGE does.
    ...(attributes.maxAge !== undefined ? { maxAge: Math.floor(attributes.maxAge) } : {}),
    ...(attributes.domain ? { domain: attributes.domain } : {}),
    path: attributes.path ?? "/",
    httpOnly: attributes.httpOnly ?? true,
    secure: attributes.secure === true || sameSite === "None",
    sameSite,
  });
}

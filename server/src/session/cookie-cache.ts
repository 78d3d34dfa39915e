import { hmacBase64Url, safeEqual } from "../crypto/hmac.js";
import type { SessionAndUser } from "../storage/sessions.js";
import { publicSession, publicUser } from "../user/public.js";

/**
 * The session_data cookie ("compact" form of API-NOTES.md 1.6): base64url of
 * `{ session: { session, user, updatedAt, version }, expiresAt, signature }`, where signature is the
 * base64url HMAC-SHA-256 of JSON.stringify({ ...inner, expiresAt }), and `updatedAt` is when it was issued. It lets
 * reads (GET routes, get-session above all) answer without the database until it expires; a revoke is therefore
 * seen by them only after that. Never longer than session.cookieCache.maxAge after it was issued, whatever its
 * signed expiresAt says (a cookie issued under a longer maxAge stops answering once the new one has passed).
 */
export const COOKIE_CACHE_VERSION = "1";
/** Browsers drop cookies past about 4 KB; a larger cache is not set (the database answers instead). */
export const MAX_COOKIE_CACHE_LENGTH = 4093;

export function encodeCookieCache(data: SessionAndUser, issuedAt: number, expiresAt: number, secret: string): string {
  const inner = {
    session: publicSession(data.session),
    user: publicUser(data.user),
    updatedAt: issuedAt,
    version: COOKIE_CACHE_VERSION,
  };
  const signature = hmacBase64Url(secret, JSON.stringify({ ...inner, expiresAt }));
  return Buffer.from(JSON.stringify({ session: inner, expiresAt, signature })).toString("base64url");
}

interface CachedPayload {
  session: { session: Record<string, unknown>; user: Record<string, unknown>; updatedAt: number; version: string };
  expiresAt: number;
  signature: string;
}

const DATE_FIELDS = ["expiresAt", "createdAt", "updatedAt", "banExpires"];

function revive<T>(record: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...record };
  for (const field of DATE_FIELDS) {
    if (typeof out[field] === "string") out[field] = new Date(out[field] as string);
  }
  return out as T;
}

/** A cache cookie whose signature was checked: its session, when it was issued and when it stops counting. */
export interface VerifiedCookieCache {
  data: SessionAndUser;
  issuedAt: number;
  expiresAt: number;
}

/** Parses a cache cookie and checks its signature and version; null when it is malformed or forged. */
export function verifyCookieCache(value: string, secret: string): VerifiedCookieCache | null {
  let payload: CachedPayload;
  try {
    payload = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as CachedPayload;
  } catch {
    return null;
  }
  if (!payload || typeof payload !== "object" || typeof payload.signature !== "string") return null;
  const { session: inner, expiresAt } = payload;
  if (!inner || typeof inner !== "object" || typeof expiresAt !== "number") return null;
  const expected = hmacBase64Url(secret, JSON.stringify({ ...inner, expiresAt }));
  if (!safeEqual(expected, payload.signature)) return null;
  if (inner.version !== COOKIE_CACHE_VERSION || !inner.session || typeof inner.session !== "object") return null;
  if (typeof inner.updatedAt !== "number") return null;
  const session = revive<SessionAndUser["session"]>({ loginMethod: null, factors: null, ...inner.session });
  if (!(session.expiresAt instanceof Date)) return null;
  const user = revive<SessionAndUser["user"]>({ lang: null, twoFactorEnabled: false, ...inner.user });
  return { data: { session, user }, issuedAt: inner.updatedAt, expiresAt };
}

/**
 * Whether a verified cache still answers for this session token at this time: before its own expiry, at most
 * `maxAgeMs` after it was issued, and while the session it holds has not expired.
 */
export function cacheStillValid(cache: VerifiedCookieCache, sessionToken: string, now: number, maxAgeMs: number): boolean {
  return (
    cache.expiresAt > now &&
    cache.issuedAt + maxAgeMs > now &&
    cache.data.session.token === sessionToken &&
    cache.data.session.expiresAt.getTime() > now
  );
}

import type { Config } from "../config/index.js";
import { generateId } from "../crypto/random.js";
import { signCookieValue, unsignCookieValue, type CookieAttributes } from "../http/cookies.js";
import { isBanned } from "../credentials/rules.js";
import { APIError } from "../http/errors.js";
import type { CoreStores as Stores, Session, User } from "../storage/index.js";
import type { SessionAndUser } from "../storage/sessions.js";
import {
  cacheStillValid,
  encodeCookieCache,
  MAX_COOKIE_CACHE_LENGTH,
  verifyCookieCache,
  type VerifiedCookieCache,
} from "./cookie-cache.js";
import { SESSION_MESSAGES } from "./messages.js";

/** The part of a request a session operation needs: read and write cookies, know the client. */
export interface CookieJar {
  cookie(name: string): string | undefined;
  setCookie(name: string, value: string, attributes?: CookieAttributes): void;
}

export interface NewSessionOptions {
  /** Off: a one-day session in a browser-session cookie. On by default. */
  rememberMe?: boolean | undefined;
  overrides?: Partial<Session>;
  /** Recorded on the session: how the user signed in (session/sign-in.ts). */
  loginMethod?: string | undefined;
  /** Recorded on the session: the factors the sign-in proved (session/sign-in.ts). */
  factors?: readonly string[] | undefined;
}

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

const DONT_REMEMBER_SESSION_LIFE = 86_400; // remember-me off: a one-day session in a browser-session cookie
/**
 * Remember-me off: the cache cookie is a browser-session cookie (no Max-Age), so the life signed into it is all
 * that ends it: 60 s, or cookieCache.maxAge when that is shorter (the configured life bounds every cached answer).
 */
const DONT_REMEMBER_CACHE_LIFE = 60;

export interface SessionService {
  /**
   * A new session in two halves: the record, not yet stored; then, once it is, its cookies. Only the one sign-in
   * function (sign-in.ts) uses them, so every way in makes the same checks before a session exists.
   */
  newSession(user: User, client: ClientInfo, opts?: NewSessionOptions): Session;
  setNewSessionCookies(jar: CookieJar, data: SessionAndUser, opts?: NewSessionOptions): void;
  /**
   * The session the request's cookies name, or null. Expired sessions are deleted and their cookies
   * cleared; with refresh, a session past its update age is extended and its cookie re-issued.
   */
  readSession(
    jar: CookieJar,
    opts: { disableCookieCache?: boolean; refresh?: boolean },
  ): Promise<SessionAndUser | null>;
  /** Re-issues the session and cache cookies (after the user changed, for example). */
  setSessionCookies(jar: CookieJar, data: SessionAndUser): void;
  clearSessionCookies(jar: CookieJar): void;
  /** The session token from a validly signed cookie, or null. */
  sessionTokenOf(jar: CookieJar): string | null;
  /**
   * Impersonation: keeps the administrator's own session aside in the signed admin_session cookie
   * (`{token}:{their dont_remember value or empty}`, API-NOTES.md 1.5), with their session cookie's attributes.
   */
  setAdminSessionCookie(jar: CookieJar, adminToken: string): void;
  /** The session kept aside by setAdminSessionCookie, or null when the cookie is absent or its signature fails. */
  adminSessionOf(jar: CookieJar): { token: string; dontRemember: string | null } | null;
  /** Ends impersonation: the administrator's session cookies come back in their remember-me mode, admin_session goes. */
  restoreAdminSession(jar: CookieJar, data: SessionAndUser, dontRemember: string | null): void;
}

export function createSessionService(config: Config, stores: Stores, now: () => Date): SessionService {
  const names = config.cookieNames;
  const base: CookieAttributes = { path: "/", httpOnly: true, sameSite: "Lax", secure: config.secureCookies };
  const { expiresIn, updateAge, cookieCache, disableSessionRefresh } = config.session;

  const isDontRemember = (jar: CookieJar): boolean => {
    const raw = jar.cookie(names.dontRemember);
    return raw !== undefined && unsignCookieValue(raw, config.secret) === "true";
  };

  const setCacheCookie = (jar: CookieJar, data: SessionAndUser, dontRemember: boolean) => {
    if (!cookieCache.enabled) return;
    const life = dontRemember ? Math.min(DONT_REMEMBER_CACHE_LIFE, cookieCache.maxAge) : cookieCache.maxAge;
    const issuedAt = now().getTime();
    const value = encodeCookieCache(data, issuedAt, issuedAt + life * 1000, config.secret);
    if (value.length > MAX_COOKIE_CACHE_LENGTH) return; // too large for a browser: the database answers instead
    jar.setCookie(names.sessionData, value, { ...base, maxAge: dontRemember ? undefined : cookieCache.maxAge });
  };

  const setSessionCookies = (jar: CookieJar, data: SessionAndUser, dontRemember = isDontRemember(jar)) => {
    const maxAge = dontRemember ? undefined : expiresIn;
    jar.setCookie(names.sessionToken, signCookieValue(data.session.token, config.secret), { ...base, maxAge });
    setCacheCookie(jar, data, dontRemember);
  };

  const clearSessionCookies = (jar: CookieJar) => {
    for (const name of [names.sessionToken, names.sessionData, names.dontRemember]) {
      jar.setCookie(name, "", { ...base, maxAge: 0 });
    }
  };

  // Signed cookie values already checked, so a browser's repeated requests skip the HMAC. Only values whose
  // signature matched are kept; the map is bounded and starts over when full.
  const verifiedTokens = new Map<string, string>();
  // Likewise for cache cookies: the parsed, signature-checked payload, re-checked for time and token on use.
  const verifiedCaches = new Map<string, VerifiedCookieCache>();
  const sessionTokenOf = (jar: CookieJar): string | null => {
    const raw = jar.cookie(names.sessionToken);
    if (!raw) return null;
    const known = verifiedTokens.get(raw);
    if (known !== undefined) return known;
    const token = unsignCookieValue(raw, config.secret);
    if (token !== null) {
      if (verifiedTokens.size >= 10_000) verifiedTokens.clear();
      verifiedTokens.set(raw, token);
    }
    return token;
  };

  const newSession = (user: User, client: ClientInfo, opts: NewSessionOptions = {}): Session => {
    const t = now();
    return {
      id: generateId(),
      token: generateId(),
      userId: user.id,
      expiresAt: new Date(t.getTime() + ((opts.rememberMe ?? true) ? expiresIn : DONT_REMEMBER_SESSION_LIFE) * 1000),
      ipAddress: client.ip,
      userAgent: client.userAgent,
      createdAt: t,
      updatedAt: t,
      activeOrganizationId: null,
      activeTeamId: null,
      impersonatedBy: null,
      loginMethod: opts.loginMethod ?? null,
      factors: opts.factors ? [...opts.factors] : null,
      ...opts.overrides,
    };
  };

  const setNewSessionCookies = (jar: CookieJar, data: SessionAndUser, opts: NewSessionOptions = {}) => {
    const rememberMe = opts.rememberMe ?? true;
    if (rememberMe) {
      if (jar.cookie(names.dontRemember) !== undefined) jar.setCookie(names.dontRemember, "", { ...base, maxAge: 0 });
    } else {
      jar.setCookie(names.dontRemember, signCookieValue("true", config.secret), base);
    }
    setSessionCookies(jar, data, !rememberMe);
  };

  return {
    newSession,
    setNewSessionCookies,

    async readSession(jar, opts) {
      const token = sessionTokenOf(jar);
      if (!token) return null;
      const t = now();
      if (cookieCache.enabled && !opts.disableCookieCache) {
        const cached = jar.cookie(names.sessionData);
        if (cached) {
          let verified: VerifiedCookieCache | null | undefined = verifiedCaches.get(cached);
          if (verified === undefined) {
            verified = verifyCookieCache(cached, config.secret);
            if (verified) {
              if (verifiedCaches.size >= 10_000) verifiedCaches.clear();
              verifiedCaches.set(cached, verified);
            }
          }
          if (verified && cacheStillValid(verified, token, t.getTime(), cookieCache.maxAge * 1000)) return verified.data;
          jar.setCookie(names.sessionData, "", { ...base, maxAge: 0 }); // forged or stale: drop it
        }
      }
      const found = await stores.sessions.findSessionAndUser(token);
      if (!found) {
        clearSessionCookies(jar);
        return null;
      }
      // A banned user's sessions are deleted with the ban; one that slipped through (made while the ban was
      // being written) dies here. A ban that has run out lets the session live.
      if (found.session.expiresAt <= t || isBanned(found.user, t)) {
        await stores.sessions.deleteSessionByToken(token);
        clearSessionCookies(jar);
        return null;
      }
      const dontRemember = isDontRemember(jar);
      const due = found.session.expiresAt.getTime() - expiresIn * 1000 + updateAge * 1000 <= t.getTime();
      if (opts.refresh && due && !dontRemember && !disableSessionRefresh) {
        const expiresAt = new Date(t.getTime() + expiresIn * 1000);
        const extended = await stores.sessions.extendSession(token, expiresAt, t);
        if (!extended) {
          clearSessionCookies(jar);
          throw new APIError("UNAUTHORIZED", SESSION_MESSAGES.FAILED_TO_GET_SESSION);
        }
        found.session.expiresAt = expiresAt;
        found.session.updatedAt = t;
        setSessionCookies(jar, found, false);
      } else if (cookieCache.enabled && !opts.disableCookieCache) {
        setCacheCookie(jar, found, dontRemember);
      }
      return found;
    },

    setSessionCookies: (jar, data) => setSessionCookies(jar, data),
    clearSessionCookies,
    sessionTokenOf,

    setAdminSessionCookie(jar, adminToken) {
      const dontRemember = jar.cookie(names.dontRemember) ?? "";
      const maxAge = isDontRemember(jar) ? undefined : expiresIn;
      jar.setCookie(names.adminSession, signCookieValue(`${adminToken}:${dontRemember}`, config.secret), {
        ...base,
        maxAge,
      });
    },

    adminSessionOf(jar) {
      const raw = jar.cookie(names.adminSession);
      const value = raw ? unsignCookieValue(raw, config.secret) : null;
      if (!value) return null;
      const colon = value.indexOf(":");
      if (colon < 1) return null;
      return { token: value.slice(0, colon), dontRemember: value.slice(colon + 1) || null };
    },

    restoreAdminSession(jar, data, dontRemember) {
      const remembered = dontRemember === null || unsignCookieValue(dontRemember, config.secret) !== "true";
      if (remembered) jar.setCookie(names.dontRemember, "", { ...base, maxAge: 0 });
      else jar.setCookie(names.dontRemember, dontRemember!, base);
      setSessionCookies(jar, data, !remembered);
      jar.setCookie(names.adminSession, "", { ...base, maxAge: 0 });
    },
  };
}


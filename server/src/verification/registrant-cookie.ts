import type { Config } from "../config/index.js";
import { serializeCookie, signCookieValue, unsignCookieValue, type CookieAttributes } from "../http/cookies.js";
import type { EndpointContext } from "../http/endpoint.js";

/**
 * The registrant cookie marks the browser that chose a user's password (sign-up) or proved it (a password sign-in
 * refused while the address is unverified). Whoever opens a verification link proves the mailbox; when they do it
 * in this browser (or in one holding a session of the same user), the mailbox owner and the password's author are
 * the same person, and the password stays. Opened anywhere else, the proof may come from a victim whose address
 * someone else registered first, and the password set before it is removed (email-verification-routes.ts).
 *
 * The value is the user id, signed with the secret under its own purpose (so it cannot stand for a session token),
 * and the cookie is sent only to the verification link's path. It lives as long as a session would.
 */
const PURPOSE = "registrant:";

function attributes(config: Config, maxAge: number): CookieAttributes {
  return { path: `${config.basePath}/verify-email`, httpOnly: true, sameSite: "Lax", secure: config.secureCookies, maxAge };
}

/** The Set-Cookie line marking this browser as `userId`'s registrant (for an error answer's headers too). */
export function registrantSetCookie(config: Config, userId: string): string {
  return serializeCookie(
    config.cookieNames.registrant,
    signCookieValue(PURPOSE + userId, config.secret),
    attributes(config, config.session.expiresIn),
  );
}

export function markRegistrant(ctx: EndpointContext, userId: string): void {
  const { config } = ctx.runtime;
  ctx.setCookie(
    config.cookieNames.registrant,
    signCookieValue(PURPOSE + userId, config.secret),
    attributes(config, config.session.expiresIn),
  );
}

export function isRegistrant(ctx: EndpointContext, userId: string): boolean {
  const { config } = ctx.runtime;
  const raw = ctx.cookie(config.cookieNames.registrant);
  return raw !== undefined && unsignCookieValue(raw, config.secret) === PURPOSE + userId;
}

export function clearRegistrant(ctx: EndpointContext): void {
  const { config } = ctx.runtime;
  if (ctx.cookie(config.cookieNames.registrant) !== undefined) {
    ctx.setCookie(config.cookieNames.registrant, "", attributes(config, 0));
  }
}

import type { EndpointContext } from "../http/endpoint.js";
import { APIError, MESSAGES } from "../http/errors.js";
import type { Runtime } from "../runtime.js";
import type { User } from "../storage/models.js";

/** Password length bounds (SPEC.md section 5), checked wherever a new password is chosen. */
export function checkNewPassword(runtime: Runtime, password: string): void {
  const { minPasswordLength, maxPasswordLength } = runtime.config.emailAndPassword;
  if (password.length < minPasswordLength) throw new APIError("BAD_REQUEST", MESSAGES.PASSWORD_TOO_SHORT);
  if (password.length > maxPasswordLength) throw new APIError("BAD_REQUEST", MESSAGES.PASSWORD_TOO_LONG);
}

/** A user is banned while their ban has no end or has not ended yet. */
export function isBanned(user: User, now: Date): boolean {
  return user.banned && (!user.banExpires || user.banExpires > now);
}

export const BANNED_MESSAGE = "You have been banned from this application. Please contact support if you believe this is an error.";

export function clientInfo(ctx: EndpointContext): { ip: string; userAgent: string } {
  return { ip: ctx.ip, userAgent: ctx.headers.get("user-agent") ?? "" };
}

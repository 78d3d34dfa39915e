import type { Config } from "../config/index.js";
import type { EndpointContext } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import type { Runtime } from "../runtime.js";
import type { User } from "../storage/models.js";
import { emitEvent } from "../events/emit.js";
import { CREDENTIAL_MESSAGES } from "./messages.js";

/** Password length bounds (SPEC.md section 5), checked wherever a new password is chosen. */
export function checkNewPassword(runtime: { config: Config }, password: string): void {
  const { minPasswordLength, maxPasswordLength } = runtime.config.emailAndPassword;
  if (password.length < minPasswordLength) throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.PASSWORD_TOO_SHORT);
  if (password.length > maxPasswordLength) throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.PASSWORD_TOO_LONG);
}

/** A user is banned while their ban has no end or has not ended yet. */
export function isBanned(user: User, now: Date): boolean {
  return user.banned && (!user.banExpires || user.banExpires > now);
}

/**
 * The ban check of the one way in (session/sign-in.ts), which every sign-in method ends in. Returns the user, with
 * a ban that has run out lifted and written back, or null while a ban holds.
 */
export async function admitUser(ctx: EndpointContext, user: User): Promise<User | null> {
  const { runtime } = ctx;
  if (!user.banned) return user;
  const now = runtime.now();
  if (isBanned(user, now)) return null;
  const lifted = await runtime.stores.transaction(async (tx) => {
    const updated = await tx.users.updateUser(user.id, { banned: false, banReason: null, banExpires: null, updatedAt: now });
    // Lifted by time, not by anyone: the system's event.
    if (updated) await emitEvent(tx, ctx, "user.unbanned", { userId: user.id, actorId: null, data: { expired: true } });
    return updated;
  });
  return lifted ?? user;
}

/** 403 BANNED_USER, with the configured message (admin.bannedUserMessage). */
export function bannedUserError(runtime: Runtime): APIError {
  return new APIError("FORBIDDEN", runtime.config.admin.bannedUserMessage, { code: "BANNED_USER" });
}

export function clientInfo(ctx: EndpointContext): { ip: string; userAgent: string } {
  return { ip: ctx.ip, userAgent: ctx.headers.get("user-agent") ?? "" };
}

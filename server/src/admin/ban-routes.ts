import { z } from "zod";
import { emitEvent } from "../events/emit.js";
import { APIError } from "../http/errors.js";
import { USER_MESSAGES } from "../user/messages.js";
import { publicUser, publicUserSchema } from "../user/public.js";
import { defineAdminEndpoint } from "./deps.js";
import { endImpersonationsIfNoLongerAdmin } from "./impersonations.js";
import { requirePermission, userIdSchema } from "./guard.js";
import { ADMIN_MESSAGES } from "./messages.js";

const userResponse = z.object({ user: publicUserSchema });

/**
 * A ban refuses every sign-in (credentials/rules.ts admitUser) and ends the user's sessions at once, and the
 * impersonations they hold as an administrator. It ends by
 * itself at banExpires: sign-in then lifts it, and session reads treat it as over.
 */
export const banUser = defineAdminEndpoint({
  method: "POST",
  path: "/admin/ban-user",
  auth: "sensitive",
  body: z.object({
    userId: userIdSchema,
    banReason: z.string().min(1).max(1024).optional(),
    /** Seconds until the ban ends by itself; without it, admin.defaultBanExpiresIn, else until lifted. */
    banExpiresIn: z.number().int().min(1).max(100 * 365 * 86_400).optional(),
  }),
  response: userResponse,
  summary: "Ban a user: refuse their sign-ins and revoke their sessions, for a time or until unbanned",
  tags: ["Admin"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const admin = requirePermission(ctx, { user: ["ban"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_BAN_USERS);
    if (body.userId === admin.user.id) throw new APIError("BAD_REQUEST", ADMIN_MESSAGES.YOU_CANNOT_BAN_YOURSELF);
    const now = runtime.now();
    const expiresIn = body.banExpiresIn ?? runtime.config.admin.defaultBanExpiresIn;
    const user = await runtime.stores.transaction(async (stores) => {
      const banned = await stores.users.updateUser(body.userId, {
        banned: true,
        banReason: body.banReason ?? runtime.config.admin.defaultBanReason,
        banExpires: expiresIn === undefined ? null : new Date(now.getTime() + expiresIn * 1000),
        updatedAt: now,
      });
      const sessionsRevoked = await stores.sessions.deleteUserSessions(body.userId);
      // An administrator's impersonations (sessions of other users) end with their ban.
      await endImpersonationsIfNoLongerAdmin(runtime.config, stores, banned, now);
      if (banned) {
        await emitEvent(stores, ctx, "user.banned", {
          userId: banned.id,
          data: { reason: banned.banReason ?? "", expiresAt: banned.banExpires?.toISOString() ?? null, sessionsRevoked },
        });
      }
      return banned;
    });
    if (!user) throw new APIError("NOT_FOUND", USER_MESSAGES.USER_NOT_FOUND);
    runtime.logger.info({ userId: user.id, by: admin.user.id, until: user.banExpires }, "user banned");
    return { user: publicUser(user) };
  },
});

export const unbanUser = defineAdminEndpoint({
  method: "POST",
  path: "/admin/unban-user",
  auth: "sensitive",
  body: z.object({ userId: userIdSchema }),
  response: userResponse,
  summary: "Lift a user's ban",
  tags: ["Admin"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    requirePermission(ctx, { user: ["ban"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_BAN_USERS);
    const user = await runtime.stores.transaction(async (stores) => {
      const before = await stores.users.findUserById(body.userId);
      const lifted = await stores.users.updateUser(body.userId, {
        banned: false,
        banReason: null,
        banExpires: null,
        updatedAt: runtime.now(),
      });
      // Only a ban that was there is lifted: unbanning a user who is not banned changes nothing.
      if (lifted && before?.banned) await emitEvent(stores, ctx, "user.unbanned", { userId: lifted.id, data: { expired: false } });
      return lifted;
    });
    if (!user) throw new APIError("NOT_FOUND", USER_MESSAGES.USER_NOT_FOUND);
    return { user: publicUser(user) };
  },
});

import { z } from "zod";
import { emitEvent } from "../events/emit.js";
import { publicSession, publicSessionSchema } from "../user/public.js";
import { defineAdminEndpoint } from "./deps.js";
import { findTargetUser, requirePermission, userIdSchema } from "./guard.js";
import { ADMIN_MESSAGES } from "./messages.js";
import { resetModuleCredentials } from "../user/credentials-reset.js";

const successSchema = z.object({ success: z.boolean() });

export const listUserSessions = defineAdminEndpoint({
  method: "POST",
  path: "/admin/list-user-sessions",
  auth: "sensitive",
  body: z.object({ userId: userIdSchema }),
  response: z.object({ sessions: z.array(publicSessionSchema) }),
  summary: "A user's unexpired sessions, impersonations included",
  tags: ["Admin"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    requirePermission(ctx, { session: ["list"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS);
    const user = await findTargetUser(runtime, body.userId);
    const sessions = await runtime.stores.sessions.listUserSessions(user.id, runtime.now());
    return { sessions: sessions.map(publicSession) };
  },
});

export const revokeUserSession = defineAdminEndpoint({
  method: "POST",
  path: "/admin/revoke-user-session",
  changesSession: true,
  auth: "sensitive",
  body: z.object({ sessionToken: z.string().min(1).max(256) }),
  response: successSchema,
  summary: "Revoke any user's session by its token",
  tags: ["Admin"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const admin = requirePermission(ctx, { session: ["revoke"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS);
    await runtime.stores.transaction(async (stores) => {
      const ended = await stores.sessions.deleteSessionReturning(body.sessionToken);
      if (!ended) return;
      await emitEvent(stores, ctx, "session.revoked", {
        userId: ended.userId,
        data: { scope: "one", count: 1, sessionId: ended.id },
      });
    });
    if (body.sessionToken === admin.session.token) runtime.sessions.clearSessionCookies(ctx);
    return { success: true };
  },
});

export const revokeUserSessions = defineAdminEndpoint({
  method: "POST",
  path: "/admin/revoke-user-sessions",
  changesSession: true,
  auth: "sensitive",
  body: z.object({ userId: userIdSchema }),
  response: successSchema,
  summary: "Revoke every session of a user",
  tags: ["Admin"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const admin = requirePermission(ctx, { session: ["revoke"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS);
    // An administrator's "sign out everywhere" for the user: the modules end what it must (trusted devices).
    await runtime.stores.transaction(async (stores) => {
      const count = await stores.sessions.deleteUserSessions(body.userId);
      await resetModuleCredentials(runtime, stores, body.userId, "sessions-revoked");
      await emitEvent(stores, ctx, "session.revoked", { userId: body.userId, data: { scope: "all", count } });
    });
    if (body.userId === admin.user.id) runtime.sessions.clearSessionCookies(ctx);
    return { success: true };
  },
});

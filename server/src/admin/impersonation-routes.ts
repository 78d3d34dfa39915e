import { z } from "zod";
import { isBanned } from "../credentials/rules.js";
import { signIn } from "../session/sign-in.js";
import { emitEvent } from "../events/emit.js";
import { defineEndpoint } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import { publicSession, publicUser, sessionDataSchema } from "../user/public.js";
import { findTargetUser, requirePermission, userIdSchema } from "./guard.js";
import { impersonationRefusal } from "./impersonations.js";
import { ADMIN_MESSAGES } from "./messages.js";


/**
 * Opens a session as another user, marked impersonatedBy and lasting admin.impersonationSessionDuration (never
 * extended: it is a remember-me-off session). The administrator's own session is kept aside in the signed
 * admin_session cookie and comes back with stop-impersonating. It ends early when the administrator is banned,
 * removed or stops being one (impersonations.ts).
 */
export const impersonateUser = defineEndpoint({
  method: "POST",
  path: "/admin/impersonate-user",
  changesSession: true,
  auth: "sensitive",
  body: z.object({ userId: userIdSchema }),
  response: sessionDataSchema,
  summary: "Act as another user for a while (their sessions list does not show it)",
  tags: ["Admin"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const options = runtime.config.admin;
    const admin = requirePermission(ctx, { user: ["impersonate"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS);
    const target = await findTargetUser(runtime, body.userId);
    // An administrator (by role or by adminUserIds) is impersonated only with allowImpersonatingAdmins, by anyone.
    // A ban is checked below by the one way in (signIn), which also lifts one that has run out.
    if (impersonationRefusal(options, admin.user, target, runtime.now()) === "administrator") {
      throw new APIError("FORBIDDEN", ADMIN_MESSAGES.YOU_CANNOT_IMPERSONATE_ADMINS);
    }
    // The one way in (session/sign-in.ts), as method "impersonation": the target's ban check (403 BANNED_USER, a
    // ban that has run out lifted), the sign-in policies (told it is an impersonation), the session. It is not
    // the target's own sign-in: the last-used cookie and user.lastLoginMethod are left alone.
    const expiresAt = new Date(runtime.now().getTime() + options.impersonationSessionDuration * 1000);
    const adminToken = admin.session.token;
    const { user, session } = await signIn(ctx, target, {
      method: "impersonation",
      impersonation: { by: admin.user.id, expiresAt },
    });
    runtime.sessions.setAdminSessionCookie(ctx, adminToken);
    runtime.logger.info({ userId: user.id, by: admin.user.id }, "impersonation started");
    return { session: publicSession(session), user: publicUser(user) };
  },
});

export const stopImpersonating = defineEndpoint({
  method: "POST",
  path: "/admin/stop-impersonating",
  changesSession: true,
  auth: "sensitive",
  body: z.object({}).optional(),
  response: sessionDataSchema,
  summary: "End an impersonation and return to the administrator's own session",
  tags: ["Admin"],
  async handler(ctx) {
    const { runtime } = ctx;
    const current = ctx.session!;
    const adminId = current.session.impersonatedBy;
    if (!adminId) throw new APIError("BAD_REQUEST", ADMIN_MESSAGES.YOU_ARE_NOT_IMPERSONATING_ANYONE);
    const kept = runtime.sessions.adminSessionOf(ctx);
    const admin = kept ? await runtime.stores.sessions.findSessionAndUser(kept.token) : null;
    const now = runtime.now();
    if (!kept || !admin || admin.user.id !== adminId || admin.session.expiresAt <= now || isBanned(admin.user, now)) {
      throw new APIError("BAD_REQUEST", ADMIN_MESSAGES.FAILED_TO_FIND_ADMIN_SESSION);
    }
    await runtime.stores.transaction(async (stores) => {
      const ended = await stores.sessions.deleteSessionReturning(current.session.token);
      if (!ended) return;
      await emitEvent(stores, ctx, "impersonation.stopped", {
        userId: current.user.id,
        actorId: adminId,
        data: { sessionId: ended.id },
      });
    });
    runtime.sessions.restoreAdminSession(ctx, admin, kept.dontRemember);
    runtime.logger.info({ userId: current.user.id, by: adminId }, "impersonation stopped");
    return { session: publicSession(admin.session), user: publicUser(admin.user) };
  },
});

import { z } from "zod";
import { emitEvent } from "../events/emit.js";
import { defineEndpoint } from "../http/endpoint.js";
import type { SessionAndUser } from "../storage/sessions.js";
import { publicSession, publicSessionSchema, publicUser, sessionDataSchema, statusSchema } from "../user/public.js";
import { resetModuleCredentials } from "../user/credentials-reset.js";

/** Query booleans: "true"/"1"/"" mean true, "false"/"0" false; anything else is a validation error. */
export const queryBoolean = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0", ""])])
  .transform((v) => v === true || v === "true" || v === "1" || v === "");

/** The get-session answer: the session and its user, or null. */
export function sessionAnswer(data: SessionAndUser | null) {
  return data ? { session: publicSession(data.session), user: publicUser(data.user) } : null;
}

export const getSession = defineEndpoint({
  method: "GET",
  path: "/get-session",
  auth: "none",
  query: z.object({
    disableCookieCache: queryBoolean.optional(),
    disableRefresh: queryBoolean.optional(),
  }),
  response: sessionDataSchema.nullable(),
  summary: "The current session and its user, or null",
  tags: ["Session"],
  async handler(ctx) {
    const data = await ctx.runtime.sessions.readSession(ctx, {
      disableCookieCache: ctx.query.disableCookieCache ?? false,
      refresh: !(ctx.query.disableRefresh ?? false),
    });
    return sessionAnswer(data);
  },
});

export const signOut = defineEndpoint({
  method: "POST",
  path: "/sign-out",
  changesSession: true,
  auth: "none",
  body: z.object({}).optional(),
  response: z.object({ success: z.boolean() }),
  summary: "Sign out: delete the current session and clear its cookies",
  tags: ["Session"],
  async handler(ctx) {
    const token = ctx.runtime.sessions.sessionTokenOf(ctx);
    if (token) {
      await ctx.runtime.stores.transaction(async (stores) => {
        const ended = await stores.sessions.deleteSessionReturning(token);
        if (!ended) return;
        await emitEvent(stores, ctx, "session.signed_out", {
          userId: ended.userId,
          actorId: ended.impersonatedBy ?? ended.userId,
          data: { sessionId: ended.id },
        });
      });
    }
    ctx.runtime.sessions.clearSessionCookies(ctx);
    // What a module keeps for this browser (a pending second step) ends with the sign-out too.
    for (const module of ctx.runtime.modules) await module.onSignOut?.(ctx);
    return { success: true };
  },
});

export const listSessions = defineEndpoint({
  method: "GET",
  path: "/list-sessions",
  auth: "sensitive",
  response: z.array(publicSessionSchema),
  summary: "The signed-in user's unexpired sessions",
  tags: ["Session"],
  async handler(ctx) {
    const sessions = await ctx.runtime.stores.sessions.listUserSessions(ctx.session!.user.id, ctx.runtime.now());
    // Sessions an administrator opened while impersonating the user are not the user's to see.
    return sessions.filter((s) => !s.impersonatedBy).map(publicSession);
  },
});

export const revokeSession = defineEndpoint({
  method: "POST",
  path: "/revoke-session",
  changesSession: true,
  auth: "sensitive",
  body: z.object({ token: z.string().min(1).max(256) }),
  response: statusSchema,
  summary: "Revoke one of the signed-in user's sessions by its token",
  tags: ["Session"],
  async handler(ctx) {
    const { user, session } = ctx.session!;
    await ctx.runtime.stores.transaction(async (stores) => {
      const ended = await stores.sessions.deleteSessionReturning(ctx.body.token, user.id);
      if (!ended) return;
      await emitEvent(stores, ctx, "session.revoked", {
        userId: user.id,
        data: { scope: "one", count: 1, sessionId: ended.id },
      });
    });
    if (ctx.body.token === session.token) ctx.runtime.sessions.clearSessionCookies(ctx);
    return { status: true };
  },
});

export const revokeSessions = defineEndpoint({
  method: "POST",
  path: "/revoke-sessions",
  changesSession: true,
  auth: "sensitive",
  body: z.object({}).optional(),
  response: statusSchema,
  summary: "Revoke every session of the signed-in user, this one included",
  tags: ["Session"],
  async handler(ctx) {
    const { runtime } = ctx;
    const userId = ctx.session!.user.id;
    // "Sign out everywhere": the modules end what it must too (trusted devices, pending second steps).
    await runtime.stores.transaction(async (stores) => {
      const count = await stores.sessions.deleteUserSessions(userId);
      await resetModuleCredentials(runtime, stores, userId, "sessions-revoked");
      await emitEvent(stores, ctx, "session.revoked", { userId, data: { scope: "all", count } });
    });
    runtime.sessions.clearSessionCookies(ctx);
    return { status: true };
  },
});

export const revokeOtherSessions = defineEndpoint({
  method: "POST",
  path: "/revoke-other-sessions",
  auth: "sensitive",
  body: z.object({}).optional(),
  response: statusSchema,
  summary: "Revoke every session of the signed-in user except this one",
  tags: ["Session"],
  async handler(ctx) {
    const { user, session } = ctx.session!;
    // Signing out every other browser: their trusted devices end as well (this one's too: README "Second factors").
    await ctx.runtime.stores.transaction(async (stores) => {
      const count = await stores.sessions.deleteUserSessions(user.id, session.token);
      await resetModuleCredentials(ctx.runtime, stores, user.id, "sessions-revoked");
      await emitEvent(stores, ctx, "session.revoked", { userId: user.id, data: { scope: "others", count } });
    });
    return { status: true };
  },
});

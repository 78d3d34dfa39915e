import { z } from "zod";
import { insertUserWithPassword, setCredentialPassword } from "../credentials/credential-account.js";
import { HTTP_MESSAGES } from "../http/messages.js";
import { isUniqueViolation } from "../storage/constraint-errors.js";
import { checkNewPassword } from "../credentials/rules.js";
import { usernameTakenError } from "../credentials/username.js";
import { APIError } from "../http/errors.js";
import { USER_MESSAGES } from "../user/messages.js";
import { publicUser, publicUserSchema, statusSchema } from "../user/public.js";
import { nameSchema } from "../user/fields.js";
import { newUserRecord } from "../user/new-user.js";
import { removeUserAndData } from "../user/remove-user.js";
import { isAdministrator } from "./access.js";
import { defineAdminEndpoint, type AdminContext, type AdminStores } from "./deps.js";
import { buildEventRow, emitEvent, eventInsert } from "../events/emit.js";
import type { User } from "../storage/models.js";
import { findTargetUser, requirePermission, roleInputSchema, toRoleString, userIdSchema } from "./guard.js";
import { endImpersonationsIfNoLongerAdmin, impersonationRefusal } from "./impersonations.js";
import { ADMIN_MESSAGES } from "./messages.js";
import { adminUserData, checkAdminUserChanges } from "./user-changes.js";
import { notifyEmailChanged, notifyPasswordChanged } from "../verification/notices.js";
import { resetModuleCredentials } from "../user/credentials-reset.js";

const TAGS = ["Admin"] as const;

/** Fields whose change has an event of its own (the rest are named in user.updated). */
const OWN_EVENT_FIELDS = new Set(["role", "banned", "banReason", "banExpires", "email"]);

/**
 * An administrator's update-user, as events in its transaction: a role change, a ban or its lifting, an address
 * change each have their own; the other fields changed are named in one user.updated.
 */
async function emitAdminUpdateEvents(ctx: AdminContext, stores: AdminStores, before: User, after: User, fields: string[]) {
  const userId = after.id;
  if (fields.includes("role") && before.role !== after.role) {
    await emitEvent(stores, ctx, "user.role_changed", { userId, data: { from: before.role, to: after.role ?? "" } });
  }
  if (!before.banned && after.banned) {
    const expiresAt = after.banExpires ? after.banExpires.toISOString() : null;
    await emitEvent(stores, ctx, "user.banned", { userId, data: { reason: after.banReason ?? "", expiresAt } });
  } else if (before.banned && !after.banned) {
    await emitEvent(stores, ctx, "user.unbanned", { userId, data: { expired: false } });
  }
  if (before.email !== after.email) {
    await emitEvent(stores, ctx, "email.changed", { userId, data: { from: before.email, to: after.email } });
  }
  const others = fields.filter((field) => !OWN_EVENT_FIELDS.has(field));
  if (others.length > 0) await emitEvent(stores, ctx, "user.updated", { userId, data: { fields: others } });
}
const userResponse = z.object({ user: publicUserSchema });
const successSchema = z.object({ success: z.boolean() });

export const createUser = defineAdminEndpoint({
  method: "POST",
  path: "/admin/create-user",
  // Checked in the handler: over HTTP a session with user:create is required; in-process calls are trusted.
  auth: "none",
  body: z.object({
    email: z.string().max(1024),
    password: z.string().min(1).max(4096).optional(),
    name: nameSchema,
    role: roleInputSchema.optional(),
    data: adminUserData.optional(),
  }),
  response: userResponse,
  summary: "Create a user (with a password, or none); role defaults to admin.defaultRole",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const current = await ctx.getSession({ disableCookieCache: true });
    if (!current && !ctx.server) throw new APIError("UNAUTHORIZED", HTTP_MESSAGES.UNAUTHORIZED);
    ctx.session = current;
    if (current) requirePermission(ctx, { user: ["create"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS);
    const changes = await checkAdminUserChanges(ctx, {
      ...body.data,
      email: body.email,
      name: body.name,
      ...(body.role !== undefined ? { role: body.role } : {}),
    });
    if (body.password !== undefined) checkNewPassword(runtime, body.password);
    const hash = body.password === undefined ? null : await runtime.hasher.hash(body.password);
    const user = newUserRecord(
      { role: runtime.config.admin.defaultRole, ...changes, name: body.name, email: changes.email! },
      runtime.now(),
    );
    // The in-process API (no session) creates as the system: actor null.
    const created = eventInsert(
      runtime.stores,
      buildEventRow(ctx, "user.created", { userId: user.id, data: { method: "admin", email: user.email } }),
    );
    await insertUserWithPassword(runtime, user, hash, undefined, created).catch((error: unknown) => {
      throw isUniqueViolation(error) ? new APIError("BAD_REQUEST", ADMIN_MESSAGES.USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL) : error;
    });
    runtime.logger.info({ userId: user.id, by: current?.user.id ?? "server" }, "user created by an administrator");
    return { user: publicUser(user) };
  },
});

export const getUser = defineAdminEndpoint({
  method: "GET",
  path: "/admin/get-user",
  auth: "sensitive",
  query: z.object({ id: userIdSchema }),
  response: publicUserSchema.extend({
    administrator: z.boolean().describe("Whether the user is a site administrator (admin.adminRoles or adminUserIds)"),
    impersonable: z.boolean().describe("Whether impersonate-user would accept this user from the caller now"),
  }),
  summary: "One user by id, with whether they are an administrator and whether the caller may impersonate them",
  tags: TAGS,
  async handler(ctx) {
    const admin = requirePermission(ctx, { user: ["get"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_GET_USER);
    const user = await findTargetUser(ctx.runtime, ctx.query.id);
    const { config, now } = ctx.runtime;
    // The server's own rules, so an application offers impersonation only where it will be accepted.
    return {
      ...publicUser(user),
      administrator: isAdministrator(config.admin, user),
      impersonable: impersonationRefusal(config.admin, admin.user, user, now()) === null,
    };
  },
});

export const adminUpdateUser = defineAdminEndpoint({
  method: "POST",
  path: "/admin/update-user",
  auth: "sensitive",
  body: z.object({ userId: userIdSchema, data: adminUserData }),
  response: publicUserSchema,
  summary: "Update a user's fields (a role needs user:set-role, ban fields user:ban); banning revokes their sessions",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const admin = requirePermission(ctx, { user: ["update"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS);
    if (Object.keys(body.data).length === 0) throw new APIError("BAD_REQUEST", ADMIN_MESSAGES.NO_DATA_TO_UPDATE);
    const target = await findTargetUser(runtime, body.userId);
    const changes = await checkAdminUserChanges(ctx, body.data, target.id);
    // A new address is unproven: it counts as unverified unless the same request says it is verified.
    if (changes.email !== undefined && changes.email !== target.email && changes.emailVerified === undefined) {
      changes.emailVerified = false;
    }
    if (changes.banned && target.id === admin.user.id) {
      throw new APIError("BAD_REQUEST", ADMIN_MESSAGES.YOU_CANNOT_BAN_YOURSELF);
    }
    const updated = await runtime.stores
      .transaction(async (stores) => {
        const now = runtime.now();
        const user = await stores.users.updateUser(target.id, { ...changes, updatedAt: now });
        if (changes.banned) await stores.sessions.deleteUserSessions(target.id);
        // Banned or demoted: the impersonations this user holds as an administrator end with the change.
        await endImpersonationsIfNoLongerAdmin(runtime.config, stores, user, now);
        if (user) await emitAdminUpdateEvents(ctx, stores, target, user, Object.keys(changes));
        return user;
      })
      .catch((error: unknown) => {
        if (!isUniqueViolation(error)) throw error;
        throw changes.username !== undefined
          ? usernameTakenError()
          : new APIError("BAD_REQUEST", ADMIN_MESSAGES.USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL);
      });
    if (!updated) throw new APIError("NOT_FOUND", USER_MESSAGES.USER_NOT_FOUND);
    // A proven old address hears of the change (an unproven one may not be the user's: it is not mailed).
    if (updated.email !== target.email && target.emailVerified) {
      notifyEmailChanged(runtime, ctx.headers, updated, target.email, updated.email);
    }
    return publicUser(updated);
  },
});

export const setRole = defineAdminEndpoint({
  method: "POST",
  path: "/admin/set-role",
  auth: "sensitive",
  body: z.object({ userId: userIdSchema, role: roleInputSchema }),
  response: userResponse,
  summary: "Set a user's site role (several may be given, stored comma-joined)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    requirePermission(ctx, { user: ["set-role"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE);
    const role = toRoleString(runtime, body.role);
    const now = runtime.now();
    const user = await runtime.stores.transaction(async (stores) => {
      const before = await stores.users.findUserById(body.userId);
      const updated = await stores.users.updateUser(body.userId, { role, updatedAt: now });
      // Demoted from administrator: the impersonations they hold end with the change.
      await endImpersonationsIfNoLongerAdmin(runtime.config, stores, updated, now);
      if (before && updated && before.role !== updated.role) {
        await emitEvent(stores, ctx, "user.role_changed", { userId: updated.id, data: { from: before.role, to: role } });
      }
      return updated;
    });
    if (!user) throw new APIError("NOT_FOUND", USER_MESSAGES.USER_NOT_FOUND);
    return { user: publicUser(user) };
  },
});

export const removeUser = defineAdminEndpoint({
  method: "POST",
  path: "/admin/remove-user",
  auth: "sensitive",
  body: z.object({ userId: userIdSchema }),
  response: successSchema,
  summary: "Delete a user with their sessions and accounts",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const admin = requirePermission(ctx, { user: ["delete"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS);
    if (body.userId === admin.user.id) throw new APIError("BAD_REQUEST", ADMIN_MESSAGES.YOU_CANNOT_REMOVE_YOURSELF);
    const target = await findTargetUser(runtime, body.userId);
    await removeUserAndData(runtime, target, ctx);
    return { success: true };
  },
});

export const setUserPassword = defineAdminEndpoint({
  method: "POST",
  path: "/admin/set-user-password",
  auth: "sensitive",
  body: z.object({ userId: userIdSchema, newPassword: z.string().min(1).max(4096) }),
  response: statusSchema,
  summary: "Set a user's password (creating their credential account when they have none)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    requirePermission(ctx, { user: ["set-password"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD);
    checkNewPassword(runtime, body.newPassword);
    const user = await findTargetUser(runtime, body.userId);
    const hash = await runtime.hasher.hash(body.newPassword);
    await runtime.stores.transaction(async (stores) => {
      await setCredentialPassword(stores, user.id, hash, runtime.now());
      await resetModuleCredentials(runtime, stores, user.id, "password-changed");
      await emitEvent(stores, ctx, "password.set", { userId: user.id, data: { byAdministrator: true } });
    });
    notifyPasswordChanged(runtime, ctx.headers, user);
    return { status: true };
  },
});

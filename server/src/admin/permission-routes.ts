import { z } from "zod";
import { APIError } from "../http/errors.js";
import { HTTP_MESSAGES } from "../http/messages.js";
import type { User } from "../storage/models.js";
import { hasPermission, knownRoles } from "./access.js";
import { defineAdminEndpoint } from "./deps.js";
import { requirePermission } from "./guard.js";
import { ADMIN_FIXED_CODES, ADMIN_MESSAGES } from "./messages.js";

/**
 * Whether a role allows some actions. Over HTTP it always answers for the caller's own roles (userId and role
 * are ignored, so nobody learns another user's role); in-process calls may ask about a userId or a role.
 */
export const userHasPermission = defineAdminEndpoint({
  method: "POST",
  path: "/admin/has-permission",
  auth: "none",
  body: z.object({
    userId: z.string().min(1).max(256).optional(),
    role: z.string().min(1).max(1024).optional(),
    permissions: z.record(z.string().max(64), z.array(z.string().max(64)).max(32)).optional(),
  }),
  response: z.object({ error: z.null(), success: z.boolean() }),
  summary: "Whether the caller's roles allow every action asked for ({ resource: [actions] })",
  tags: ["Admin"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    if (!body.permissions || Object.keys(body.permissions).length === 0) {
      throw new APIError("BAD_REQUEST", ADMIN_MESSAGES.INVALID_PERMISSION_CHECK_NO_PERMISSIONS_WERE_PASSED);
    }
    const current = await ctx.getSession({ disableCookieCache: true });
    let subject: Pick<User, "id" | "role"> | null = current?.user ?? null;
    if (!ctx.server) {
      if (!subject) throw new APIError("UNAUTHORIZED", HTTP_MESSAGES.UNAUTHORIZED);
    } else if (body.role !== undefined) {
      subject = { id: "", role: body.role };
    } else if (body.userId !== undefined) {
      subject = await runtime.stores.users.findUserById(body.userId);
      if (!subject) throw new APIError("BAD_REQUEST", ADMIN_FIXED_CODES.USER_NOT_FOUND);
    } else if (!subject) {
      throw new APIError("BAD_REQUEST", ADMIN_MESSAGES.USER_ID_OR_ROLE_IS_REQUIRED);
    }
    return { error: null, success: hasPermission(runtime.config.admin, subject, body.permissions) };
  },
});

/**
 * The site roles set-role and create-user accept (admin.defaultRole, "user" and admin.adminRoles), each with whether
 * it makes its holder an administrator, so a console offers only what the service will take.
 */
export const listRoles = defineAdminEndpoint({
  method: "GET",
  path: "/admin/list-roles",
  auth: "sensitive",
  response: z.object({
    roles: z.array(z.object({ name: z.string(), administrator: z.boolean() })),
    defaultRole: z.string().describe("The role a new user gets when none is named (admin.defaultRole)"),
  }),
  summary: "The site roles that may be given to a user, and which of them are administrators'",
  tags: ["Admin"],
  async handler(ctx) {
    requirePermission(ctx, { user: ["list"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_LIST_USERS);
    const { admin } = ctx.runtime.config;
    const roles = [...knownRoles(admin)].map((name) => ({ name, administrator: admin.adminRoles.includes(name) }));
    return { roles, defaultRole: admin.defaultRole };
  },
});

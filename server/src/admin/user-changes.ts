import { z } from "zod";
import { CREDENTIAL_MESSAGES } from "../credentials/messages.js";
import { displayUsernameSchema, usernameChanges, usernameSchema } from "../credentials/username.js";
import { toLanguage } from "../email/language.js";
import { APIError, fillMessage } from "../http/errors.js";
import type { UserChanges } from "../storage/users.js";
import { isValidEmail, normalizeEmail } from "../user/email-address.js";
import { imageSchema, nameSchema } from "../user/fields.js";
import { USER_FIXED_CODES, USER_MESSAGES } from "../user/messages.js";
import { hasPermission, type Permissions } from "./access.js";
import type { AdminContext } from "./deps.js";
import { roleInputSchema, toRoleString } from "./guard.js";
import { ADMIN_MESSAGES } from "./messages.js";

/** The user fields an administrator may set, on create-user (`data`) and update-user (`data`). */
export const adminUserData = z.looseObject({
  name: nameSchema.optional(),
  email: z.string().max(1024).optional(),
  emailVerified: z.boolean().optional(),
  image: imageSchema.optional(),
  username: usernameSchema.optional(),
  displayUsername: displayUsernameSchema.optional(),
  role: roleInputSchema.optional(),
  banned: z.boolean().optional(),
  banReason: z.string().max(1024).nullable().optional(),
  banExpires: z.iso.datetime({ offset: true }).nullable().optional(),
  lang: z.union([z.string().max(16), z.number().int()]).optional(),
});

type AdminUserData = z.output<typeof adminUserData>;
const SETTABLE = new Set(Object.keys(adminUserData.shape));
const BAN_FIELDS = ["banned", "banReason", "banExpires"] as const;

function requireAlso(ctx: AdminContext, permissions: Permissions, refusal: string): void {
  // In-process calls without a session (the create-admin command) are trusted.
  if (!ctx.session) return;
  if (!hasPermission(ctx.runtime.config.admin, ctx.session.user, permissions)) throw new APIError("FORBIDDEN", refusal);
}

/**
 * Checks what an administrator asks to set on a user (a new one when `targetId` is undefined) and returns it as
 * storage changes: fields that are not settable are refused, a role needs user:set-role, ban fields need user:ban,
 * the email and username follow the same rules as everywhere else.
 */
export async function checkAdminUserChanges(
  ctx: AdminContext,
  data: AdminUserData,
  targetId?: string,
): Promise<Omit<UserChanges, "updatedAt">> {
  const { runtime } = ctx;
  if (data.password !== undefined) throw new APIError("BAD_REQUEST", ADMIN_MESSAGES.PASSWORD_CANNOT_BE_UPDATED_THROUGH_UPDATE_USER_USE_THE_SET_USER_PASSWORD_ENDPOINT_INSTEAD);
  if (data.id !== undefined) throw new APIError("BAD_REQUEST", ADMIN_MESSAGES.USER_ID_CANNOT_BE_UPDATED);
  for (const key of Object.keys(data)) {
    if (!SETTABLE.has(key)) {
      throw new APIError("BAD_REQUEST", fillMessage(USER_FIXED_CODES.FIELD_NOT_ALLOWED, { field: key }), { code: "FIELD_NOT_ALLOWED" });
    }
  }
  if (data.role !== undefined) requireAlso(ctx, { user: ["set-role"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE);
  if (BAN_FIELDS.some((field) => data[field] !== undefined)) {
    requireAlso(ctx, { user: ["ban"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_BAN_USERS);
  }

  const changes: Omit<UserChanges, "updatedAt"> = {};
  if (data.name !== undefined) changes.name = data.name;
  if (data.image !== undefined) changes.image = data.image;
  if (data.emailVerified !== undefined) changes.emailVerified = data.emailVerified;
  if (data.email !== undefined) {
    const email = normalizeEmail(data.email);
    if (!isValidEmail(email)) throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.INVALID_EMAIL);
    const holder = await runtime.stores.users.findUserByEmail(email);
    if (holder && holder.id !== targetId) {
      throw new APIError("BAD_REQUEST", ADMIN_MESSAGES.USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL);
    }
    changes.email = email;
  }
  Object.assign(changes, await usernameChanges(runtime, data, targetId));
  if (data.role !== undefined) changes.role = toRoleString(runtime, data.role);
  if (data.lang !== undefined) {
    const lang = toLanguage(data.lang);
    if (!lang) throw new APIError("BAD_REQUEST", USER_MESSAGES.UNSUPPORTED_LANGUAGE);
    changes.lang = lang;
  }
  if (data.banned !== undefined) changes.banned = data.banned;
  if (data.banReason !== undefined) changes.banReason = data.banReason;
  if (data.banExpires !== undefined) changes.banExpires = data.banExpires === null ? null : new Date(data.banExpires);
  return changes;
}

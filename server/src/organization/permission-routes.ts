import { z } from "zod";
import { APIError } from "../http/errors.js";
import { checkAccess } from "./access-control.js";
import { defineOrganizationEndpoint } from "./deps.js";
import { callerOf, forbidden, organizationIdOf, requireActingMember } from "./membership.js";
import { ORG_MESSAGES } from "./messages.js";
import { idSchema } from "./schemas.js";

const permissionsSchema = z
  .record(z.string().min(1).max(64), z.array(z.string().min(1).max(64)).min(1).max(16))
  .refine((value) => Object.keys(value).length <= 16, "Too many resources");

export const hasPermission = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/has-permission",
  auth: "session",
  body: z.object({
    organizationId: idSchema.optional(),
    permissions: permissionsSchema.optional(),
    /** The singular form older clients send: accepted, never granted (use permissions). */
    permission: permissionsSchema.optional(),
  }),
  response: z.object({ error: z.string().nullable(), success: z.boolean() }),
  summary: "Whether the signed-in user's role allows the given actions, e.g. { permissions: { member: [\"delete\"] } }",
  tags: ["Organization"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const organizationId = organizationIdOf(ctx, body.organizationId);
    if (!organizationId) throw new APIError("BAD_REQUEST", ORG_MESSAGES.NO_ACTIVE_ORGANIZATION);
    const member = await requireActingMember(
      runtime,
      organizationId,
      callerOf(ctx).user.id,
      forbidden(ORG_MESSAGES.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION),
    );
    if (!body.permissions || Object.keys(body.permissions).length === 0) return { error: null, success: false };
    return checkAccess(member.role, body.permissions);
  },
});

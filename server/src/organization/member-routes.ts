import { z } from "zod";
import { actorOf, emitEvent } from "../events/emit.js";
import { generateId } from "../crypto/random.js";
import { APIError } from "../http/errors.js";
import { isUniqueViolation } from "../storage/constraint-errors.js";
import { normalizeEmail } from "../user/email-address.js";
import { USER_MESSAGES } from "../user/messages.js";
import { hasRole } from "./access-control.js";
import { defineOrganizationEndpoint } from "./deps.js";
import {
  badRequest,
  callerOf,
  countOtherCreators,
  findNamedOrganization,
  forbidden,
  inTransaction,
  isCreator,
  organizationIdOf,
  reissueSession,
  requireActingMember,
  requireKnownRoles,
  requireMember,
  requireOrganization,
  requirePermission,
} from "./membership.js";
import { ORG_MESSAGES } from "./messages.js";
import { memberSchema, memberWithUserSchema, publicMember, publicMemberWithUser } from "./public.js";
import { idSchema, queryInt, roleInputSchema, slugSchema } from "./schemas.js";
import type { Member } from "./store/index.js";

const TAGS = ["Organization members"] as const;

export const leaveOrganization = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/leave",
  changesSession: true,
  auth: "session",
  body: z.object({ organizationId: idSchema }),
  response: memberWithUserSchema,
  summary: "Leave an organization (its only owner cannot)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const caller = callerOf(ctx);
    const left = await inTransaction(runtime, async (stores) => {
      // Under the organization's lock, so two owners leaving at once cannot leave it with none.
      await stores.organizations.lockOrganization(body.organizationId);
      const member = await stores.members.findMemberByUserId(body.organizationId, caller.user.id);
      if (!member) throw new APIError("BAD_REQUEST", ORG_MESSAGES.MEMBER_NOT_FOUND);
      const lastOwner =
        isCreator(runtime, member.role) &&
        (await countOtherCreators(runtime, stores, body.organizationId, member.id)) === 0;
      if (lastOwner) throw new APIError("BAD_REQUEST", ORG_MESSAGES.YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER);
      await stores.teams.deleteUserTeamMemberships(body.organizationId, caller.user.id);
      await stores.members.deleteMember(body.organizationId, member.id);
      await stores.sessions.clearActiveOrganization(body.organizationId, caller.user.id);
      await emitEvent(stores, ctx, "member.removed", {
        userId: caller.user.id,
        organizationId: body.organizationId,
        data: { memberId: member.id, role: member.role, left: true },
      });
      return member;
    });
    if (caller.session.activeOrganizationId === body.organizationId) {
      reissueSession(ctx, caller, { activeOrganizationId: null, activeTeamId: null });
    }
    return publicMemberWithUser(left);
  },
});

export const removeMember = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/remove-member",
  changesSession: true,
  auth: "session",
  body: z.object({ memberIdOrEmail: z.string().min(1).max(1024), organizationId: idSchema.optional() }),
  response: z.object({ member: memberWithUserSchema }),
  summary: "Remove a member by member id or email (owner, admin; only an owner removes an owner)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const caller = callerOf(ctx);
    const organizationId = organizationIdOf(ctx, body.organizationId);
    if (!organizationId) throw new APIError("BAD_REQUEST", ORG_MESSAGES.NO_ACTIVE_ORGANIZATION);
    const actor = await requireActingMember(
      runtime,
      organizationId,
      caller.user.id,
      badRequest(ORG_MESSAGES.MEMBER_NOT_FOUND),
    );
    requirePermission(actor, { member: ["delete"] }, forbidden(ORG_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER));
    const removed = await inTransaction(runtime, async (stores) => {
      await stores.organizations.lockOrganization(organizationId);
      // Looked up within the caller's organization only: a member id of another organization is not found.
      const target = body.memberIdOrEmail.includes("@")
        ? await stores.members.findMemberByEmail(organizationId, normalizeEmail(body.memberIdOrEmail))
        : await stores.members.findOrganizationMember(organizationId, body.memberIdOrEmail);
      if (!target) throw new APIError("BAD_REQUEST", ORG_MESSAGES.MEMBER_NOT_FOUND);
      if (isCreator(runtime, target.role)) {
        // An admin cannot remove an owner; no one removes the last owner.
        if (!isCreator(runtime, actor.role)) throw new APIError("FORBIDDEN", ORG_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER);
        if ((await countOtherCreators(runtime, stores, organizationId, target.id)) === 0) {
          throw new APIError("BAD_REQUEST", ORG_MESSAGES.YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER);
        }
      }
      await stores.teams.deleteUserTeamMemberships(organizationId, target.userId);
      await stores.members.deleteMember(organizationId, target.id);
      await stores.sessions.clearActiveOrganization(organizationId, target.userId);
      await emitEvent(stores, ctx, "member.removed", {
        userId: target.userId,
        organizationId,
        data: { memberId: target.id, role: target.role, left: false },
      });
      return target;
    });
    if (removed.userId === caller.user.id && caller.session.activeOrganizationId === organizationId) {
      reissueSession(ctx, caller, { activeOrganizationId: null, activeTeamId: null });
    }
    return { member: publicMemberWithUser(removed) };
  },
});

export const updateMemberRole = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/update-member-role",
  auth: "session",
  body: z.object({ role: roleInputSchema, memberId: idSchema, organizationId: idSchema.optional() }),
  response: memberSchema,
  summary: "Change a member's role (owner, admin; only an owner changes an owner or grants ownership)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const caller = callerOf(ctx);
    const organizationId = organizationIdOf(ctx, body.organizationId);
    if (!organizationId) throw new APIError("BAD_REQUEST", ORG_MESSAGES.NO_ACTIVE_ORGANIZATION);
    const role = requireKnownRoles(body.role);
    const actor = await requireActingMember(
      runtime,
      organizationId,
      caller.user.id,
      badRequest(ORG_MESSAGES.MEMBER_NOT_FOUND),
    );
    const refuse = forbidden(ORG_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER);
    requirePermission(actor, { member: ["update"] }, refuse);
    const creatorRole = runtime.config.organization.creatorRole;
    const updated = await inTransaction(runtime, async (stores) => {
      await stores.organizations.lockOrganization(organizationId);
      const target = await stores.members.findOrganizationMember(organizationId, body.memberId);
      if (!target) throw new APIError("BAD_REQUEST", ORG_MESSAGES.MEMBER_NOT_FOUND);
      const wasCreator = hasRole(target.role, creatorRole);
      if ((wasCreator || hasRole(role, creatorRole)) && !isCreator(runtime, actor.role)) throw refuse();
      const demotesLastOwner =
        wasCreator &&
        !hasRole(role, creatorRole) &&
        (await countOtherCreators(runtime, stores, organizationId, target.id)) === 0;
      if (demotesLastOwner) throw new APIError("BAD_REQUEST", ORG_MESSAGES.YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER);
      const changed = await stores.members.updateMemberRole(organizationId, target.id, role);
      if (changed && target.role !== role) {
        await emitEvent(stores, ctx, "member.role_changed", {
          userId: target.userId,
          organizationId,
          data: { memberId: target.id, from: target.role, to: role },
        });
      }
      return changed;
    });
    if (!updated) throw new APIError("BAD_REQUEST", ORG_MESSAGES.MEMBER_NOT_FOUND);
    return publicMember(updated);
  },
});

export const addMember = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/add-member",
  // Server-side API only. With a session (cookie header) the call acts for that user and their role is checked.
  auth: "none",
  serverOnly: true,
  body: z.object({
    userId: idSchema,
    role: roleInputSchema,
    organizationId: idSchema.optional(),
    teamId: idSchema.optional(),
  }),
  response: memberSchema,
  summary: "Add a user to an organization directly, without an invitation (server-side API only)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const options = runtime.config.organization;
    const session = await ctx.getSession();
    const organizationId = body.organizationId ?? session?.session.activeOrganizationId ?? null;
    if (!organizationId) throw new APIError("BAD_REQUEST", ORG_MESSAGES.NO_ACTIVE_ORGANIZATION);
    await requireOrganization(runtime, organizationId);
    const role = requireKnownRoles(body.role);
    if (session) {
      const refuse = forbidden(ORG_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_MEMBER);
      const actor = await requireActingMember(
        runtime,
        organizationId,
        session.user.id,
        badRequest(ORG_MESSAGES.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION),
      );
      requirePermission(actor, { member: ["create"] }, refuse);
      if (isCreator(runtime, role) && !isCreator(runtime, actor.role)) throw refuse();
    }
    if (!(await runtime.stores.users.findUserById(body.userId))) {
      throw new APIError("BAD_REQUEST", USER_MESSAGES.USER_NOT_FOUND);
    }
    if (body.teamId !== undefined) {
      const team = options.teams.enabled ? await runtime.stores.teams.findTeamById(body.teamId) : null;
      if (!team || team.organizationId !== organizationId) {
        throw new APIError("BAD_REQUEST", ORG_MESSAGES.TEAM_NOT_FOUND);
      }
    }
    const now = runtime.now();
    const member: Member = { id: generateId(), organizationId, userId: body.userId, role, createdAt: now };
    const alreadyMember = () => new APIError("BAD_REQUEST", ORG_MESSAGES.USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION);
    try {
      await inTransaction(runtime, async (stores) => {
        await stores.organizations.lockOrganization(organizationId);
        if (await stores.members.findMemberByUserId(organizationId, body.userId)) throw alreadyMember();
        if ((await stores.members.countOrganizationMembers(organizationId)) >= options.membershipLimit) {
          throw new APIError("FORBIDDEN", ORG_MESSAGES.ORGANIZATION_MEMBERSHIP_LIMIT_REACHED);
        }
        await stores.members.createMember(member);
        await emitEvent(stores, ctx, "member.added", {
          userId: body.userId,
          organizationId,
          actorId: actorOf(session),
          data: { memberId: member.id, role },
        });
        if (body.teamId !== undefined) {
          const max = options.teams.maximumMembersPerTeam;
          if (max !== undefined && (await stores.teams.countTeamMembers(body.teamId)) >= max) {
            throw new APIError("FORBIDDEN", ORG_MESSAGES.TEAM_MEMBER_LIMIT_REACHED);
          }
          await stores.teams.createTeamMember({
            id: generateId(),
            teamId: body.teamId,
            userId: body.userId,
            createdAt: now,
          });
        }
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw alreadyMember();
      throw error;
    }
    return publicMember(member);
  },
});

export const getActiveMember = defineOrganizationEndpoint({
  method: "GET",
  path: "/organization/get-active-member",
  auth: "session",
  response: memberWithUserSchema,
  summary: "The signed-in user's membership of the active organization",
  tags: TAGS,
  async handler(ctx) {
    const caller = callerOf(ctx);
    const organizationId = caller.session.activeOrganizationId;
    if (!organizationId) throw new APIError("BAD_REQUEST", ORG_MESSAGES.NO_ACTIVE_ORGANIZATION);
    const member = await requireActingMember(
      ctx.runtime,
      organizationId,
      caller.user.id,
      badRequest(ORG_MESSAGES.MEMBER_NOT_FOUND),
    );
    return publicMemberWithUser(member);
  },
});

export const getActiveMemberRole = defineOrganizationEndpoint({
  method: "GET",
  path: "/organization/get-active-member-role",
  auth: "session",
  query: z.object({
    userId: idSchema.optional(),
    organizationId: idSchema.optional(),
    organizationSlug: slugSchema.optional(),
  }),
  response: z.object({ role: z.string() }),
  summary: "The role of the signed-in user (or of another member, by userId) in an organization",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, query } = ctx;
    const caller = callerOf(ctx);
    const organization = await findNamedOrganization(ctx, query);
    if (!organization) throw new APIError("BAD_REQUEST", ORG_MESSAGES.NO_ACTIVE_ORGANIZATION);
    const own = await requireActingMember(
      runtime,
      organization.id,
      caller.user.id,
      forbidden(ORG_MESSAGES.YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION),
    );
    if (query.userId === undefined || query.userId === caller.user.id) return { role: own.role };
    const other = await requireMember(
      runtime,
      organization.id,
      query.userId,
      badRequest(ORG_MESSAGES.MEMBER_NOT_FOUND),
    );
    return { role: other.role };
  },
});

export const listMembers = defineOrganizationEndpoint({
  method: "GET",
  path: "/organization/list-members",
  auth: "session",
  query: z.object({
    limit: queryInt(1, 1000).optional(),
    offset: queryInt(0, 1_000_000_000).optional(),
    sortBy: z.enum(["createdAt", "role", "name", "email"]).optional(),
    sortDirection: z.enum(["asc", "desc"]).optional(),
    filterField: z.enum(["role", "userId", "email"]).optional(),
    filterOperator: z.enum(["eq", "ne", "contains"]).optional(),
    filterValue: z.string().max(256).optional(),
    organizationId: idSchema.optional(),
    organizationSlug: slugSchema.optional(),
  }),
  response: z.object({ members: z.array(memberWithUserSchema), total: z.number() }),
  summary: "A page of an organization's members with their users, and how many there are in all",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, query } = ctx;
    const organization = await findNamedOrganization(ctx, query);
    if (!organization) throw new APIError("BAD_REQUEST", ORG_MESSAGES.NO_ACTIVE_ORGANIZATION);
    await requireActingMember(runtime, organization.id, callerOf(ctx).user.id, forbidden(ORG_MESSAGES.YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION));
    const filter =
      query.filterField !== undefined && query.filterValue !== undefined
        ? { field: query.filterField, operator: query.filterOperator ?? "eq", value: query.filterValue }
        : undefined;
    const { members, total } = await runtime.stores.members.listMembers(organization.id, {
      limit: query.limit ?? Math.min(runtime.config.organization.membershipLimit, 1000),
      offset: query.offset ?? 0,
      sortBy: query.sortBy ?? "createdAt",
      sortDirection: query.sortDirection ?? "asc",
      filter,
    });
    return { members: members.map(publicMemberWithUser), total };
  },
});

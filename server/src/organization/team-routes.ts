import { z } from "zod";
import { generateId } from "../crypto/random.js";
import { APIError } from "../http/errors.js";
import { isUniqueViolation } from "../storage/constraint-errors.js";
import { can } from "./access-control.js";
import { defineOrganizationEndpoint, type OrganizationStores } from "./deps.js";
import {
  badRequest,
  callerOf,
  forbidden,
  inTransaction,
  organizationIdOf,
  reissueSession,
  requireActingMember,
  requireCallerTeam,
  requireMember,
  requireOrganization,
  requirePermission,
  requireTeamsEnabled,
  sessionOrServer,
  splitTeamIds,
} from "./membership.js";
import { ORG_MESSAGES, ORG_SUCCESS_MESSAGES } from "./messages.js";
import { requireSecondFactorForOrganization } from "./second-factor-policy.js";
import { messageSchema, publicTeam, publicTeamMember, teamMemberSchema, teamSchema } from "./public.js";
import { idSchema, teamNameSchema } from "./schemas.js";
import type { Team } from "./store/index.js";

const TAGS = ["Organization teams"] as const;

/** Removes a deleted team's id from the pending invitations that named it. */
async function stripTeamFromInvitations(stores: OrganizationStores, organizationId: string, teamId: string): Promise<void> {
  for (const invitation of await stores.invitations.listPendingTeamInvitations(organizationId)) {
    const ids = splitTeamIds(invitation.teamId);
    if (!ids.includes(teamId)) continue;
    const rest = ids.filter((id) => id !== teamId);
    await stores.invitations.setInvitationTeams(invitation.id, rest.length ? rest.join(",") : null);
  }
}

export const createTeam = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/create-team",
  // A session over HTTP; trusted server-side calls may come without one (checked in the handler).
  auth: "none",
  body: z.object({ name: teamNameSchema, organizationId: idSchema.optional() }),
  response: teamSchema,
  summary: "Create a team in an organization (owner, admin; session required)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    requireTeamsEnabled(runtime);
    const session = await sessionOrServer(ctx);
    const organizationId = body.organizationId ?? session?.session.activeOrganizationId ?? null;
    if (!organizationId) throw new APIError("BAD_REQUEST", ORG_MESSAGES.NO_ACTIVE_ORGANIZATION);
    await requireOrganization(runtime, organizationId);
    if (session) {
      const member = await requireActingMember(
        runtime,
        organizationId,
        session.user.id,
        badRequest(ORG_MESSAGES.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION),
      );
      requirePermission(member, { team: ["create"] }, forbidden(ORG_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION));
    }
    const now = runtime.now();
    const team: Team = { id: generateId(), name: body.name, organizationId, createdAt: now, updatedAt: now };
    const max = runtime.config.organization.teams.maximumTeams;
    await inTransaction(runtime, async (stores) => {
      await stores.organizations.lockOrganization(organizationId);
      if (max !== undefined && (await stores.teams.countOrganizationTeams(organizationId)) >= max) {
        throw new APIError("BAD_REQUEST", ORG_MESSAGES.YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS);
      }
      await stores.teams.createTeam(team);
    });
    return publicTeam(team);
  },
});

export const updateTeam = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/update-team",
  auth: "session",
  body: z.object({ teamId: idSchema, data: z.object({ name: teamNameSchema.optional() }) }),
  response: teamSchema,
  summary: "Rename a team (owner, admin)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    requireTeamsEnabled(runtime);
    const { team, member } = await requireCallerTeam(runtime, body.teamId, callerOf(ctx).user.id);
    requirePermission(member, { team: ["update"] }, forbidden(ORG_MESSAGES.NOT_ALLOWED_TO_DELETE_TEAMS_OR_UPDATE_THIS_TEAM));
    const updated = await runtime.stores.teams.updateTeam(team.id, { name: body.data.name, updatedAt: runtime.now() });
    if (!updated) throw new APIError("BAD_REQUEST", ORG_MESSAGES.TEAM_NOT_FOUND);
    return publicTeam(updated);
  },
});

export const removeTeam = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/remove-team",
  changesSession: true,
  // A session over HTTP; trusted server-side calls may come without one (checked in the handler).
  auth: "none",
  body: z.object({ teamId: idSchema, organizationId: idSchema.optional() }),
  response: messageSchema,
  summary: "Remove a team; an organization's last team stays unless teams.allowRemovingAllTeams (session required)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    requireTeamsEnabled(runtime);
    const session = await sessionOrServer(ctx);
    let team: Team;
    if (session) {
      const found = await requireCallerTeam(runtime, body.teamId, session.user.id, body.organizationId);
      requirePermission(found.member, { team: ["delete"] }, forbidden(ORG_MESSAGES.NOT_ALLOWED_TO_DELETE_TEAMS_OR_UPDATE_THIS_TEAM));
      team = found.team;
    } else {
      const found = await runtime.stores.teams.findTeamById(body.teamId);
      if (!found || (body.organizationId !== undefined && found.organizationId !== body.organizationId)) {
        throw new APIError("BAD_REQUEST", ORG_MESSAGES.TEAM_NOT_FOUND);
      }
      team = found;
    }
    const allowRemovingAll = runtime.config.organization.teams.allowRemovingAllTeams;
    await inTransaction(runtime, async (stores) => {
      await stores.organizations.lockOrganization(team.organizationId);
      if (!allowRemovingAll && (await stores.teams.countOrganizationTeams(team.organizationId)) <= 1) {
        throw new APIError("BAD_REQUEST", ORG_MESSAGES.UNABLE_TO_REMOVE_LAST_TEAM);
      }
      await stripTeamFromInvitations(stores, team.organizationId, team.id);
      await stores.sessions.clearActiveTeam(team.id);
      await stores.teams.deleteTeam(team.id);
    });
    if (session && session.session.activeTeamId === team.id) reissueSession(ctx, session, { activeTeamId: null });
    return { message: ORG_SUCCESS_MESSAGES.TEAM_REMOVED };
  },
});

export const listTeams = defineOrganizationEndpoint({
  method: "GET",
  path: "/organization/list-teams",
  auth: "session",
  query: z.object({ organizationId: idSchema.optional() }),
  response: z.array(teamSchema),
  summary: "An organization's teams (members only)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, query } = ctx;
    requireTeamsEnabled(runtime);
    const organizationId = organizationIdOf(ctx, query.organizationId);
    if (!organizationId) throw new APIError("BAD_REQUEST", ORG_MESSAGES.NO_ACTIVE_ORGANIZATION);
    await requireActingMember(runtime, organizationId, callerOf(ctx).user.id, forbidden(ORG_MESSAGES.YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION));
    return (await runtime.stores.teams.listOrganizationTeams(organizationId)).map(publicTeam);
  },
});

const teamMemberBody = z.object({ teamId: idSchema, userId: idSchema, organizationId: idSchema.optional() });

export const addTeamMember = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/add-team-member",
  auth: "session",
  body: teamMemberBody,
  response: teamMemberSchema,
  summary: "Add a member of the organization to one of its teams (owner, admin; idempotent)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    requireTeamsEnabled(runtime);
    const { team, member } = await requireCallerTeam(runtime, body.teamId, callerOf(ctx).user.id, body.organizationId);
    requirePermission(member, { member: ["update"] }, forbidden(ORG_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_MEMBER));
    await requireMember(runtime, team.organizationId, body.userId, badRequest(ORG_MESSAGES.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION));
    const existing = await runtime.stores.teams.findTeamMember(team.id, body.userId);
    if (existing) return publicTeamMember(existing);
    const max = runtime.config.organization.teams.maximumMembersPerTeam;
    const teamMember = { id: generateId(), teamId: team.id, userId: body.userId, createdAt: runtime.now() };
    try {
      await inTransaction(runtime, async (stores) => {
        await stores.organizations.lockOrganization(team.organizationId);
        if (max !== undefined && (await stores.teams.countTeamMembers(team.id)) >= max) {
          throw new APIError("FORBIDDEN", ORG_MESSAGES.TEAM_MEMBER_LIMIT_REACHED);
        }
        await stores.teams.createTeamMember(teamMember);
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Added by a concurrent call: answer with that row, as a repeated call would.
      const raced = await runtime.stores.teams.findTeamMember(team.id, body.userId);
      if (raced) return publicTeamMember(raced);
      throw error;
    }
    return publicTeamMember(teamMember);
  },
});

export const removeTeamMember = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/remove-team-member",
  changesSession: true,
  auth: "session",
  body: teamMemberBody,
  response: messageSchema,
  summary: "Remove a user from a team (owner, admin)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    requireTeamsEnabled(runtime);
    const caller = callerOf(ctx);
    const { team, member } = await requireCallerTeam(runtime, body.teamId, caller.user.id, body.organizationId);
    requirePermission(member, { member: ["delete"] }, forbidden(ORG_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER));
    await inTransaction(runtime, async (stores) => {
      await stores.organizations.lockOrganization(team.organizationId);
      if (!(await stores.teams.deleteTeamMember(team.id, body.userId))) {
        throw new APIError("BAD_REQUEST", ORG_MESSAGES.USER_IS_NOT_A_MEMBER_OF_THE_TEAM);
      }
      await stores.sessions.clearActiveTeam(team.id, body.userId);
    });
    if (body.userId === caller.user.id && caller.session.activeTeamId === team.id) {
      reissueSession(ctx, caller, { activeTeamId: null });
    }
    return { message: ORG_SUCCESS_MESSAGES.TEAM_MEMBER_REMOVED };
  },
});

export const setActiveTeam = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/set-active-team",
  changesSession: true,
  auth: "session",
  body: z.object({ teamId: idSchema.nullable().optional() }),
  response: teamSchema.nullable(),
  summary: "Make one of the caller's teams in the active organization the session's active team (null clears it)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    requireTeamsEnabled(runtime);
    const caller = callerOf(ctx);
    if (body.teamId === null) {
      await runtime.stores.sessions.setActiveTeam(caller.session.token, null);
      reissueSession(ctx, caller, { activeTeamId: null });
      return null;
    }
    const organizationId = caller.session.activeOrganizationId;
    if (!organizationId) throw new APIError("BAD_REQUEST", ORG_MESSAGES.NO_ACTIVE_ORGANIZATION);
    const teamId = body.teamId ?? caller.session.activeTeamId;
    if (!teamId) return null;
    const team = await runtime.stores.teams.findTeamById(teamId);
    if (!team || team.organizationId !== organizationId) throw new APIError("BAD_REQUEST", ORG_MESSAGES.TEAM_NOT_FOUND);
    await requireSecondFactorForOrganization(runtime, organizationId, caller.user.id);
    if (!(await runtime.stores.teams.findTeamMember(team.id, caller.user.id))) {
      throw new APIError("FORBIDDEN", ORG_MESSAGES.USER_IS_NOT_A_MEMBER_OF_THE_TEAM);
    }
    await runtime.stores.sessions.setActiveTeam(caller.session.token, team.id);
    reissueSession(ctx, caller, { activeTeamId: team.id });
    return publicTeam(team);
  },
});

export const listUserTeams = defineOrganizationEndpoint({
  method: "GET",
  path: "/organization/list-user-teams",
  auth: "session",
  query: z.object({ userId: idSchema.optional(), organizationId: idSchema.optional() }),
  response: z.array(teamSchema),
  summary: "The teams of the signed-in user (or, for owners and admins, of a member of their organization)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, query } = ctx;
    requireTeamsEnabled(runtime);
    const caller = callerOf(ctx);
    if (query.userId === undefined || query.userId === caller.user.id) {
      // The caller's own teams; within one organization only while they may use it (its second-factor policy).
      if (query.organizationId !== undefined) await requireSecondFactorForOrganization(runtime, query.organizationId, caller.user.id);
      return (await runtime.stores.teams.listUserTeams(caller.user.id, query.organizationId)).map(publicTeam);
    }
    const organizationId = organizationIdOf(ctx, query.organizationId);
    if (!organizationId) throw new APIError("BAD_REQUEST", ORG_MESSAGES.ORGANIZATION_ID_IS_REQUIRED);
    const actor = await requireActingMember(runtime, organizationId, caller.user.id, badRequest(ORG_MESSAGES.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION));
    requirePermission(actor, { member: ["update"] }, forbidden(ORG_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER));
    await requireMember(runtime, organizationId, query.userId, badRequest(ORG_MESSAGES.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION));
    return (await runtime.stores.teams.listUserTeams(query.userId, organizationId)).map(publicTeam);
  },
});

export const listTeamMembers = defineOrganizationEndpoint({
  method: "GET",
  path: "/organization/list-team-members",
  auth: "session",
  query: z.object({ teamId: idSchema.optional() }),
  response: z.array(teamMemberSchema),
  summary: "A team's members (its own members, and owners and admins of its organization)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, query } = ctx;
    requireTeamsEnabled(runtime);
    const caller = callerOf(ctx);
    const teamId = query.teamId ?? caller.session.activeTeamId;
    if (!teamId) throw new APIError("BAD_REQUEST", ORG_MESSAGES.YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM);
    const { team, member } = await requireCallerTeam(runtime, teamId, caller.user.id);
    // Owners and admins (who may manage teams) see every team of their organization, not only their own.
    if (!can(member.role, "team", "update") && !(await runtime.stores.teams.findTeamMember(team.id, caller.user.id))) {
      throw new APIError("BAD_REQUEST", ORG_MESSAGES.USER_IS_NOT_A_MEMBER_OF_THE_TEAM);
    }
    return (await runtime.stores.teams.listTeamMembers(team.id)).map(publicTeamMember);
  },
});

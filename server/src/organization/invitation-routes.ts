import { z } from "zod";
import { emitEvent } from "../events/emit.js";
import { CREDENTIAL_MESSAGES } from "../credentials/messages.js";
import { generateId } from "../crypto/random.js";
import { APIError } from "../http/errors.js";
import { isValidEmail, normalizeEmail } from "../user/email-address.js";
import { inBackground } from "../verification/background.js";
import { can, invitingRefusal } from "./access-control.js";
import { defineOrganizationEndpoint, type OrganizationStores } from "./deps.js";
import { sendInvitationMail } from "./invitation-mail.js";
import {
  badRequest,
  callerOf,
  forbidden,
  inTransaction,
  isCreator,
  organizationIdOf,
  requireKnownRoles,
  requireActingMember,
  requireOrganization,
  requirePermission,
} from "./membership.js";
import { ORG_MESSAGES } from "./messages.js";
import { invitationSchema, publicInvitation } from "./public.js";
import { emailInputSchema, idSchema, roleInputSchema, teamIdsInputSchema } from "./schemas.js";
import type { Invitation } from "./store/index.js";

const TAGS = ["Organization invitations"] as const;

/** Checks the teams an invitation names: teams on, each a team of the organization, each with a free seat. */
async function requireInvitationTeams(
  stores: OrganizationStores,
  options: { enabled: boolean; maximumMembersPerTeam?: number | undefined },
  organizationId: string,
  teamIds: readonly string[],
): Promise<void> {
  for (const teamId of teamIds) {
    const team = options.enabled ? await stores.teams.findTeamById(teamId) : null;
    if (!team || team.organizationId !== organizationId) throw new APIError("BAD_REQUEST", ORG_MESSAGES.TEAM_NOT_FOUND);
    const max = options.maximumMembersPerTeam;
    if (max !== undefined && (await stores.teams.countTeamMembers(teamId)) >= max) {
      throw new APIError("FORBIDDEN", ORG_MESSAGES.TEAM_MEMBER_LIMIT_REACHED);
    }
  }
}

export const inviteMember = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/invite-member",
  auth: "session",
  body: z.object({
    email: emailInputSchema,
    role: roleInputSchema,
    organizationId: idSchema.optional(),
    resend: z.boolean().optional(),
    teamId: teamIdsInputSchema.optional(),
  }),
  response: invitationSchema,
  summary: "Invite an email address to an organization and mail the invitation (owner, admin)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const options = runtime.config.organization;
    const caller = callerOf(ctx);
    const email = normalizeEmail(body.email);
    if (!isValidEmail(email)) throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.INVALID_EMAIL);
    const organizationId = organizationIdOf(ctx, body.organizationId);
    if (!organizationId) throw new APIError("BAD_REQUEST", ORG_MESSAGES.NO_ACTIVE_ORGANIZATION);
    const organization = await requireOrganization(runtime, organizationId);
    const inviter = await requireActingMember(
      runtime,
      organizationId,
      caller.user.id,
      badRequest(ORG_MESSAGES.MEMBER_NOT_FOUND),
    );
    requirePermission(inviter, { invitation: ["create"] }, forbidden(ORG_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION));
    const role = requireKnownRoles(body.role);
    if (invitingRefusal(inviter.role, role, options.creatorRole)) {
      throw new APIError("FORBIDDEN", ORG_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_INVITE_A_USER_WITH_THIS_ROLE);
    }
    const teamIds = body.teamId === undefined ? [] : [...new Set([body.teamId].flat())];
    await requireInvitationTeams(runtime.stores, options.teams, organizationId, teamIds);
    if (await runtime.stores.members.findMemberByEmail(organizationId, email)) {
      throw new APIError("BAD_REQUEST", ORG_MESSAGES.USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION);
    }
    const now = runtime.now();
    const expiresAt = new Date(now.getTime() + options.invitationExpiresIn * 1000);
    // The invitation with its event (a resend renews the pending one: the same id, a new expiry).
    const created = async (stores: OrganizationStores, made: Invitation, renewed: boolean) => {
      await emitEvent(stores, ctx, "invitation.created", {
        organizationId,
        data: { invitationId: made.id, email: made.email, role: made.role, teamId: made.teamId, renewed },
      });
      return made;
    };
    const invitation = await inTransaction(runtime, async (stores): Promise<Invitation> => {
      // The lock makes the pending count and the insert one step: concurrent invites cannot overshoot the limit.
      await stores.organizations.lockOrganization(organizationId);
      const existing = await stores.invitations.findPendingInvitation(organizationId, email, now);
      if (existing && body.resend) {
        const renewed = await stores.invitations.renewInvitation(existing.id, expiresAt);
        if (renewed) return created(stores, renewed, true);
      } else if (existing) {
        if (!options.cancelPendingInvitationsOnReInvite) {
          throw new APIError("BAD_REQUEST", ORG_MESSAGES.USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION);
        }
        await stores.invitations.cancelPendingInvitations(organizationId, email);
      }
      if ((await stores.invitations.countPendingInvitations(organizationId, now)) >= options.invitationLimit) {
        throw new APIError("FORBIDDEN", ORG_MESSAGES.INVITATION_LIMIT_REACHED);
      }
      const made = await stores.invitations.createInvitation({
        id: generateId(),
        organizationId,
        email,
        role,
        teamId: teamIds.length ? teamIds.join(",") : null,
        status: "pending",
        expiresAt,
        createdAt: now,
        inviterId: caller.user.id,
      });
      return created(stores, made, false);
    });
    // The invitation stands even if the mail fails (logged); resend: true sends it again.
    inBackground(runtime, "invitation-mail", () => sendInvitationMail(ctx, invitation, organization, caller.user));
    return publicInvitation(invitation);
  },
});

export const cancelInvitation = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/cancel-invitation",
  auth: "session",
  body: z.object({ invitationId: idSchema }),
  response: invitationSchema,
  summary: "Cancel a pending invitation (owner, admin)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const caller = callerOf(ctx);
    const notFound = badRequest(ORG_MESSAGES.INVITATION_NOT_FOUND);
    const invitation = await runtime.stores.invitations.findInvitationById(body.invitationId);
    if (!invitation) throw notFound();
    // Only within the caller's own organizations: an invitation of another one is not found.
    const member = await requireActingMember(runtime, invitation.organizationId, caller.user.id, notFound);
    requirePermission(member, { invitation: ["cancel"] }, forbidden(ORG_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION));
    const canceled = await inTransaction(runtime, async (stores) => {
      const settled = await stores.invitations.settlePendingInvitation(invitation.id, "canceled", runtime.now());
      if (settled) {
        await emitEvent(stores, ctx, "invitation.canceled", {
          organizationId: invitation.organizationId,
          data: { invitationId: invitation.id, email: invitation.email },
        });
      }
      return settled;
    });
    if (!canceled) throw notFound();
    return publicInvitation(canceled);
  },
});

export const listInvitations = defineOrganizationEndpoint({
  method: "GET",
  path: "/organization/list-invitations",
  auth: "session",
  query: z.object({ organizationId: idSchema.optional() }),
  response: z.array(invitationSchema),
  summary: "Every invitation of an organization, whatever its status (roles that may invite)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, query } = ctx;
    const organizationId = organizationIdOf(ctx, query.organizationId);
    if (!organizationId) throw new APIError("BAD_REQUEST", ORG_MESSAGES.ORGANIZATION_ID_IS_REQUIRED);
    const member = await requireActingMember(
      runtime,
      organizationId,
      callerOf(ctx).user.id,
      forbidden(ORG_MESSAGES.YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION),
    );
    if (!can(member.role, "invitation", "create")) {
      throw new APIError("FORBIDDEN", ORG_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_LIST_INVITATIONS_FOR_THIS_ORGANIZATION);
    }
    const invitations = await runtime.stores.invitations.listOrganizationInvitations(organizationId);
    // Invitations that would make someone an owner are only for owners to see.
    const creator = isCreator(runtime, member.role);
    return invitations.filter((i) => creator || !isCreator(runtime, i.role)).map(publicInvitation);
  },
});

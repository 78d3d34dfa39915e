import { z } from "zod";
import { emitEvent } from "../events/emit.js";
import { generateId } from "../crypto/random.js";
import { APIError } from "../http/errors.js";
import { HTTP_MESSAGES } from "../http/messages.js";
import { isUniqueViolation } from "../storage/constraint-errors.js";
import type { User } from "../storage/index.js";
import { normalizeEmail } from "../user/email-address.js";
import { invitingRefusal } from "./access-control.js";
import { defineOrganizationEndpoint, type OrganizationDeps, type OrganizationStores } from "./deps.js";
import { activateOrganization, callerOf, inTransaction, splitTeamIds } from "./membership.js";
import { ORG_FIXED_CODES, ORG_MESSAGES } from "./messages.js";
import { satisfiesSecondFactorPolicy } from "./second-factor-policy.js";
import { invitationSchema, memberSchema, publicInvitation, publicMember } from "./public.js";
import { emailInputSchema, idSchema } from "./schemas.js";
import type { Invitation, Member, MemberWithUser } from "./store/index.js";

/** The routes the invited person uses: view, accept, reject, and list their own invitations. */
const TAGS = ["Organization invitations"] as const;

/**
 * Only the invited address may see or answer an invitation (compared case-insensitively), and, with
 * `organization.requireEmailVerificationOnInvitation` (on by default), only once that address is verified:
 * otherwise anyone could sign up with someone else's address and take their seat.
 */
function requireRecipient(runtime: OrganizationDeps, invitation: Invitation, user: User, unverifiedMessage: string): void {
  if (normalizeEmail(invitation.email) !== normalizeEmail(user.email)) {
    throw new APIError("FORBIDDEN", ORG_MESSAGES.YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION);
  }
  if (runtime.config.organization.requireEmailVerificationOnInvitation && !user.emailVerified) {
    throw new APIError("FORBIDDEN", unverifiedMessage);
  }
}

const isOpen = (invitation: Invitation, now: Date) => invitation.status === "pending" && invitation.expiresAt > now;

/**
 * An invitation stands only while its inviter could still make it: they are still a member of the organization
 * and their role may still invite at the invitation's role (access-control.ts invitingRefusal). Otherwise 400:
 * "Inviter is no longer a member of the organization" (SPEC.md), or "Inviter is no longer allowed to invite a user
 * with this role" once they were demoted. The invitation stays pending: an inviter added back makes it good again.
 */
async function requireEntitledInviter(runtime: OrganizationDeps, stores: OrganizationStores, invitation: Invitation): Promise<MemberWithUser> {
  const inviter = await stores.members.findMemberByUserId(invitation.organizationId, invitation.inviterId);
  if (!inviter) throw new APIError("BAD_REQUEST", ORG_MESSAGES.INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION);
  if (invitingRefusal(inviter.role, invitation.role, runtime.config.organization.creatorRole)) {
    throw new APIError("BAD_REQUEST", ORG_MESSAGES.INVITER_IS_NO_LONGER_ALLOWED_TO_INVITE_A_USER_WITH_THIS_ROLE);
  }
  return inviter;
}

export const acceptInvitation = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/accept-invitation",
  changesSession: true,
  // Read from the database, not the cookie cache: the recipient check needs the current email and its verification.
  auth: "sensitive",
  body: z.object({ invitationId: idSchema }),
  response: z.object({ invitation: invitationSchema, member: memberSchema }),
  summary:
    "Accept an invitation: join the organization (and its teams) and make it the active one (unless it requires a second factor the user lacks)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const options = runtime.config.organization;
    const caller = callerOf(ctx);
    const { user } = caller;
    const invitation = await runtime.stores.invitations.findInvitationById(body.invitationId);
    if (!invitation) throw new APIError("BAD_REQUEST", ORG_MESSAGES.INVITATION_NOT_FOUND);
    requireRecipient(runtime, invitation, user, ORG_MESSAGES.EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION);
    const now = runtime.now();
    if (!isOpen(invitation, now)) throw new APIError("BAD_REQUEST", ORG_MESSAGES.INVITATION_NOT_FOUND);
    const organizationId = invitation.organizationId;
    const alreadyMember = () => new APIError("BAD_REQUEST", ORG_MESSAGES.USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION);

    let result: { accepted: Invitation; member: Member; teams: string[] };
    try {
      result = await inTransaction(runtime, async (stores) => {
        await stores.organizations.lockOrganization(organizationId);
        // The status change is one conditional UPDATE: of two concurrent accepts only one finds it pending.
        // Any refusal below rolls it back to pending with the rest of the transaction.
        const accepted = await stores.invitations.settlePendingInvitation(invitation.id, "accepted", now);
        if (!accepted) throw new APIError("BAD_REQUEST", ORG_MESSAGES.FAILED_TO_RETRIEVE_INVITATION);
        // Under the organization's lock, which removing a member or changing their role also takes: the inviter
        // cannot be removed or demoted between this check and the new membership.
        await requireEntitledInviter(runtime, stores, accepted);
        if (await stores.members.findMemberByUserId(organizationId, user.id)) throw alreadyMember();
        if ((await stores.members.countOrganizationMembers(organizationId)) >= options.membershipLimit) {
          throw new APIError("FORBIDDEN", ORG_MESSAGES.ORGANIZATION_MEMBERSHIP_LIMIT_REACHED);
        }
        const member: Member = {
          id: generateId(),
          organizationId,
          userId: user.id,
          role: accepted.role,
          createdAt: now,
        };
        await stores.members.createMember(member);
        const teams: string[] = [];
        for (const teamId of splitTeamIds(accepted.teamId)) {
          const team = options.teams.enabled ? await stores.teams.findTeamById(teamId) : null;
          if (!team || team.organizationId !== organizationId) continue; // removed since the invitation was sent
          const max = options.teams.maximumMembersPerTeam;
          if (max !== undefined && (await stores.teams.countTeamMembers(teamId)) >= max) {
            throw new APIError("FORBIDDEN", ORG_MESSAGES.TEAM_MEMBER_LIMIT_REACHED);
          }
          await stores.teams.createTeamMember({ id: generateId(), teamId, userId: user.id, createdAt: now });
          teams.push(teamId);
        }
        await emitEvent(stores, ctx, "invitation.accepted", {
          userId: user.id,
          organizationId,
          data: { invitationId: accepted.id, memberId: member.id, role: member.role },
        });
        return { accepted, member, teams };
      });
    } catch (error) {
      // The unique (organizationId, userId) index: the user joined by another path at the same moment.
      if (isUniqueViolation(error)) throw alreadyMember();
      throw error;
    }
    runtime.logger.info({ organizationId, userId: user.id }, "invitation accepted");
    // An organization that requires a second factor the user lacks is joined but not made active: the membership
    // is unusable (403 TWO_FACTOR_REQUIRED_BY_ORGANIZATION) until they enrol one (README "Organization policy").
    if (await satisfiesSecondFactorPolicy(runtime, organizationId, user.id)) {
      await activateOrganization(ctx, caller, organizationId, result.teams.length === 1 ? result.teams[0]! : null);
    }
    return { invitation: publicInvitation(result.accepted), member: publicMember(result.member) };
  },
});

export const rejectInvitation = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/reject-invitation",
  // Read from the database, not the cookie cache: the recipient check needs the current email and its verification.
  auth: "sensitive",
  body: z.object({ invitationId: idSchema }),
  response: z.object({ invitation: invitationSchema, member: z.null() }),
  summary: "Reject an invitation",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const { user } = callerOf(ctx);
    const notFound = () => new APIError("BAD_REQUEST", ORG_FIXED_CODES.INVITATION_NOT_FOUND);
    const invitation = await runtime.stores.invitations.findInvitationById(body.invitationId);
    if (!invitation) throw notFound();
    requireRecipient(runtime, invitation, user, ORG_MESSAGES.EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION);
    const rejected = await inTransaction(runtime, async (stores) => {
      const settled = await stores.invitations.settlePendingInvitation(invitation.id, "rejected", runtime.now());
      if (settled) {
        await emitEvent(stores, ctx, "invitation.rejected", {
          userId: user.id,
          organizationId: invitation.organizationId,
          data: { invitationId: invitation.id },
        });
      }
      return settled;
    });
    if (!rejected) throw notFound();
    return { invitation: publicInvitation(rejected), member: null };
  },
});

export const getInvitation = defineOrganizationEndpoint({
  method: "GET",
  path: "/organization/get-invitation",
  auth: "session",
  // The invitation's id is what the mailed link carries.
  carriesToken: true,
  query: z.object({ id: idSchema }),
  response: invitationSchema.extend({
    organizationName: z.string(),
    organizationSlug: z.string(),
    inviterEmail: z.string(),
  }),
  summary: "A pending invitation sent to the signed-in user, with its organization and inviter",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, query } = ctx;
    const { user } = callerOf(ctx);
    const invitation = await runtime.stores.invitations.findInvitationById(query.id);
    if (!invitation) throw new APIError("BAD_REQUEST", ORG_MESSAGES.INVITATION_NOT_FOUND);
    requireRecipient(runtime, invitation, user, ORG_MESSAGES.EMAIL_VERIFICATION_REQUIRED_TO_VIEW_OR_LIST_INVITATIONS_FOR_THE_SESSION_EMAIL);
    if (!isOpen(invitation, runtime.now())) throw new APIError("BAD_REQUEST", ORG_MESSAGES.INVITATION_NOT_FOUND);
    const organization = await runtime.stores.organizations.findOrganizationById(invitation.organizationId);
    if (!organization) throw new APIError("BAD_REQUEST", ORG_MESSAGES.ORGANIZATION_NOT_FOUND);
    const inviter = await requireEntitledInviter(runtime, runtime.stores, invitation);
    return {
      ...publicInvitation(invitation),
      organizationName: organization.name,
      organizationSlug: organization.slug,
      inviterEmail: inviter.user.email,
    };
  },
});

export const listUserInvitations = defineOrganizationEndpoint({
  method: "GET",
  path: "/organization/list-user-invitations",
  // The signed-in user's invitations; server-side calls may name an email instead (checked in the handler).
  auth: "none",
  query: z.object({ email: emailInputSchema.optional() }),
  response: z.array(invitationSchema.extend({ organizationName: z.string(), organizationSlug: z.string() })),
  summary: "The pending invitations sent to the signed-in user's email (session required)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, query } = ctx;
    let email: string;
    if (query.email !== undefined) {
      if (!ctx.server) throw new APIError("BAD_REQUEST", ORG_MESSAGES.USER_EMAIL_CANNOT_BE_PASSED_FOR_CLIENT_SIDE_API_CALLS);
      email = normalizeEmail(query.email);
    } else {
      const session = await ctx.getSession();
      if (!session) throw new APIError("UNAUTHORIZED", HTTP_MESSAGES.UNAUTHORIZED);
      if (runtime.config.organization.requireEmailVerificationOnInvitation && !session.user.emailVerified) {
        throw new APIError("FORBIDDEN", ORG_MESSAGES.EMAIL_VERIFICATION_REQUIRED_TO_VIEW_OR_LIST_INVITATIONS_FOR_THE_SESSION_EMAIL);
      }
      email = session.user.email;
    }
    const invitations = await runtime.stores.invitations.listPendingInvitationsByEmail(email, runtime.now());
    return invitations.map((i) => ({
      ...publicInvitation(i),
      organizationName: i.organizationName,
      organizationSlug: i.organizationSlug,
    }));
  },
});

import { z } from "zod";
import { actorOf, emitEvent } from "../events/emit.js";
import type { OrganizationCreationRule } from "../config/options.js";
import { generateId } from "../crypto/random.js";
import { APIError, fillMessage } from "../http/errors.js";
import { HTTP_MESSAGES } from "../http/messages.js";
import { isUniqueViolation } from "../storage/constraint-errors.js";
import type { User } from "../storage/index.js";
import type { SessionAndUser } from "../storage/sessions.js";
import { USER_FIXED_CODES, USER_MESSAGES } from "../user/messages.js";
import { statusSchema } from "../user/public.js";
import { can } from "./access-control.js";
import { defineOrganizationEndpoint, type OrganizationContext } from "./deps.js";
import {
  activateOrganization,
  badRequest,
  callerOf,
  findNamedOrganization,
  forbidden,
  inTransaction,
  isCreator,
  organizationIdOf,
  reissueSession,
  requireActingMember,
  requireOrganization,
  requirePermission,
} from "./membership.js";
import { ORG_MESSAGES } from "./messages.js";
import { requireSecondFactorForOrganization } from "./second-factor-policy.js";
import {
  invitationSchema,
  memberSchema,
  memberWithUserSchema,
  organizationSchema,
  publicInvitation,
  publicMember,
  publicMemberWithUser,
  publicOrganization,
  publicTeam,
  teamSchema,
} from "./public.js";
import { idSchema, logoSchema, metadataSchema, organizationNameSchema, queryInt, slugSchema } from "./schemas.js";
import type { Member, Organization, Team } from "./store/index.js";

const TAGS = ["Organization"] as const;

/** Metadata as stored: JSON text; null clears it, undefined leaves it as it is. */
function storedMetadata(value: Record<string, unknown> | null | undefined): string | null | undefined {
  return value === undefined || value === null ? value : JSON.stringify(value);
}

async function mayCreateOrganization(rule: OrganizationCreationRule, user: User): Promise<boolean> {
  return typeof rule === "function" ? (await rule(user)) === true : rule;
}

/** Who an organization is created for: the signed-in user, or (server-side calls only) the userId given. */
async function creatorOf(
  ctx: OrganizationContext,
  session: SessionAndUser | null,
  userId: string | undefined,
): Promise<User> {
  if (!ctx.server) {
    if (!session) throw new APIError("UNAUTHORIZED", HTTP_MESSAGES.UNAUTHORIZED);
    if (userId !== undefined && userId !== session.user.id) {
      throw new APIError("BAD_REQUEST", fillMessage(USER_FIXED_CODES.FIELD_NOT_ALLOWED, { field: "userId" }), {
        code: "FIELD_NOT_ALLOWED",
      });
    }
    return session.user;
  }
  if (userId === undefined) {
    if (!session) throw new APIError("BAD_REQUEST", ORG_MESSAGES.EITHER_USERID_OR_SESSION_IS_REQUIRED);
    return session.user;
  }
  const user = await ctx.runtime.stores.users.findUserById(userId);
  if (!user) throw new APIError("BAD_REQUEST", USER_MESSAGES.USER_NOT_FOUND);
  return user;
}

export const createOrganization = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/create",
  changesSession: true,
  // A session over HTTP; server-side calls may name the creator with userId instead (checked in the handler).
  auth: "none",
  body: z.object({
    name: organizationNameSchema,
    slug: slugSchema,
    userId: idSchema.optional(),
    logo: logoSchema.optional(),
    metadata: metadataSchema.optional(),
    keepCurrentActiveOrganization: z.boolean().optional(),
  }),
  response: organizationSchema.extend({ members: z.array(memberSchema) }),
  summary: "Create an organization; its creator becomes its owner and it becomes their active one (session required)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const options = runtime.config.organization;
    const session = await ctx.getSession();
    const user = await creatorOf(ctx, session, body.userId);
    if (!(await mayCreateOrganization(options.allowUserToCreateOrganization, user))) {
      throw new APIError("FORBIDDEN", ORG_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION);
    }
    if (
      options.organizationLimit !== undefined &&
      (await runtime.stores.members.countUserMemberships(user.id)) >= options.organizationLimit
    ) {
      throw new APIError("FORBIDDEN", ORG_MESSAGES.YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS);
    }
    if (await runtime.stores.organizations.findOrganizationBySlug(body.slug)) {
      throw new APIError("BAD_REQUEST", ORG_MESSAGES.ORGANIZATION_ALREADY_EXISTS);
    }
    const now = runtime.now();
    const organization: Organization = {
      id: generateId(),
      name: body.name,
      slug: body.slug,
      logo: body.logo ?? null,
      metadata: storedMetadata(body.metadata) ?? null,
      createdAt: now,
      requireTwoFactor: false,
    };
    const member: Member = {
      id: generateId(),
      organizationId: organization.id,
      userId: user.id,
      role: options.creatorRole,
      createdAt: now,
    };
    const team: Team | null =
      options.teams.enabled && options.teams.defaultTeam.enabled
        ? { id: generateId(), name: organization.name, organizationId: organization.id, createdAt: now, updatedAt: now }
        : null;
    try {
      await inTransaction(runtime, async (stores) => {
        await stores.organizations.createOrganization(organization);
        await stores.members.createMember(member);
        if (team) {
          await stores.teams.createTeam(team);
          await stores.teams.createTeamMember({ id: generateId(), teamId: team.id, userId: user.id, createdAt: now });
        }
        // One event: the creator's membership (and the default team) come with the organization.
        await emitEvent(stores, ctx, "organization.created", {
          userId: user.id,
          // Its creator, or whoever created it for them; null for the server-side API without a session.
          actorId: actorOf(session),
          organizationId: organization.id,
          data: { name: organization.name, slug: organization.slug, memberId: member.id, role: member.role },
        });
      });
    } catch (error) {
      // Two creations of one slug at once: the unique index decides, the loser hears the slug is taken.
      if (isUniqueViolation(error)) throw new APIError("BAD_REQUEST", ORG_MESSAGES.ORGANIZATION_ALREADY_EXISTS);
      throw error;
    }
    runtime.logger.info({ organizationId: organization.id, userId: user.id }, "organization created");
    if (session && session.user.id === user.id && !body.keepCurrentActiveOrganization) {
      await activateOrganization(ctx, session, organization.id, team?.id ?? null);
    }
    return { ...publicOrganization(organization), members: [publicMember(member)] };
  },
});

export const checkOrganizationSlug = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/check-slug",
  auth: "session",
  body: z.object({ slug: slugSchema }),
  response: statusSchema,
  summary: "Whether a slug is free (400 slug is taken otherwise)",
  tags: TAGS,
  async handler(ctx) {
    if (await ctx.runtime.stores.organizations.findOrganizationBySlug(ctx.body.slug)) {
      throw new APIError("BAD_REQUEST", ORG_MESSAGES.SLUG_IS_TAKEN);
    }
    return { status: true };
  },
});

export const updateOrganization = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/update",
  auth: "session",
  body: z.object({
    data: z.object({
      name: organizationNameSchema.optional(),
      slug: slugSchema.optional(),
      logo: logoSchema.optional(),
      metadata: metadataSchema.nullable().optional(),
      /** Ours: refuse members without a second factor (README "Organization policy and administrators"). */
      requireTwoFactor: z.boolean().optional(),
    }),
    organizationId: idSchema.optional(),
  }),
  response: organizationSchema,
  summary:
    "Update an organization's name, slug, logo, metadata or requireTwoFactor (owner, admin; turning requireTwoFactor on needs a second factor of one's own)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const { user } = callerOf(ctx);
    const organizationId = organizationIdOf(ctx, body.organizationId);
    if (!organizationId) throw new APIError("BAD_REQUEST", ORG_MESSAGES.ORGANIZATION_NOT_FOUND);
    const organization = await requireOrganization(runtime, organizationId);
    const member = await requireActingMember(runtime, organization.id, user.id, badRequest(ORG_MESSAGES.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION));
    requirePermission(
      member,
      { organization: ["update"] },
      forbidden(ORG_MESSAGES.NOT_ALLOWED_TO_UPDATE_OR_DELETE_THIS_ORGANIZATION),
    );
    const { data } = body;
    if (data.requireTwoFactor === true && !organization.requireTwoFactor) {
      // Whoever turns it on must meet it (read from the database, not the session's cached user): else they would
      // lock themselves, and perhaps every owner, out of the organization.
      const current = await runtime.stores.users.findUserById(user.id);
      if (!current?.twoFactorEnabled) {
        throw new APIError("FORBIDDEN", ORG_MESSAGES.YOU_MUST_ENABLE_TWO_FACTOR_BEFORE_REQUIRING_IT);
      }
    }
    const slugTaken = () => new APIError("BAD_REQUEST", ORG_MESSAGES.ORGANIZATION_SLUG_ALREADY_TAKEN);
    if (data.slug !== undefined && data.slug !== organization.slug) {
      if (await runtime.stores.organizations.findOrganizationBySlug(data.slug)) throw slugTaken();
    }
    const fields = (Object.keys(data) as (keyof typeof data)[]).filter((key) => data[key] !== undefined);
    const updated = await inTransaction(runtime, async (stores) => {
      const done = await stores.organizations.updateOrganization(organization.id, {
        name: data.name,
        slug: data.slug,
        logo: data.logo,
        metadata: storedMetadata(data.metadata),
        requireTwoFactor: data.requireTwoFactor,
      });
      if (done && fields.length > 0) {
        await emitEvent(stores, ctx, "organization.updated", { organizationId: organization.id, data: { fields } });
      }
      return done;
    }).catch((error: unknown) => {
        throw isUniqueViolation(error) ? slugTaken() : error;
      });
    if (!updated) throw new APIError("BAD_REQUEST", ORG_MESSAGES.ORGANIZATION_NOT_FOUND);
    if (data.requireTwoFactor !== undefined && data.requireTwoFactor !== organization.requireTwoFactor) {
      runtime.logger.info(
        { organizationId: organization.id, userId: user.id, requireTwoFactor: data.requireTwoFactor },
        "organization second-factor policy changed",
      );
    }
    return publicOrganization(updated);
  },
});

export const deleteOrganization = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/delete",
  changesSession: true,
  auth: "session",
  body: z.object({ organizationId: idSchema }),
  response: organizationSchema,
  summary: "Delete an organization with its members, invitations and teams (owner)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    if (runtime.config.organization.disableOrganizationDeletion) {
      throw new APIError("NOT_FOUND", ORG_MESSAGES.ORGANIZATION_DELETION_IS_DISABLED);
    }
    const caller = callerOf(ctx);
    const organization = await requireOrganization(runtime, body.organizationId);
    const member = await requireActingMember(runtime, organization.id, caller.user.id, badRequest(ORG_MESSAGES.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION));
    requirePermission(
      member,
      { organization: ["delete"] },
      forbidden(ORG_MESSAGES.NOT_ALLOWED_TO_UPDATE_OR_DELETE_THIS_ORGANIZATION),
    );
    await inTransaction(runtime, async (stores) => {
      // The organization's lock first, as every other multi-row change takes it, so none can deadlock this one.
      await stores.organizations.lockOrganization(organization.id);
      // Every session that had it active forgets it (SPEC.md section 4), in the same transaction.
      await stores.sessions.clearActiveOrganization(organization.id);
      await stores.organizations.deleteOrganization(organization.id);
      await emitEvent(stores, ctx, "organization.deleted", {
        organizationId: organization.id,
        data: { name: organization.name, slug: organization.slug },
      });
    });
    runtime.logger.info({ organizationId: organization.id, userId: caller.user.id }, "organization deleted");
    if (caller.session.activeOrganizationId === organization.id) {
      reissueSession(ctx, caller, { activeOrganizationId: null, activeTeamId: null });
    }
    return publicOrganization(organization);
  },
});

export const listOrganizations = defineOrganizationEndpoint({
  method: "GET",
  path: "/organization/list",
  auth: "session",
  response: z.array(organizationSchema),
  summary: "The organizations the signed-in user is a member of",
  tags: TAGS,
  async handler(ctx) {
    const organizations = await ctx.runtime.stores.organizations.listUserOrganizations(callerOf(ctx).user.id);
    return organizations.map(publicOrganization);
  },
});

const organizationRefQuery = {
  organizationId: idSchema.optional(),
  organizationSlug: slugSchema.optional(),
};

export const getOrganization = defineOrganizationEndpoint({
  method: "GET",
  path: "/organization/get-organization",
  auth: "session",
  query: z.object(organizationRefQuery),
  response: organizationSchema.nullable(),
  summary: "An organization by id or slug (default: the active one); null without an active organization",
  tags: TAGS,
  async handler(ctx) {
    const organization = await findNamedOrganization(ctx, ctx.query);
    if (!organization) return null;
    await requireActingMember(ctx.runtime, organization.id, callerOf(ctx).user.id, forbidden(ORG_MESSAGES.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION));
    return publicOrganization(organization);
  },
});

export const getFullOrganization = defineOrganizationEndpoint({
  method: "GET",
  path: "/organization/get-full-organization",
  auth: "session",
  query: z.object({ ...organizationRefQuery, membersLimit: queryInt(1, 1000).optional() }),
  response: organizationSchema
    .extend({
      members: z.array(memberWithUserSchema),
      invitations: z.array(invitationSchema),
      teams: z.array(teamSchema.extend({ memberCount: z.number() })),
    })
    .nullable(),
  summary: "An organization with its members, invitations (for roles that may invite) and teams",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, query } = ctx;
    const organization = await findNamedOrganization(ctx, query);
    if (!organization) return null;
    const member = await requireActingMember(
      runtime,
      organization.id,
      callerOf(ctx).user.id,
      forbidden(ORG_MESSAGES.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION),
    );
    const options = runtime.config.organization;
    const [{ members }, invitations, teams] = await Promise.all([
      runtime.stores.members.listMembers(organization.id, {
        limit: query.membersLimit ?? Math.min(options.membershipLimit, 1000),
        offset: 0,
        sortBy: "createdAt",
        sortDirection: "asc",
      }),
      can(member.role, "invitation", "create")
        ? runtime.stores.invitations.listOrganizationInvitations(organization.id)
        : Promise.resolve([]),
      options.teams.enabled
        ? runtime.stores.teams.listOrganizationTeamsWithCounts(organization.id)
        : Promise.resolve([]),
    ]);
    // Invitations that would make someone an owner are only for owners to see.
    const creator = isCreator(runtime, member.role);
    return {
      ...publicOrganization(organization),
      members: members.map(publicMemberWithUser),
      invitations: invitations.filter((i) => creator || !isCreator(runtime, i.role)).map(publicInvitation),
      teams: teams.map((team) => ({ ...publicTeam(team), memberCount: team.memberCount })),
    };
  },
});

export const setActiveOrganization = defineOrganizationEndpoint({
  method: "POST",
  path: "/organization/set-active",
  changesSession: true,
  auth: "session",
  body: z.object({ organizationId: idSchema.nullable().optional(), organizationSlug: slugSchema.optional() }),
  response: organizationSchema.nullable(),
  summary: "Make an organization the session's active one (null clears it)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const caller = callerOf(ctx);
    const current = caller.session.activeOrganizationId;
    if (body.organizationId === null) {
      await activateOrganization(ctx, caller, null, null);
      return null;
    }
    let organization: Organization | null;
    if (body.organizationId === undefined && body.organizationSlug !== undefined) {
      organization = await runtime.stores.organizations.findOrganizationBySlug(body.organizationSlug);
    } else {
      const id = body.organizationId ?? current;
      if (!id) return null;
      organization = await runtime.stores.organizations.findOrganizationById(id);
      if (!organization && id === current) await activateOrganization(ctx, caller, null, null);
    }
    if (!organization) throw new APIError("BAD_REQUEST", ORG_MESSAGES.ORGANIZATION_NOT_FOUND);
    const member = await runtime.stores.members.findMemberByUserId(organization.id, caller.user.id);
    if (!member) {
      if (organization.id === current) await activateOrganization(ctx, caller, null, null);
      throw new APIError("FORBIDDEN", ORG_MESSAGES.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION);
    }
    // A member the organization refuses (its second-factor policy) cannot make it active; one already active stays
    // so (the session is not changed by a refusal), and every route acting within it refuses them alike.
    await requireSecondFactorForOrganization(runtime, organization.id, caller.user.id);
    // The active team belongs to the active organization: it is kept only when the organization stays the same.
    const teamId = organization.id === current ? caller.session.activeTeamId : null;
    await activateOrganization(ctx, caller, organization.id, teamId);
    return publicOrganization(organization);
  },
});

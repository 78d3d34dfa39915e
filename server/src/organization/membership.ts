import { APIError } from "../http/errors.js";
import { HTTP_MESSAGES } from "../http/messages.js";
import type { Session } from "../storage/index.js";
import type { SessionAndUser } from "../storage/sessions.js";
import { checkAccess, hasRole, isRoleName, joinRoles, parseRoles, type Permissions } from "./access-control.js";
import type { OrganizationContext, OrganizationDeps, OrganizationStores } from "./deps.js";
import { ORG_MESSAGES } from "./messages.js";
import { requireSecondFactorForOrganization } from "./second-factor-policy.js";
import type { MemberWithUser, Organization, Team } from "./store/index.js";

/**
 * What every organization route shares: which organization a request is about, who the caller is in it,
 * what their role allows, and the session changes that follow.
 */

/**
 * Runs `fn` over stores bound to one transaction. Inside it only these stores may be used: SQLite has a
 * single connection, which the transaction holds until it ends.
 */
export function inTransaction<T>(runtime: OrganizationDeps, fn: (stores: OrganizationStores) => Promise<T>): Promise<T> {
  return runtime.stores.transaction(fn);
}

/** The organization a request names, else the session's active one; null when neither. */
export function organizationIdOf(ctx: OrganizationContext, given: string | null | undefined): string | null {
  return given ?? ctx.session?.session.activeOrganizationId ?? null;
}

/** The signed-in caller, for routes whose auth level guarantees a session. */
export function callerOf(ctx: OrganizationContext): SessionAndUser {
  if (!ctx.session) throw new APIError("UNAUTHORIZED", HTTP_MESSAGES.UNAUTHORIZED);
  return ctx.session;
}

/**
 * Routes that serve both signed-in users and trusted server-side calls (SPEC.md section 6): over HTTP a
 * session is required; an in-process call may come without one, and then no member checks apply.
 */
export async function sessionOrServer(ctx: OrganizationContext): Promise<SessionAndUser | null> {
  const session = await ctx.getSession();
  if (!session && !ctx.server) throw new APIError("UNAUTHORIZED", HTTP_MESSAGES.UNAUTHORIZED);
  return session;
}

export async function requireOrganization(runtime: OrganizationDeps, organizationId: string): Promise<Organization> {
  const organization = await runtime.stores.organizations.findOrganizationById(organizationId);
  if (!organization) throw new APIError("BAD_REQUEST", ORG_MESSAGES.ORGANIZATION_NOT_FOUND);
  return organization;
}

/**
 * The organization named by id or slug, else the session's active one; null when none is named or active.
 * A named organization that does not exist is 400 Organization not found.
 */
export async function findNamedOrganization(
  ctx: OrganizationContext,
  ref: { organizationId?: string | undefined; organizationSlug?: string | undefined },
): Promise<Organization | null> {
  const { organizations } = ctx.runtime.stores;
  if (ref.organizationId === undefined && ref.organizationSlug !== undefined) {
    const bySlug = await organizations.findOrganizationBySlug(ref.organizationSlug);
    if (!bySlug) throw new APIError("BAD_REQUEST", ORG_MESSAGES.ORGANIZATION_NOT_FOUND);
    return bySlug;
  }
  const id = organizationIdOf(ctx, ref.organizationId);
  return id ? requireOrganization(ctx.runtime, id) : null;
}

/** The user's membership of the organization, or the given refusal. */
export async function requireMember(
  runtime: OrganizationDeps,
  organizationId: string,
  userId: string,
  refusal: () => APIError,
): Promise<MemberWithUser> {
  const member = await runtime.stores.members.findMemberByUserId(organizationId, userId);
  if (!member) throw refusal();
  return member;
}

/**
 * The signed-in caller's membership of the organization (or the given refusal), for a route that acts within it:
 * then the organization's second-factor policy (second-factor-policy.ts: 403 TWO_FACTOR_REQUIRED_BY_ORGANIZATION
 * when it requires a second factor the caller's account lacks). Another user's membership is requireMember's.
 */
export async function requireActingMember(
  runtime: OrganizationDeps,
  organizationId: string,
  callerId: string,
  refusal: () => APIError,
): Promise<MemberWithUser> {
  const member = await requireMember(runtime, organizationId, callerId, refusal);
  await requireSecondFactorForOrganization(runtime, organizationId, callerId);
  return member;
}

/** Refuses unless the member's roles allow every requested action (see access-control.ts). */
export function requirePermission(member: { role: string }, permissions: Permissions, refusal: () => APIError): void {
  if (!checkAccess(member.role, permissions).success) throw refusal();
}

export const badRequest = (message: string) => () => new APIError("BAD_REQUEST", message);
export const forbidden = (message: string) => () => new APIError("FORBIDDEN", message);

/** Whether a role string holds the creator role (owner by default), the role "only owner" rules protect. */
export function isCreator(runtime: Pick<OrganizationDeps, "config">, role: string): boolean {
  return hasRole(role, runtime.config.organization.creatorRole);
}

/** How many members besides `exceptMemberId` hold the creator role. Call it under the organization lock. */
export async function countOtherCreators(
  runtime: Pick<OrganizationDeps, "config">,
  stores: OrganizationStores,
  organizationId: string,
  exceptMemberId: string,
): Promise<number> {
  const creatorRole = runtime.config.organization.creatorRole;
  const candidates = await stores.members.listMembersMentioningRole(organizationId, creatorRole);
  return candidates.filter((m) => m.id !== exceptMemberId && hasRole(m.role, creatorRole)).length;
}

/**
 * Before a user is removed (their own deletion or an administrator's), inside the removal's transaction: an
 * organization they were the only member of goes with them; one they were the only owner of passes to the
 * longest-standing admin, else the longest-standing member, so no organization is left without an owner.
 * Returns what was done, for the log.
 */
export async function handOverOrganizations(
  runtime: Pick<OrganizationDeps, "config">,
  stores: OrganizationStores,
  userId: string,
): Promise<{ deleted: string[]; handedOver: { organizationId: string; toUserId: string }[] }> {
  const creatorRole = runtime.config.organization.creatorRole;
  const done = { deleted: [] as string[], handedOver: [] as { organizationId: string; toUserId: string }[] };
  for (const membership of await stores.members.listUserMemberships(userId)) {
    const { organizationId } = membership;
    if (!(await stores.organizations.lockOrganization(organizationId))) continue;
    const others = await stores.members.listOtherMembers(organizationId, userId, 200);
    if (others.length === 0) {
      await stores.organizations.deleteOrganization(organizationId);
      done.deleted.push(organizationId);
      continue;
    }
    if (!hasRole(membership.role, creatorRole)) continue;
    if ((await countOtherCreators(runtime, stores, organizationId, membership.id)) > 0) continue;
    const successor = others.find((m) => hasRole(m.role, "admin")) ?? others[0]!;
    await stores.members.updateMemberRole(organizationId, successor.id, joinRoles([creatorRole]));
    done.handedOver.push({ organizationId, toUserId: successor.userId });
  }
  return done;
}

/** A role from a request ("admin", "admin,member" or an array), normalised; unknown or empty roles are refused. */
export function requireKnownRoles(input: string | readonly string[]): string {
  const role = joinRoles(input);
  if (!role || !parseRoles(role).every(isRoleName)) throw new APIError("BAD_REQUEST", ORG_MESSAGES.ROLE_NOT_FOUND);
  return role;
}

/** The team ids of an invitation's comma-joined teamId column. */
export function splitTeamIds(teamId: string | null): string[] {
  return teamId ? [...new Set(teamId.split(",").map((id) => id.trim()).filter(Boolean))] : [];
}

/** Team routes exist only with `organization.teams.enabled`; otherwise they answer like unknown paths. */
export function requireTeamsEnabled(runtime: OrganizationDeps): void {
  if (!runtime.config.organization.teams.enabled) throw new APIError("NOT_FOUND", HTTP_MESSAGES.NOT_FOUND);
}

/**
 * A team the caller may act on: it exists, lies in an organization the caller is a member of (and may use: the
 * second-factor policy), and in `organizationId` when one is named. Anything else is "Team not found", so ids of other organizations
 * reveal nothing.
 */
export async function requireCallerTeam(
  runtime: OrganizationDeps,
  teamId: string,
  userId: string,
  organizationId?: string,
): Promise<{ team: Team; member: MemberWithUser }> {
  const notFound = badRequest(ORG_MESSAGES.TEAM_NOT_FOUND);
  const team = await runtime.stores.teams.findTeamById(teamId);
  if (!team || (organizationId !== undefined && team.organizationId !== organizationId)) throw notFound();
  const member = await requireActingMember(runtime, team.organizationId, userId, notFound);
  return { team, member };
}

/** Re-issues the caller's session cookies after its active organization or team changed. */
export function reissueSession(
  ctx: OrganizationContext,
  caller: SessionAndUser,
  changes: Partial<Pick<Session, "activeOrganizationId" | "activeTeamId">>,
): void {
  const updated: SessionAndUser = { session: { ...caller.session, ...changes }, user: caller.user };
  if (ctx.session?.session.token === caller.session.token) ctx.session = updated;
  ctx.runtime.sessions.setSessionCookies(ctx, updated);
}

/** Points the caller's session at an organization and team (null clears) and re-issues its cookies. */
export async function activateOrganization(
  ctx: OrganizationContext,
  caller: SessionAndUser,
  organizationId: string | null,
  teamId: string | null,
): Promise<void> {
  await ctx.runtime.stores.sessions.setActiveOrganization(caller.session.token, organizationId, teamId);
  reissueSession(ctx, caller, { activeOrganizationId: organizationId, activeTeamId: teamId });
}

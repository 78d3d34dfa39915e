import { z } from "zod";
import type { Invitation, Member, MemberWithUser, Organization, Team, TeamMember } from "./store/index.js";

/**
 * What answers carry. metadata is stored as JSON text and answered parsed (an object, or null) by every route,
 * so a client never has to guess which form a route returns.
 */
export function parseMetadata(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function publicOrganization(organization: Organization) {
  return {
    id: organization.id,
    name: organization.name,
    slug: organization.slug,
    logo: organization.logo,
    metadata: parseMetadata(organization.metadata),
    createdAt: organization.createdAt,
    requireTwoFactor: organization.requireTwoFactor,
  };
}

export function publicMember(member: Member) {
  return {
    id: member.id,
    organizationId: member.organizationId,
    userId: member.userId,
    role: member.role,
    createdAt: member.createdAt,
  };
}

export function publicMemberWithUser(member: MemberWithUser) {
  return { ...publicMember(member), user: { ...member.user } };
}

export function publicInvitation(invitation: Invitation) {
  return {
    id: invitation.id,
    organizationId: invitation.organizationId,
    email: invitation.email,
    role: invitation.role,
    teamId: invitation.teamId,
    status: invitation.status,
    expiresAt: invitation.expiresAt,
    createdAt: invitation.createdAt,
    inviterId: invitation.inviterId,
  };
}

export function publicTeam(team: Team) {
  return {
    id: team.id,
    name: team.name,
    organizationId: team.organizationId,
    createdAt: team.createdAt,
    updatedAt: team.updatedAt,
  };
}

export function publicTeamMember(teamMember: TeamMember) {
  return { id: teamMember.id, teamId: teamMember.teamId, userId: teamMember.userId, createdAt: teamMember.createdAt };
}

const dateTime = z.iso.datetime();

/** Answer shapes, for the client's types (client/src/contract.gen.ts) and the OpenAPI document; the ids name them there. */
export const organizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  logo: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  createdAt: dateTime,
  requireTwoFactor: z
    .boolean()
    .describe("Members without a second factor are refused the organization (set by owners and admins with update)"),
}).meta({ id: "Organization" });

export const memberSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  userId: z.string(),
  role: z.string().describe('One role or several, comma-joined ("admin,member")'),
  createdAt: dateTime,
}).meta({ id: "Member" });

export const memberWithUserSchema = memberSchema
  .extend({ user: z.object({ id: z.string(), name: z.string(), email: z.string(), image: z.string().nullable() }) })
  .meta({ id: "MemberWithUser" });

export const invitationSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  email: z.string(),
  role: z.string(),
  teamId: z.string().nullable().describe("Comma-joined team ids, or null"),
  status: z.enum(["pending", "accepted", "rejected", "canceled"]),
  expiresAt: dateTime,
  createdAt: dateTime,
  inviterId: z.string(),
}).meta({ id: "Invitation" });

export const teamSchema = z.object({
  id: z.string(),
  name: z.string(),
  organizationId: z.string(),
  createdAt: dateTime,
  updatedAt: dateTime.nullable(),
}).meta({ id: "Team" });

export const teamMemberSchema = z.object({
  id: z.string(),
  teamId: z.string(),
  userId: z.string(),
  createdAt: dateTime,
}).meta({ id: "TeamMember" });

export const messageSchema = z.object({ message: z.string() });

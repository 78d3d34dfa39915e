import type { TableSpecs } from "../storage/expected-schema.js";
import type { Database, DbBool, DbDate } from "../storage/schema.js";

/**
 * The organization module's tables (SPEC.md section 3, API-NOTES.md section 3): their Kysely shapes and their part
 * of the expected schema (storage/expected-schema.ts), which the reconcile step checks an existing database against.
 * The migrations in ./migrations create them.
 */
export interface OrganizationTable {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  /** JSON text of a record. */
  metadata: string | null;
  createdAt: DbDate;
  /** Ours: members without a second factor are refused the organization (migrations/0013). */
  requireTwoFactor: DbBool;
}

export interface MemberTable {
  id: string;
  organizationId: string;
  userId: string;
  /** One role or several, comma-joined ("admin,member"). */
  role: string;
  createdAt: DbDate;
}

export interface InvitationTable {
  id: string;
  organizationId: string;
  /** Lower-case. */
  email: string;
  role: string | null;
  /** Comma-joined team ids, or null. */
  teamId: string | null;
  status: string;
  expiresAt: DbDate;
  createdAt: DbDate;
  inviterId: string;
}

export interface TeamTable {
  id: string;
  name: string;
  organizationId: string;
  createdAt: DbDate;
  updatedAt: DbDate | null;
  /**
   * Better Auth's seat counter, NOT NULL without a default in its databases: written as 0 for every new team and
   * not kept (member counts come from teamMember). See migrations/0008-team-member-count.ts.
   */
  memberCount: number;
}

export interface TeamMemberTable {
  id: string;
  teamId: string;
  userId: string;
  createdAt: DbDate;
}

export interface OrganizationTables {
  organization: OrganizationTable;
  member: MemberTable;
  invitation: InvitationTable;
  team: TeamTable;
  teamMember: TeamMemberTable;
}

/** Keyed by the interfaces above, so a column added there and not here fails to compile. */
export const ORGANIZATION_TABLE_SPECS: TableSpecs<OrganizationTables> = {
  organization: {
    columns: {
      id: { type: "text", notNull: true },
      name: { type: "text", notNull: true },
      slug: { type: "text", notNull: true },
      logo: { type: "text" },
      metadata: { type: "text" },
      createdAt: { type: "date", notNull: true },
      requireTwoFactor: { type: "bool", notNull: true, default: 0 },
    },
    indexes: [{ name: "organization_slug_uidx", columns: ["slug"], unique: true }],
  },
  member: {
    columns: {
      id: { type: "text", notNull: true },
      organizationId: { type: "text", notNull: true },
      userId: { type: "text", notNull: true },
      role: { type: "text", notNull: true },
      createdAt: { type: "date", notNull: true },
    },
    indexes: [
      // One membership per user and organization: the last line of defence against two concurrent joins.
      { name: "member_organizationId_userId_uidx", columns: ["organizationId", "userId"], unique: true },
      { name: "member_userId_idx", columns: ["userId"] },
    ],
  },
  invitation: {
    columns: {
      id: { type: "text", notNull: true },
      organizationId: { type: "text", notNull: true },
      email: { type: "text", notNull: true },
      role: { type: "text" },
      // organization plugin with teams
      teamId: { type: "text" },
      status: { type: "text", notNull: true },
      expiresAt: { type: "date", notNull: true },
      createdAt: { type: "date", notNull: true },
      inviterId: { type: "text", notNull: true },
    },
    indexes: [
      { name: "invitation_organizationId_idx", columns: ["organizationId"] },
      { name: "invitation_email_idx", columns: ["email"] },
    ],
  },
  team: {
    columns: {
      id: { type: "text", notNull: true },
      name: { type: "text", notNull: true },
      organizationId: { type: "text", notNull: true },
      createdAt: { type: "date", notNull: true },
      updatedAt: { type: "date" },
      // Better Auth's seat counter, NOT NULL without a default in its databases: every insert must write it.
      memberCount: { type: "integer", notNull: true, default: 0 },
    },
    indexes: [{ name: "team_organizationId_idx", columns: ["organizationId"] }],
  },
  teamMember: {
    columns: {
      id: { type: "text", notNull: true },
      teamId: { type: "text", notNull: true },
      userId: { type: "text", notNull: true },
      createdAt: { type: "date", notNull: true },
    },
    indexes: [
      { name: "teamMember_teamId_userId_uidx", columns: ["teamId", "userId"], unique: true },
      { name: "teamMember_userId_idx", columns: ["userId"] },
    ],
  },
};

/** What the module's store reads: its tables and the core ones (a member's user, a session's active organization). */
export interface OrganizationDatabase extends Database, OrganizationTables {}

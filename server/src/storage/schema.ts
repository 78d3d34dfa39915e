import type { Generated } from "kysely";

/**
 * Table shapes as SPEC.md section 3 and API-NOTES.md section 3 name them. Dates are written as ISO-8601
 * strings (SQLite keeps them as text, PostgreSQL as timestamptz) and read back as Date or string; booleans are
 * written as 0/1 (SQLite integers, accepted by PostgreSQL's boolean input) and read back as number or boolean.
 * The mappers in rows.ts turn both into one model.
 */
export type DbDate = Date | string;
export type DbBool = boolean | number;

export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: DbBool;
  image: string | null;
  createdAt: DbDate;
  updatedAt: DbDate;
  username: string | null;
  displayUsername: string | null;
  role: string | null;
  banned: DbBool | null;
  banReason: string | null;
  banExpires: DbDate | null;
  lang: string | null;
  /** The method of the user's last sign-in, written only with lastLoginMethod.storeInDatabase (migration 0009). */
  lastLoginMethod: string | null;
}

export interface SessionTable {
  id: string;
  token: string;
  userId: string;
  expiresAt: DbDate;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: DbDate;
  updatedAt: DbDate;
  activeOrganizationId: string | null;
  activeTeamId: string | null;
  impersonatedBy: string | null;
  /** How the session was signed in to (migration 0009). */
  loginMethod: string | null;
}

export interface AccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: DbDate | null;
  refreshTokenExpiresAt: DbDate | null;
  scope: string | null;
  password: string | null;
  createdAt: DbDate;
  updatedAt: DbDate;
}

export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: DbDate;
  createdAt: DbDate;
  updatedAt: DbDate;
}

export interface OrganizationTable {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  /** JSON text of a record. */
  metadata: string | null;
  createdAt: DbDate;
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

export interface Database {
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  organization: OrganizationTable;
  member: MemberTable;
  invitation: InvitationTable;
  team: TeamTable;
  teamMember: TeamMemberTable;
  /** Kysely's own bookkeeping, listed so raw reads type-check. */
  kysely_migration: { name: string; timestamp: string; id?: Generated<number> };
}

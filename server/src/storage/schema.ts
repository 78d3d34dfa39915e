import type { Generated } from "kysely";

/**
 * The core tables' shapes as SPEC.md section 3 and API-NOTES.md section 3 name them (a module declares its own tables
 * in its folder, as organization/tables.ts does; modules.ts composes the whole database's type). Dates are written as ISO-8601
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
  /** twoFactor plugin: the user has a second factor (two-factor/; migration 0010). Null reads as false. */
  twoFactorEnabled: DbBool | null;
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
  /** The factors its sign-in proved, comma-joined ("password,totp"; migration 0010). */
  factors: string | null;
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

/** The core tables (user, session, account, verification): every module's store may read them too. */
export interface CoreTables {
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
}

export interface Database extends CoreTables {
  /** Kysely's own bookkeeping, listed so raw reads type-check. */
  kysely_migration: { name: string; timestamp: string; id?: Generated<number> };
}

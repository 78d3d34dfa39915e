import type { TableSpecs } from "../storage/expected-schema.js";
import type { Database, DbBool, DbDate } from "../storage/schema.js";

/**
 * The two-factor module's tables (README "Second factors"; API-NOTES-PLUGINS.md 2.1 for Better Auth's `twoFactor`,
 * whose name and columns it keeps, adding its own). The migration in ./migrations creates them; user.twoFactorEnabled
 * and session.factors are core's columns (storage/expected-schema.ts) that the same migration adds.
 */
export interface TwoFactorTable {
  id: string;
  userId: string;
  /**
   * The TOTP secret, sealed (two-factor/secrets.ts: "gh2fa1:" + AES-256-GCM under a key derived from the secret);
   * "" when the user has no authenticator. Better Auth's column, NOT NULL there.
   */
  secret: string;
  /** Better Auth keeps its (encrypted) backup codes here; Gatehouse keeps them hashed in twoFactorBackupCode: "". */
  backupCodes: string;
  /** The TOTP enrolment was confirmed with a code (false while it waits for one). */
  verified: DbBool | null;
  /** Wrong codes since the last right one, across challenges (the account lockout). */
  failedVerificationCount: number | null;
  /** The second step refuses every code until then (the account lockout). */
  lockedUntil: DbDate | null;
  /** The RFC 6238 time step of the last TOTP code accepted: only a later step is accepted (no replay). */
  lastTotpStep: number | null;
  /** Wrong codes against the TOTP enrolment waiting for confirmation; the last allowed one discards it. */
  pendingAttempts: number | null;
  /** When the authenticator was confirmed. */
  totpEnabledAt: DbDate | null;
  /** When the email code became a second factor (after the user proved the mailbox with one); null: it is not. */
  otpEnabledAt: DbDate | null;
  createdAt: DbDate | null;
  updatedAt: DbDate | null;
}

/** Backup codes, one row each, stored as an HMAC (never readable again): using one deletes its row. */
export interface TwoFactorBackupCodeTable {
  id: string;
  userId: string;
  codeHash: string;
  createdAt: DbDate;
}

/**
 * A pending second step ("sign-in": a first factor passed, no session yet) or an email code sent to prove the
 * mailbox before the email code becomes a factor ("enrol-otp", bound to the session that asked). The id is the
 * SHA-256 of the token in the two_factor cookie (sign-in) or of the session id (enrol-otp): never the token itself.
 */
export interface TwoFactorChallengeTable {
  id: string;
  kind: string;
  userId: string;
  /** The sign-in method of the first factor ("email", "google", ...): the session records it. */
  method: string | null;
  /** The factors the first sign-in proved beyond its first (SignInOptions.factors), comma-joined. */
  factors: string | null;
  rememberMe: DbBool;
  /** Codes tried against this challenge, the running ones included (reserved before each check). */
  attempts: number;
  /** The HMAC of the mailed code, and when it stops counting; null until one is sent. */
  otpHash: string | null;
  otpExpiresAt: DbDate | null;
  expiresAt: DbDate;
  createdAt: DbDate;
}

/** A browser that skips the second step: its cookie holds the id and a token whose SHA-256 is kept here. */
export interface TwoFactorTrustedDeviceTable {
  id: string;
  userId: string;
  tokenHash: string;
  userAgent: string | null;
  expiresAt: DbDate;
  createdAt: DbDate;
  lastUsedAt: DbDate;
}

export interface TwoFactorTables {
  twoFactor: TwoFactorTable;
  twoFactorBackupCode: TwoFactorBackupCodeTable;
  twoFactorChallenge: TwoFactorChallengeTable;
  twoFactorTrustedDevice: TwoFactorTrustedDeviceTable;
}

/** Keyed by the interfaces above, so a column added there and not here fails to compile. */
export const TWO_FACTOR_TABLE_SPECS: TableSpecs<TwoFactorTables> = {
  twoFactor: {
    columns: {
      id: { type: "text", notNull: true },
      userId: { type: "text", notNull: true },
      secret: { type: "text", notNull: true },
      backupCodes: { type: "text", notNull: true },
      verified: { type: "bool", default: 1 },
      failedVerificationCount: { type: "integer", default: 0 },
      lockedUntil: { type: "date" },
      lastTotpStep: { type: "integer" },
      pendingAttempts: { type: "integer", default: 0 },
      totpEnabledAt: { type: "date" },
      otpEnabledAt: { type: "date" },
      createdAt: { type: "date" },
      updatedAt: { type: "date" },
    },
    // One row per user: the last line of defence against two concurrent enrolments.
    indexes: [{ name: "twoFactor_userId_uidx", columns: ["userId"], unique: true }],
  },
  twoFactorBackupCode: {
    columns: {
      id: { type: "text", notNull: true },
      userId: { type: "text", notNull: true },
      codeHash: { type: "text", notNull: true },
      createdAt: { type: "date", notNull: true },
    },
    indexes: [{ name: "twoFactorBackupCode_userId_codeHash_idx", columns: ["userId", "codeHash"] }],
  },
  twoFactorChallenge: {
    columns: {
      id: { type: "text", notNull: true },
      kind: { type: "text", notNull: true },
      userId: { type: "text", notNull: true },
      method: { type: "text" },
      factors: { type: "text" },
      rememberMe: { type: "bool", notNull: true, default: 1 },
      attempts: { type: "integer", notNull: true, default: 0 },
      otpHash: { type: "text" },
      otpExpiresAt: { type: "date" },
      expiresAt: { type: "date", notNull: true },
      createdAt: { type: "date", notNull: true },
    },
    indexes: [{ name: "twoFactorChallenge_userId_idx", columns: ["userId"] }],
  },
  twoFactorTrustedDevice: {
    columns: {
      id: { type: "text", notNull: true },
      userId: { type: "text", notNull: true },
      tokenHash: { type: "text", notNull: true },
      userAgent: { type: "text" },
      expiresAt: { type: "date", notNull: true },
      createdAt: { type: "date", notNull: true },
      lastUsedAt: { type: "date", notNull: true },
    },
    indexes: [{ name: "twoFactorTrustedDevice_userId_idx", columns: ["userId"] }],
  },
};

/** What the module's store reads and writes: its tables and the core ones (user.twoFactorEnabled, sessions). */
export interface TwoFactorDatabase extends Database, TwoFactorTables {}

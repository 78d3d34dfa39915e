import type { TableSpecs } from "../storage/expected-schema.js";
import type { Database, DbDate } from "../storage/schema.js";

/**
 * The email-code module's table (migrations/0012-passwordless.ts). Magic links need none: a link is a row of core's
 * `verification` table (identifier `magic-link:<hash of the token>`), consumed by one DELETE … RETURNING.
 *
 * `emailOtp` holds one code per purpose and address (`identifier`, unique: asking again replaces the code), only as
 * a keyed hash, with the tries made so far: a try is counted (UPDATE … attempts + 1 … RETURNING) before the code
 * is compared, and the right code is consumed by one DELETE … RETURNING.
 */
export interface EmailOtpTable {
  id: string;
  /** `<type>:<lower-case address>` ("sign-in:ada@example.com"), or `change-email:<userId>:<new address>`. */
  identifier: string;
  /** HMAC-SHA-256 of the code under a key derived from the secret, bound to the identifier (secrets.ts). */
  codeHash: string;
  /** Tries made (the right one included); at allowedAttempts the code is refused. */
  attempts: number;
  expiresAt: DbDate;
  createdAt: DbDate;
}

export interface PasswordlessTables {
  emailOtp: EmailOtpTable;
}

export const PASSWORDLESS_TABLE_SPECS: TableSpecs<PasswordlessTables> = {
  emailOtp: {
    columns: {
      id: { type: "text", notNull: true },
      identifier: { type: "text", notNull: true },
      codeHash: { type: "text", notNull: true },
      attempts: { type: "integer", notNull: true, default: 0 },
      expiresAt: { type: "date", notNull: true },
      createdAt: { type: "date", notNull: true },
    },
    indexes: [
      { name: "emailOtp_identifier_uidx", columns: ["identifier"], unique: true },
      { name: "emailOtp_expiresAt_idx", columns: ["expiresAt"] },
    ],
  },
};

export interface PasswordlessDatabase extends Database, PasswordlessTables {}

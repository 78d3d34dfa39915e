import type { TableSpecs } from "../storage/expected-schema.js";
import type { Database, DbBool, DbDate } from "../storage/schema.js";

/**
 * The passkey module's tables: Better Auth's `passkey` (API-NOTES-PLUGINS.md 3.1) with two columns of our own, and
 * the WebAuthn user handle of each user. The migration in ./migrations creates them; on a database Better Auth wrote,
 * the reconcile step adds our columns to its `passkey` table (both nullable).
 */
export interface PasskeyTable {
  id: string;
  /** The name the user gave it, or null. */
  name: string | null;
  /** Standard base64, with padding, of the COSE public key (Better Auth's encoding). */
  publicKey: string;
  userId: string;
  /** base64url credential id, as the browser sends it (`response.id`). */
  credentialID: string;
  /** The authenticator's signature counter at its last use (0 for authenticators that keep none). */
  counter: number;
  /** "singleDevice" or "multiDevice". */
  deviceType: string;
  backedUp: DbBool;
  /** Comma-joined transports ("internal,hybrid"), "" when none. */
  transports: string | null;
  createdAt: DbDate;
  aaguid: string | null;
  /** Ours: the WebAuthn user handle it was registered under (base64url); null on rows Better Auth wrote. */
  userHandle: string | null;
  /** Ours: the id of the session that registered it (the step-up rule of delete-passkey); null on Better Auth's rows. */
  registeredBySession: string | null;
}

/**
 * Ours: one stable, random WebAuthn user handle per user (Better Auth makes a new one at each registration), so an
 * authenticator that holds a passkey of the user replaces it when the user registers again instead of keeping both.
 */
export interface PasskeyUserHandleTable {
  userId: string;
  /** base64url of 32 random bytes: never the user's id, so the authenticator learns nothing about the account. */
  userHandle: string;
  createdAt: DbDate;
}

export interface PasskeyTables {
  passkey: PasskeyTable;
  passkeyUserHandle: PasskeyUserHandleTable;
}

/** Keyed by the interfaces above, so a column added there and not here fails to compile. */
export const PASSKEY_TABLE_SPECS: TableSpecs<PasskeyTables> = {
  passkey: {
    columns: {
      id: { type: "text", notNull: true },
      name: { type: "text" },
      publicKey: { type: "text", notNull: true },
      userId: { type: "text", notNull: true },
      credentialID: { type: "text", notNull: true },
      counter: { type: "integer", notNull: true },
      deviceType: { type: "text", notNull: true },
      backedUp: { type: "bool", notNull: true },
      transports: { type: "text" },
      createdAt: { type: "date", notNull: true },
      aaguid: { type: "text" },
      userHandle: { type: "text" },
      registeredBySession: { type: "text" },
    },
    indexes: [
      { name: "passkey_userId_idx", columns: ["userId"] },
      // One row per credential: a second user registering someone's credential id would make sign-in ambiguous.
      { name: "passkey_credentialID_uidx", columns: ["credentialID"], unique: true },
    ],
  },
  passkeyUserHandle: {
    columns: {
      userId: { type: "text", notNull: true },
      userHandle: { type: "text", notNull: true },
      createdAt: { type: "date", notNull: true },
    },
    indexes: [{ name: "passkeyUserHandle_userHandle_uidx", columns: ["userHandle"], unique: true }],
  },
};

/** What the module's store reads: its tables and the core ones. */
export interface PasskeyDatabase extends Database, PasskeyTables {}

/** The passkey module's model, independent of how either dialect stores it. */
export interface Passkey {
  id: string;
  name: string | null;
  /** Standard base64 (with padding) of the COSE public key. */
  publicKey: string;
  userId: string;
  /** base64url. */
  credentialID: string;
  counter: number;
  deviceType: string;
  backedUp: boolean;
  /** Comma-joined, "" when none. */
  transports: string | null;
  createdAt: Date;
  aaguid: string | null;
  /** The WebAuthn user handle it was registered under; null on rows Better Auth wrote. */
  userHandle: string | null;
  /** The session that registered it; null on rows Better Auth wrote. */
  registeredBySession: string | null;
}

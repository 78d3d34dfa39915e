/**
 * The passkey error catalogue: API-NOTES-PLUGINS.md 3.3's messages where it gives one, our own otherwise. Each key is
 * its message's code (http/errors.ts codeOf); every catalogue is listed in http/error-catalogue.ts.
 */
export const PASSKEY_MESSAGES = {
  /** No challenge cookie, or its challenge was used, expired, or made for the other ceremony. */
  CHALLENGE_NOT_FOUND: "Challenge not found",
  /** The registration challenge was made for another user or another session. */
  YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY: "You are not allowed to register this passkey",
  FAILED_TO_VERIFY_REGISTRATION: "Failed to verify registration",
  /** The credential is registered already (to this user or another). */
  PREVIOUSLY_REGISTERED: "Previously registered",
  PASSKEY_NOT_FOUND: "Passkey not found",
  AUTHENTICATION_FAILED: "Authentication failed",
  /** Our own (delete-passkey's step-up rule): a session that did not use a passkey, deleting one it did not register. */
  PASSWORD_REQUIRED_TO_DELETE_THIS_PASSKEY: "Password required to delete this passkey",
} as const;

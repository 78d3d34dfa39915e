/**
 * The credentials error catalogue: sign-up and sign-in by email or username, and passwords (SPEC.md section 8's
 * base and username messages). Each key is its message's code (http/errors.ts codeOf); every catalogue is listed
 * in http/error-catalogue.ts.
 */
export const CREDENTIAL_MESSAGES = {
  INVALID_EMAIL: "Invalid email",
  INVALID_PASSWORD: "Invalid password",
  /** Every failed sign-in by email says this, so the failed part is not revealed (SPEC.md section 8). */
  INVALID_EMAIL_OR_PASSWORD: "Invalid email or password",
  PASSWORD_TOO_SHORT: "Password too short",
  PASSWORD_TOO_LONG: "Password too long",
  USER_ALREADY_EXISTS: "User already exists",
  EMAIL_NOT_VERIFIED: "Email not verified",
  EMAIL_AND_PASSWORD_IS_NOT_ENABLED: "Email and password is not enabled",
  EMAIL_AND_PASSWORD_SIGN_UP_IS_NOT_ENABLED: "Email and password sign up is not enabled",
  CREDENTIAL_ACCOUNT_NOT_FOUND: "Credential account not found",
  USER_ALREADY_HAS_A_PASSWORD: "user already has a password",
  FAILED_TO_CREATE_USER: "Failed to create user",
  INVALID_USERNAME_OR_PASSWORD: "invalid username or password",
  USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER: "username is already taken. please try another.",
  USERNAME_IS_TOO_SHORT: "username is too short",
  USERNAME_IS_TOO_LONG: "username is too long",
  USERNAME_IS_INVALID: "username is invalid",
} as const;

/** Codes sent with a message they are not derived from alone (see http/error-catalogue.ts). */
export const CREDENTIAL_FIXED_CODES = {
  /**
   * 403 at sign-in of a banned user. The message is the operator's `admin.bannedUserMessage`, this text by
   * default (API-NOTES.md 2.3), so the code cannot come from it.
   */
  BANNED_USER: "You have been banned from this application. Please contact support if you believe this is an error.",
  /** Sign-in by username spells it in lower case (SPEC.md section 8, username messages); same code. */
  EMAIL_NOT_VERIFIED: "email not verified",
} as const;

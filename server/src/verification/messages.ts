/**
 * The verification error catalogue: mailed links (verify email, reset password, change email, delete user) and
 * their tokens (SPEC.md section 8). Each key is its message's code (http/errors.ts codeOf); every catalogue is
 * listed in http/error-catalogue.ts.
 */
export const VERIFICATION_MESSAGES = {
  INVALID_TOKEN: "invalid token",
  TOKEN_EXPIRED: "Token expired",
  VERIFICATION_EMAIL_ISNT_ENABLED: "Verification email isn't enabled",
  RESET_PASSWORD_ISNT_ENABLED: "Reset password isn't enabled",
  CHANGE_EMAIL_IS_DISABLED: "Change email is disabled",
  EMAIL_IS_THE_SAME: "Email is the same",
  COULDNT_UPDATE_YOUR_EMAIL: "Couldn't update your email",
  EMAIL_MISMATCH: "Email mismatch",
  EMAIL_IS_ALREADY_VERIFIED: "Email is already verified",
  CALLBACKURL_IS_REQUIRED: "callbackURL is required",
  UNABLE_TO_CREATE_VERIFICATION: "Unable to create verification",
  THE_EMAIL_COULD_NOT_BE_SENT_PLEASE_TRY_AGAIN_LATER: "The email could not be sent. Please try again later.",
} as const;

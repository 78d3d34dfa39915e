/**
 * The error catalogues of the magic-link and email-code modules (API-NOTES-PLUGINS.md sections 4 and 5): each key
 * is its message's code (http/errors.ts codeOf); both are listed in http/error-catalogue.ts. Codes another
 * catalogue has already (INVALID_TOKEN, INVALID_EMAIL, EMAIL_IS_THE_SAME, PASSWORD_TOO_SHORT, …) are used from it.
 */
export const MAGIC_LINK_MESSAGES = {
  NEW_USER_SIGNUP_DISABLED: "New user signup disabled",
} as const;

export const EMAIL_OTP_MESSAGES = {
  OTP_EXPIRED: "OTP expired",
  INVALID_OTP: "Invalid OTP",
  /** 403, as Better Auth answers it (API-NOTES-PLUGINS.md section 10, item 13). */
  TOO_MANY_ATTEMPTS: "Too many attempts",
  INVALID_OTP_TYPE: "Invalid OTP type",
  CHANGE_EMAIL_WITH_OTP_IS_DISABLED: "Change email with OTP is disabled",
  OTP_IS_REQUIRED_TO_VERIFY_CURRENT_EMAIL: "OTP is required to verify current email",
  EMAIL_ALREADY_IN_USE: "Email already in use",
} as const;

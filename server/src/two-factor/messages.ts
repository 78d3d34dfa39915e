/**
 * The two-factor error catalogue: Better Auth's twoFactor messages (API-NOTES-PLUGINS.md 2.5) where it gives one.
 * Each key is its message's code (http/errors.ts codeOf); every catalogue is listed in http/error-catalogue.ts.
 */
export const TWO_FACTOR_MESSAGES = {
  OTP_NOT_ENABLED: "OTP not enabled",
  OTP_HAS_EXPIRED: "OTP has expired",
  TOTP_NOT_ENABLED: "TOTP not enabled",
  INVALID_BACKUP_CODE: "Invalid backup code",
  INVALID_CODE: "Invalid code",
  INVALID_TWO_FACTOR_COOKIE: "Invalid two factor cookie",
  /** Our own: enable with method "otp" when the email code is a factor already. */
  OTP_IS_ALREADY_ENABLED: "OTP is already enabled",
} as const;

/**
 * Codes Better Auth's plugin sends with a message that does not give them (API-NOTES-PLUGINS.md 2.5): clients of its
 * twoFactor plugin match on these codes, so they are kept as they are (see http/error-catalogue.ts).
 */
export const TWO_FACTOR_FIXED_CODES = {
  TOTP_ALREADY_ENABLED: "TOTP is already enabled",
  TWO_FACTOR_NOT_ENABLED: "Two factor isn't enabled",
  BACKUP_CODES_NOT_ENABLED: "Backup codes aren't enabled",
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: "Too many attempts. Please request a new code.",
  ACCOUNT_TEMPORARILY_LOCKED:
    "Too many failed verification attempts. Your account is temporarily locked. Please try again later.",
} as const;

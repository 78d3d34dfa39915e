/**
 * The user profile's error catalogue: reading and updating a user. Each key is its message's code
 * (http/errors.ts codeOf); every catalogue is listed in http/error-catalogue.ts.
 */
export const USER_MESSAGES = {
  USER_NOT_FOUND: "User not found",
  FAILED_TO_UPDATE_USER: "Failed to update user",
  EMAIL_CAN_NOT_BE_UPDATED: "Email can not be updated",
  NO_FIELDS_TO_UPDATE: "No fields to update",
  /** A `lang` that is not one of the service's languages (email/language.ts). */
  UNSUPPORTED_LANGUAGE: "Unsupported language",
} as const;

/** Codes sent with a message they are not derived from (see http/error-catalogue.ts). */
export const USER_FIXED_CODES = {
  /** A field the caller may not set (`input: false`, API-NOTES.md 1.2); {field} names it. */
  FIELD_NOT_ALLOWED: "{field} is not allowed to be set",
} as const;

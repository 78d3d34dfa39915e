/**
 * The social sign-in error catalogue (SPEC.md section 8 where it names them). Each key is its message's code
 * (http/errors.ts codeOf); every catalogue is listed in http/error-catalogue.ts.
 */
export const OAUTH_MESSAGES = {
  PROVIDER_NOT_FOUND: "Provider not found",
  ID_TOKEN_NOT_SUPPORTED: "id_token not supported",
  INVALID_TOKEN: "invalid token",
  FAILED_TO_GET_USER_INFO: "Failed to get user info",
  USER_EMAIL_NOT_FOUND: "User email not found",
  YOU_CANT_UNLINK_YOUR_LAST_ACCOUNT: "You can't unlink your last account",
  ACCOUNT_NOT_FOUND: "Account not found",
  EITHER_USERID_OR_SESSION_IS_REQUIRED: "Either userId or session is required",
  FAILED_TO_REFRESH_ACCESS_TOKEN: "Failed to refresh access token",
  FAILED_TO_GET_ACCESS_TOKEN: "Failed to get access token",
  REFRESH_TOKEN_NOT_FOUND: "Refresh token not found",
  ACCESS_TOKEN_NOT_FOUND: "Access token not found",
  SOCIAL_ACCOUNT_ALREADY_LINKED: "Social account already linked",
  ACCOUNT_NOT_LINKED_LINKING_NOT_ALLOWED: "Account not linked - linking not allowed",
  ACCOUNT_NOT_LINKED_DIFFERENT_EMAILS_NOT_ALLOWED: "Account not linked - different emails not allowed",
  UNABLE_TO_LINK_ACCOUNT: "Unable to link account",
  FAILED_TO_REACH_THE_PROVIDER: "Failed to reach the provider",
  /** The sign-in failure reasons of a posted ID token (SPEC.md section 8 lists them with spaces as underscores, as redirects carry them). */
  UNABLE_TO_CREATE_USER: "unable to create user",
  ACCOUNT_NOT_LINKED: "account not linked",
  SIGNUP_DISABLED: "signup disabled",
} as const;

/** Codes sent with a message they are not derived from: the provider's id is in it (see http/error-catalogue.ts). */
export const OAUTH_FIXED_CODES = {
  /** An account's provider is no longer configured (SPEC.md section 8: "Provider {id} not found"). */
  PROVIDER_NOT_FOUND: "Provider {id} not found",
  TOKEN_REFRESH_NOT_SUPPORTED: "Provider {id} does not support token refreshing",
} as const;

/**
 * The administrators' error catalogue (API-NOTES.md 2.3). Each key is its message's code (http/errors.ts codeOf);
 * every catalogue is listed in http/error-catalogue.ts.
 */
export const ADMIN_MESSAGES = {
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "User already exists. Use another email.",
  YOU_CANNOT_BAN_YOURSELF: "You cannot ban yourself",
  YOU_CANNOT_REMOVE_YOURSELF: "You cannot remove yourself",
  YOU_CANNOT_IMPERSONATE_ADMINS: "You cannot impersonate admins",
  YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS: "You are not allowed to create users",
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS: "You are not allowed to list users",
  YOU_ARE_NOT_ALLOWED_TO_GET_USER: "You are not allowed to get user",
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS: "You are not allowed to update users",
  YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE: "You are not allowed to change users role",
  YOU_ARE_NOT_ALLOWED_TO_BAN_USERS: "You are not allowed to ban users",
  YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS: "You are not allowed to impersonate users",
  YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS: "You are not allowed to delete users",
  YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD: "You are not allowed to set users password",
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS: "You are not allowed to list users sessions",
  YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS: "You are not allowed to revoke users sessions",
  YOU_ARE_NOT_ALLOWED_TO_LIST_ORGANIZATIONS: "You are not allowed to list organizations",
  YOU_ARE_NOT_ALLOWED_TO_GET_ORGANIZATION: "You are not allowed to get organization",
  YOU_ARE_NOT_ALLOWED_TO_SET_A_NON_EXISTENT_ROLE_VALUE: "You are not allowed to set a non-existent role value",
  INVALID_ROLE_TYPE: "Invalid role type",
  NO_DATA_TO_UPDATE: "No data to update",
  PASSWORD_CANNOT_BE_UPDATED_THROUGH_UPDATE_USER_USE_THE_SET_USER_PASSWORD_ENDPOINT_INSTEAD:
    "Password cannot be updated through update-user. Use the set-user-password endpoint instead",
  USER_ID_CANNOT_BE_UPDATED: "User id cannot be updated.",
  YOU_ARE_NOT_IMPERSONATING_ANYONE: "You are not impersonating anyone",
  FAILED_TO_FIND_ADMIN_SESSION: "Failed to find admin session",
  INVALID_PERMISSION_CHECK_NO_PERMISSIONS_WERE_PASSED: "invalid permission check. no permission(s) were passed.",
  USER_ID_OR_ROLE_IS_REQUIRED: "user id or role is required",
  /** Ours (factor-routes.ts): the `factors` resource's refusals, and one's own factors go through the step-up. */
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_FACTORS: "You are not allowed to list users factors",
  YOU_ARE_NOT_ALLOWED_TO_RESET_USERS_FACTORS: "You are not allowed to reset users factors",
  YOU_CANNOT_RESET_YOUR_OWN_FACTORS: "You cannot reset your own factors",
} as const;

/** Codes sent with a message they are not derived from alone (see http/error-catalogue.ts). */
export const ADMIN_FIXED_CODES = {
  /** has-permission spells it in lower case (API-NOTES.md 2.3); same code as "User not found". */
  USER_NOT_FOUND: "user not found",
} as const;

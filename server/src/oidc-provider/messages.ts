/**
 * The OpenID Provider's error catalogue for its JSON routes (consent, connected applications, administration).
 * Each key is its message's code (http/errors.ts codeOf); every catalogue is listed in http/error-catalogue.ts.
 * The protocol endpoints (token, userinfo, ...) answer OAuth's own `{ error, error_description }`.
 */
export const OIDC_MESSAGES = {
  /** Unknown, expired or finished, or not this browser's. */
  INTERACTION_NOT_FOUND: "Interaction not found",
  /** The session's user is not the one the application's request is signing in. */
  INTERACTION_BELONGS_TO_ANOTHER_USER: "Interaction belongs to another user",
  INTERACTION_IS_NOT_AWAITING_CONSENT: "Interaction is not awaiting consent",
  GRANT_NOT_FOUND: "Grant not found",
  OIDC_CLIENT_NOT_FOUND: "OIDC client not found",
  /** Clients of the configuration file change in the file only. */
  OIDC_CLIENT_IS_DECLARED_IN_THE_CONFIGURATION: "OIDC client is declared in the configuration",
  OIDC_CLIENT_ID_IS_TAKEN: "OIDC client id is taken",
  PUBLIC_CLIENTS_HAVE_NO_SECRET: "Public clients have no secret",
  YOU_ARE_NOT_ALLOWED_TO_LIST_OIDC_CLIENTS: "You are not allowed to list OIDC clients",
  YOU_ARE_NOT_ALLOWED_TO_GET_OIDC_CLIENTS: "You are not allowed to get OIDC clients",
  YOU_ARE_NOT_ALLOWED_TO_CREATE_OIDC_CLIENTS: "You are not allowed to create OIDC clients",
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_OIDC_CLIENTS: "You are not allowed to update OIDC clients",
  YOU_ARE_NOT_ALLOWED_TO_DELETE_OIDC_CLIENTS: "You are not allowed to delete OIDC clients",
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_OIDC_GRANTS: "You are not allowed to list users OIDC grants",
  YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_OIDC_GRANTS: "You are not allowed to revoke users OIDC grants",
} as const;

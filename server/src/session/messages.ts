/**
 * The session error catalogue (SPEC.md section 8). Each key is its message's code (http/errors.ts codeOf);
 * every catalogue is listed in http/error-catalogue.ts.
 */
export const SESSION_MESSAGES = {
  FAILED_TO_CREATE_SESSION: "Failed to create session",
  FAILED_TO_GET_SESSION: "Failed to get session",
  SESSION_EXPIRED_RE_AUTHENTICATE_TO_PERFORM_THIS_ACTION: "Session expired. Re-authenticate to perform this action.",
  SESSION_IS_NOT_FRESH: "Session is not fresh",
  SESSION_NOT_FOUND: "Session not found",
} as const;

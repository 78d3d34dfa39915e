/**
 * The HTTP layer's error catalogue: refusals of the request itself (origin, body, callback URLs, rate limit),
 * before any domain looks at it. Each key is its message's code (http/errors.ts codeOf, SPEC.md section 8);
 * every catalogue is listed in http/error-catalogue.ts.
 */
export const HTTP_MESSAGES = {
  UNAUTHORIZED: "Unauthorized",
  NOT_FOUND: "Not found",
  INTERNAL_SERVER_ERROR: "Internal server error",
  /** 409: a row the request's write refers to was deleted while it ran (a foreign key failed). */
  REFERENCED_RECORD_NO_LONGER_EXISTS: "Referenced record no longer exists",
  INVALID_ORIGIN: "Invalid origin",
  MISSING_OR_NULL_ORIGIN: "Missing or null Origin",
  CROSS_SITE_NAVIGATION_LOGIN_BLOCKED_THIS_REQUEST_APPEARS_TO_BE_A_CSRF_ATTACK: "Cross-site navigation login blocked. This request appears to be a CSRF attack.",
  INVALID_CALLBACKURL: "Invalid callbackURL",
  INVALID_REDIRECTURL: "Invalid redirectURL",
  INVALID_ERRORCALLBACKURL: "Invalid errorCallbackURL",
  INVALID_NEWUSERCALLBACKURL: "Invalid newUserCallbackURL",
  INVALID_CALLBACKURL_EXPECTED_A_STRING: "Invalid callbackURL: expected a string",
  INVALID_REDIRECTTO_EXPECTED_A_STRING: "Invalid redirectTo: expected a string",
  INVALID_ERRORCALLBACKURL_EXPECTED_A_STRING: "Invalid errorCallbackURL: expected a string",
  INVALID_NEWUSERCALLBACKURL_EXPECTED_A_STRING: "Invalid newUserCallbackURL: expected a string",
  TOO_MANY_REQUESTS_PLEASE_TRY_AGAIN_LATER: "Too many requests. Please try again later.",
  INVALID_JSON_IN_REQUEST_BODY: "Invalid JSON in request body",
  REQUEST_BODY_IS_TOO_LARGE: "Request body is too large",
  /** The client went away before its request body was whole. */
  REQUEST_BODY_INCOMPLETE: "Request body incomplete",
  /** An in-process call (gatehouse.api) to an endpoint that needs a session, without headers (SPEC.md section 8). */
  HEADERS_IS_REQUIRED: "Headers is required",
  /** 500: a link must be built and the service has no base URL (http/public-base.ts). */
  BASEURL_IS_NOT_SET_LINKS_IN_MAIL_AND_OAUTH_REDIRECTS_NEED_IT_SET_BASE_URL: "baseURL is not set: links in mail and OAuth redirects need it (set BASE_URL)",
} as const;

/**
 * Codes this layer sends with a message they are not derived from: the message carries a value (`{name}`,
 * filled by fillMessage) or is a sentence the code never was; the code is what clients test (API-NOTES.md 1.2).
 */
export const HTTP_FIXED_CODES = {
  /** A body or query failed its schema; `issues` lists each field (API-NOTES.md 1.2). {source}: body or query. */
  VALIDATION_ERROR: "Invalid {source} parameters",
  /** 415, {type} the request's Content-Type (quoted), {allowed} the ones the endpoint takes. */
  UNSUPPORTED_MEDIA_TYPE: "Content-Type {type} is not allowed. Allowed types: {allowed}",
  /** 415 for a body without a Content-Type. */
  CONTENT_TYPE_IS_REQUIRED: "Content-Type is required. Allowed types: {allowed}",
  /** 503 when storage is unreachable (http/app.ts): the status names the code, clients retry on it. */
  SERVICE_UNAVAILABLE: "Service temporarily unavailable. Please try again.",
} as const;

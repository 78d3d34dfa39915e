/**
 * One error type for every refusal the API makes. The wire shape is `{ code, message }`, where code is the
 * message upper-cased with spaces (and hyphens) turned to underscores (SPEC.md section 8); other punctuation
 * is dropped so codes stay identifiers
 * ("Session expired. Re-authenticate ..." -> "SESSION_EXPIRED_RE_AUTHENTICATE_...").
 */
export function codeOf(message: string): string {
  return message
    .toUpperCase()
    .replace(/-/g, " ")
    .replace(/[^A-Z0-9 _]+/g, "")
    .trim()
    .replace(/[\s_]+/g, "_");
}

export const STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE_ENTITY: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type StatusName = keyof typeof STATUS;

export interface ErrorBody {
  code: string;
  message: string;
  [extra: string]: unknown;
}

export class APIError extends Error {
  override name = "APIError";
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: StatusName | number,
    message: string,
    opts: { code?: string; extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = typeof status === "number" ? status : STATUS[status];
    this.code = opts.code ?? codeOf(message);
    this.extra = opts.extra;
    this.headers = opts.headers;
  }

  toJSON(): ErrorBody {
    return { ...this.extra, code: this.code, message: this.message };
  }
}

/** The base catalogue (SPEC.md section 8, messages of API-NOTES.md 2.5 where SPEC.md is silent). */
export const MESSAGES = {
  USER_NOT_FOUND: "User not found",
  FAILED_TO_CREATE_USER: "Failed to create user",
  FAILED_TO_CREATE_SESSION: "Failed to create session",
  FAILED_TO_UPDATE_USER: "Failed to update user",
  FAILED_TO_GET_SESSION: "Failed to get session",
  INVALID_PASSWORD: "Invalid password",
  INVALID_EMAIL: "Invalid email",
  INVALID_EMAIL_OR_PASSWORD: "Invalid email or password",
  PASSWORD_TOO_SHORT: "Password too short",
  PASSWORD_TOO_LONG: "Password too long",
  USER_ALREADY_EXISTS: "User already exists",
  EMAIL_NOT_VERIFIED: "Email not verified",
  EMAIL_CAN_NOT_BE_UPDATED: "Email can not be updated",
  SESSION_EXPIRED: "Session expired. Re-authenticate to perform this action.",
  SESSION_NOT_FRESH: "Session is not fresh",
  SESSION_NOT_FOUND: "Session not found",
  EMAIL_PASSWORD_DISABLED: "Email and password is not enabled",
  EMAIL_PASSWORD_SIGN_UP_DISABLED: "Email and password sign up is not enabled",
  UNAUTHORIZED: "Unauthorized",
  /** 409: a row the request's write refers to was deleted while it ran (a foreign key failed). */
  REFERENCED_RECORD_GONE: "Referenced record no longer exists",
  NO_FIELDS_TO_UPDATE: "No fields to update",
  INVALID_ORIGIN: "Invalid origin",
  MISSING_OR_NULL_ORIGIN: "Missing or null Origin",
  CROSS_SITE_NAVIGATION_LOGIN_BLOCKED: "Cross-site navigation login blocked. This request appears to be a CSRF attack.",
  INVALID_CALLBACK_URL: "Invalid callbackURL",
  INVALID_REDIRECT_URL: "Invalid redirectURL",
  INVALID_ERROR_CALLBACK_URL: "Invalid errorCallbackURL",
  INVALID_NEW_USER_CALLBACK_URL: "Invalid newUserCallbackURL",
  TOO_MANY_REQUESTS: "Too many requests. Please try again later.",
  INVALID_BODY: "Invalid body parameters",
  INVALID_QUERY: "Invalid query parameters",
  INVALID_JSON: "Invalid JSON in request body",
  BODY_TOO_LARGE: "Request body is too large",
  SERVICE_UNAVAILABLE: "Service temporarily unavailable. Please try again.",
  INTERNAL_SERVER_ERROR: "Internal server error",
  NOT_FOUND: "Not found",
  INVALID_TOKEN: "invalid token",
  TOKEN_EXPIRED: "Token expired",
  VERIFICATION_EMAIL_NOT_ENABLED: "Verification email isn't enabled",
  RESET_PASSWORD_DISABLED: "Reset password isn't enabled",
  CHANGE_EMAIL_DISABLED: "Change email is disabled",
  EMAIL_IS_THE_SAME: "Email is the same",
  COULDNT_UPDATE_EMAIL: "Couldn't update your email",
  EMAIL_MISMATCH: "Email mismatch",
  EMAIL_ALREADY_VERIFIED: "Email is already verified",
  USER_ALREADY_HAS_PASSWORD: "user already has a password",
  CREDENTIAL_ACCOUNT_NOT_FOUND: "Credential account not found",
  CALLBACK_URL_REQUIRED: "callbackURL is required",
  FAILED_TO_CREATE_VERIFICATION: "Unable to create verification",
  EMAIL_NOT_SENT: "The email could not be sent. Please try again later.",
  USER_DELETED: "User deleted",
  VERIFICATION_EMAIL_SENT: "Verification email sent",
} as const;

export const VALIDATION_ERROR = "VALIDATION_ERROR";

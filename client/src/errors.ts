/**
 * What a failed call reports. `status` is the HTTP status, or 0 when no answer arrived (network failure,
 * aborted request). `code` is the server's stable upper-snake code; when the server sent none (a 429, an
 * empty 404) the client derives one from the message or the status, so `code` is always set.
 */
export interface AuthError {
  status: number;
  code: string;
  message: string;
  /**
   * For a VALIDATION_ERROR, what failed where: `path` names the field as "body.newPassword" or
   * "query.token". Absent on every other error.
   */
  issues?: ValidationIssue[];
  /**
   * A 429's wait, in whole seconds, from the answer's `Retry-After` (or `X-Retry-After`) header, so an
   * application can say how long to wait. Absent when the answer gave none.
   */
  retryAfter?: number;
}

/** One failed check of a request's body or query string. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/** Codes the client makes up itself, for failures the server never answered. */
export const CLIENT_ERROR_CODES = {
  NETWORK_ERROR: "NETWORK_ERROR",
  ABORTED: "ABORTED",
  UNREADABLE_RESPONSE: "UNREADABLE_RESPONSE",
} as const;

/** Thrown by `client.$fetch` and `client.$list`; carries the same fields as `AuthError`. */
export class AuthClientError extends Error implements AuthError {
  override name = "AuthClientError";
  readonly status: number;
  readonly code: string;
  readonly issues?: ValidationIssue[];
  readonly retryAfter?: number;

  constructor(error: AuthError, options?: { cause?: unknown }) {
    super(error.message, options);
    this.status = error.status;
    this.code = error.code;
    if (error.issues) this.issues = error.issues;
    if (error.retryAfter !== undefined) this.retryAfter = error.retryAfter;
  }

  toJSON(): AuthError {
    const json: AuthError = { status: this.status, code: this.code, message: this.message };
    if (this.issues) json.issues = this.issues;
    if (this.retryAfter !== undefined) json.retryAfter = this.retryAfter;
    return json;
  }
}

/** Same rule as the server's: the message upper-cased, spaces and hyphens to underscores, the rest dropped. */
export function codeOfMessage(message: string): string {
  return message
    .toUpperCase()
    .replace(/-/g, " ")
    .replace(/[^A-Z0-9 _]+/g, "")
    .trim()
    .replace(/[\s_]+/g, "_");
}

const STATUS_CODES: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE_ENTITY",
  429: "TOO_MANY_REQUESTS",
  500: "INTERNAL_SERVER_ERROR",
  503: "SERVICE_UNAVAILABLE",
};

/**
 * Seconds from a `Retry-After` header: a number of seconds or an HTTP date (RFC 9110 section 10.2.3); the
 * non-standard `X-Retry-After` some services send is read as seconds too.
 */
export function retryAfterSeconds(headers: Headers | undefined, now = Date.now()): number | undefined {
  const value = headers?.get("retry-after") ?? headers?.get("x-retry-after");
  if (!value) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** Builds the error of a non-2xx answer from whatever its body held: `{code, message}`, `{message}` or nothing. */
export function errorFromAnswer(status: number, statusText: string, body: unknown, headers?: Headers): AuthError {
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const message = typeof fields.message === "string" && fields.message ? fields.message : statusText || `HTTP ${status}`;
  const sentCode = typeof fields.code === "string" && fields.code ? fields.code : undefined;
  const code = sentCode ?? (typeof fields.message === "string" && fields.message ? codeOfMessage(fields.message) : undefined);
  const error: AuthError = { status, code: code || STATUS_CODES[status] || `HTTP_${status}`, message };
  const issues = validationIssues(fields.issues);
  if (issues) error.issues = issues;
  const retryAfter = retryAfterSeconds(headers);
  if (retryAfter !== undefined) error.retryAfter = retryAfter;
  return error;
}

/** The well-formed entries of a VALIDATION_ERROR's `issues`, or undefined when there are none. */
function validationIssues(value: unknown): ValidationIssue[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const issues = value.flatMap((item: unknown): ValidationIssue[] => {
    if (typeof item !== "object" || item === null) return [];
    const { path, message } = item as Record<string, unknown>;
    return typeof path === "string" && typeof message === "string" ? [{ path, message }] : [];
  });
  return issues.length > 0 ? issues : undefined;
}

/** The error of a call that got no answer at all. */
export function errorFromFailure(failure: unknown): AuthError {
  const aborted = failure instanceof Error && (failure.name === "AbortError" || failure.name === "TimeoutError");
  const message = failure instanceof Error ? failure.message : String(failure);
  return {
    status: 0,
    code: aborted ? CLIENT_ERROR_CODES.ABORTED : CLIENT_ERROR_CODES.NETWORK_ERROR,
    message: message || "Network request failed",
  };
}

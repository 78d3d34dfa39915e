import type { ErrorCode } from "./error-catalogue.js";

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

/**
 * A catalogue message with its `{name}` placeholders filled: `fillMessage("{field} is not allowed to be set",
 * { field: "role" })`. Only the FIXED_CODES sections of the catalogues have placeholders (http/error-catalogue.ts).
 */
export function fillMessage(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * The message is a catalogue entry (http/error-catalogue.ts lists the catalogues); the code is derived from it,
 * unless `opts.code` names one of the catalogues' FIXED_CODES (a message that is configured or carries a value).
 */
export class APIError extends Error {
  override name = "APIError";
  readonly status: number;
  /** A catalogue code: the message's own (a catalogue message gives its key, error-catalogue.test.ts) or opts.code. */
  readonly code: ErrorCode;
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: StatusName | number,
    message: string,
    opts: { code?: ErrorCode; extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = typeof status === "number" ? status : STATUS[status];
    this.code = opts.code ?? (codeOf(message) as ErrorCode);
    this.extra = opts.extra;
    this.headers = opts.headers;
  }

  toJSON(): ErrorBody {
    return { ...this.extra, code: this.code, message: this.message };
  }
}

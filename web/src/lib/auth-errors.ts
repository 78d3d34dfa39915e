import type { AuthError } from "@gatehouse/client";
import type { TFunction } from "i18next";
import { i18n } from "../i18n";
import { formatWait } from "./format-time";
import type { en } from "../i18n/en";

type KnownCode = keyof typeof en.serverErrors;

/** Codes a status stands for when the answer's code has no sentence of ours (a 429 or 503 says enough). */
const CODE_OF_STATUS: Partial<Record<number, KnownCode>> = {
  429: "TOO_MANY_REQUESTS_PLEASE_TRY_AGAIN_LATER",
  503: "SERVICE_UNAVAILABLE",
};

/**
 * The service's default `admin.bannedUserMessage`. A banned sign-in carrying it is said in the user's language
 * (serverErrors.BANNED_USER); an operator who wrote their own message gets it shown as they wrote it.
 */
export const DEFAULT_BANNED_USER_MESSAGE =
  "You have been banned from this application. Please contact support if you believe this is an error.";

function knownCode(code: string): code is KnownCode {
  return i18n.exists(`serverErrors.${code}`);
}

/**
 * The sentence to show for a failed call: our own wording for codes we know (so it can be translated),
 * otherwise the server's message, otherwise a generic line.
 */
export function errorMessage(t: TFunction, error: AuthError): string {
  if (error.status === 0) return t("common.networkError");
  // A 429 says how long to wait when the service told us (Retry-After).
  if (error.status === 429 && error.retryAfter !== undefined) {
    return t("rateLimited.wait", { wait: formatWait(error.retryAfter, i18n.language) });
  }
  if (error.code === "BANNED_USER" && error.message && error.message !== DEFAULT_BANNED_USER_MESSAGE) return error.message;
  if (knownCode(error.code)) return t(`serverErrors.${error.code}`);
  const byStatus = CODE_OF_STATUS[error.status];
  if (byStatus) return t(`serverErrors.${byStatus}`);
  return error.message || t("common.genericError");
}

/** Where a form shows a server error: beside one of its fields, or at the top of the form. */
export function fieldOfError<F extends string>(error: AuthError, fields: Partial<Record<string, F>>): F | "form" {
  return fields[error.code] ?? "form";
}

/**
 * The fields a VALIDATION_ERROR names, by the request field each form field sends ("newPassword" for the
 * issue path "body.newPassword"). Issues about fields the form does not show are left out; the caller shows
 * the form-level message when nothing is left.
 */
export function fieldsOfIssues<F extends string>(error: AuthError, fields: Partial<Record<string, F>>): F[] {
  const found = new Set<F>();
  for (const issue of error.issues ?? []) {
    const name = issue.path.replace(/^(body|query)\./, "").split(".")[0] ?? "";
    const field = fields[name];
    if (field) found.add(field);
  }
  return [...found];
}

export interface ErrorPlacement<F extends string> {
  /** Server codes that are about one field, e.g. `{ INVALID_PASSWORD: "currentPassword" }`. */
  codes?: Partial<Record<string, F>>;
  /** The request field each form field sends, to place a VALIDATION_ERROR's issues: `{ newPassword: "new" }`. */
  requestFields?: Partial<Record<string, F>>;
  /** Wording of this form's own for some codes (a wrong password means something else in each form). */
  messages?: Partial<Record<string, string>>;
}

export interface PlacedError<F extends string> {
  fields: Partial<Record<F, string>>;
  /** The message for the top of the form, or null when every part of the error sits beside a field. */
  form: string | null;
}

/** Splits a failed call's error into the form's field messages and its form-level message. */
export function placeError<F extends string>(t: TFunction, error: AuthError, placement: ErrorPlacement<F>): PlacedError<F> {
  const message = placement.messages?.[error.code] ?? errorMessage(t, error);
  if (error.code === "VALIDATION_ERROR") {
    const invalid = fieldsOfIssues(error, placement.requestFields ?? {});
    if (invalid.length === 0) return { fields: {}, form: message };
    const fields: Partial<Record<F, string>> = {};
    for (const field of invalid) fields[field] = t("validation.fieldRejected");
    return { fields, form: null };
  }
  const field = fieldOfError(error, placement.codes ?? {});
  return field === "form" ? { fields: {}, form: message } : { fields: { [field]: message } as Partial<Record<F, string>>, form: null };
}

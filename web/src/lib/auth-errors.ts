import type { AuthError } from "@gatehouse/client";
import type { TFunction } from "i18next";
import { i18n } from "../i18n";
import type { en } from "../i18n/en";

type KnownCode = keyof typeof en.serverErrors;

/**
 * The sentence to show for a failed call: our own wording for codes we know (so it can be translated),
 * otherwise the server's message, otherwise a generic line.
 */
export function errorMessage(t: TFunction, error: AuthError): string {
  if (error.status === 0) return t("common.networkError");
  if (i18n.exists(`serverErrors.${error.code}`)) return t(`serverErrors.${error.code as KnownCode}`);
  return error.message || t("common.genericError");
}

/** Where a form shows a server error: beside one of its fields, or at the top of the form. */
export function fieldOfError<F extends string>(error: AuthError, fields: Partial<Record<string, F>>): F | "form" {
  return fields[error.code] ?? "form";
}

import type { TFunction } from "i18next";
import { appPath } from "./second-step";
import { looksLikeEmail } from "./validation";

/**
 * What the sign-in page hands to the pages that sign in by a mailed link or code (and to the second step): the
 * address typed so far and the page the visitor was going to.
 */
export interface SignInState {
  email?: string;
  from?: string;
}

export function readSignInState(state: unknown): { email: string; from: string } {
  const { email, from } = (state ?? {}) as { email?: unknown; from?: unknown };
  return { email: typeof email === "string" ? email : "", from: appPath(from) };
}

/** The email field's own check, as the other signed-out forms make it. */
export function emailProblem(t: TFunction, email: string): string | null {
  const trimmed = email.trim();
  if (!trimmed) return t("validation.emailRequired");
  return looksLikeEmail(trimmed) ? null : t("validation.emailInvalid");
}

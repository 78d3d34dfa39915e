import type { TFunction } from "i18next";

/** The username rules of the service (SPEC.md section 5; server/src/credentials/username.ts). The server decides. */

export interface UsernameBounds {
  minLength: number;
  maxLength: number;
}

/** The service's defaults, used until (or when) GET /features says otherwise. */
export const DEFAULT_USERNAME_BOUNDS: UsernameBounds = { minLength: 3, maxLength: 30 };

/** Letters a–z (either case), digits, underscore and dot; checked on the username as typed. */
const USERNAME_PATTERN = /^[A-Za-z0-9_.]+$/;

export type UsernameProblem = "tooShort" | "tooLong" | "invalid";

/** What is wrong with a username as typed, in the order the service checks it, or null when it follows the rules. */
export function usernameProblem(value: string, bounds: UsernameBounds): UsernameProblem | null {
  if (value.length < bounds.minLength) return "tooShort";
  if (value.length > bounds.maxLength) return "tooLong";
  if (!USERNAME_PATTERN.test(value)) return "invalid";
  return null;
}

/** Whether a sign-in field holds an email address rather than a username: usernames never have an "@". */
export function isEmailIdentifier(value: string): boolean {
  return value.includes("@");
}

/** The sentence for a rule a username breaks, with this service's bounds. */
export function usernameProblemMessage(t: TFunction, problem: UsernameProblem, bounds: UsernameBounds): string {
  if (problem === "tooShort") return t("username.tooShort", { min: bounds.minLength });
  if (problem === "tooLong") return t("username.tooLong", { max: bounds.maxLength });
  return t("username.invalid");
}

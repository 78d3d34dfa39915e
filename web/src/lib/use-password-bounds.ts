import type { TFunction } from "i18next";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./config";
import { useFeatures } from "./use-features";

export interface PasswordBounds {
  minLength: number;
  maxLength: number;
}

/**
 * The password lengths this service accepts (GET /features), the defaults until they are known. Forms show the
 * minimum as a hint and check both before sending; the service checks again and its error is shown if it differs.
 */
export function usePasswordBounds(): PasswordBounds {
  const policy = useFeatures()?.emailAndPassword;
  return {
    minLength: policy?.minPasswordLength ?? PASSWORD_MIN_LENGTH,
    maxLength: policy?.maxPasswordLength ?? PASSWORD_MAX_LENGTH,
  };
}

/** What is wrong with a new password's length (counted as the service counts it, in UTF-16 units), or null. */
export function passwordLengthProblem(t: TFunction, password: string, bounds: PasswordBounds): string | null {
  if (password.length < bounds.minLength) return t("validation.passwordTooShort", { min: bounds.minLength });
  if (password.length > bounds.maxLength) return t("validation.passwordTooLong", { max: bounds.maxLength });
  return null;
}

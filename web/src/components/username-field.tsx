import { useTranslation } from "react-i18next";
import type { UsernameAvailability } from "../lib/use-username-availability";
import { usernameProblem, usernameProblemMessage, type UsernameBounds } from "../lib/username-rules";
import { TextField, type TextFieldProps } from "./ui/text-field";
import styles from "./username-field.module.css";

export interface UsernameFieldProps extends Omit<TextFieldProps, "label" | "hint" | "status" | "onChange" | "value"> {
  value: string;
  onChange(value: string): void;
  bounds: UsernameBounds;
  /** From `useUsernameAvailability()`: "checking" and "available" under the input, "taken" as its error. */
  availability: UsernameAvailability;
  /** The hint under the label; the rules with the service's bounds by default. */
  hint?: string;
}

/**
 * A username input that explains the rules with this service's bounds, flags characters and lengths it will
 * refuse as they are typed (a too-short name only once the form says so, through `error`), and says whether
 * the name is free.
 */
export function UsernameField({ value, onChange, bounds, availability, hint, error, ...inputProps }: UsernameFieldProps) {
  const { t } = useTranslation();
  const problem = value ? usernameProblem(value, bounds) : null;
  const liveError =
    problem === "invalid" || problem === "tooLong"
      ? usernameProblemMessage(t, problem, bounds)
      : availability === "taken"
        ? t("username.taken")
        : undefined;
  const status =
    availability === "checking" ? (
      t("username.checking")
    ) : availability === "available" ? (
      <span className={styles.available}>{t("username.available")}</span>
    ) : null;

  return (
    <TextField
      label={t("username.label")}
      hint={hint ?? t("username.hint", { min: bounds.minLength, max: bounds.maxLength })}
      status={status}
      autoComplete="username"
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      value={value}
      error={error ?? liveError}
      onChange={(event) => onChange(event.target.value)}
      {...inputProps}
    />
  );
}

import { useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Checkbox } from "../../components/ui/checkbox";
import { Form } from "../../components/ui/form";
import { PasswordField } from "../../components/ui/password-field";
import { TextField } from "../../components/ui/text-field";
import { LastUsedBadge } from "../../components/last-used-badge";
import { authClient } from "../../lib/auth-client";
import { lastUsedMethod } from "../../lib/last-used-method";
import { errorMessage, fieldOfError } from "../../lib/auth-errors";
import { useFocusFirstError } from "../../lib/use-focus-first-error";
import { isEmailIdentifier } from "../../lib/username-rules";
import { looksLikeEmail } from "../../lib/validation";
import styles from "./sign-in-form.module.css";

type Field = "identifier" | "password";

/**
 * Server codes that are about one field. A wrong email, username or password stays form-level on purpose.
 * The username rules are checked on sign-in too, so a name that breaks them is said to be wrong beside it.
 */
const FIELD_OF_CODE: Partial<Record<string, Field>> = {
  INVALID_EMAIL: "identifier",
  USERNAME_IS_TOO_SHORT: "identifier",
  USERNAME_IS_TOO_LONG: "identifier",
  USERNAME_IS_INVALID: "identifier",
  PASSWORD_TOO_LONG: "password",
};

export function SignInForm() {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  // An email address or a username: one with an "@" is an email address, since usernames cannot have one.
  const [lastUsed] = useState(lastUsedMethod);
  const [identifier, setIdentifier] = useState("");
  // Set when the service refused an unverified address (and mailed it a new link): an explanation, not an error.
  // The address when the visitor typed it, "" when they signed in with a username (the address is not ours to show).
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);
  const [password, setPassword] = useState("");
  const [rememberMe, setRememberMe] = useState(true);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstError(formRef, attempt);

  function validate(): Partial<Record<Field, string>> {
    const found: Partial<Record<Field, string>> = {};
    const value = identifier.trim();
    if (!value) found.identifier = t("username.identifierRequired");
    else if (isEmailIdentifier(value) && !looksLikeEmail(value)) found.identifier = t("validation.emailInvalid");
    if (!password) found.password = t("validation.passwordRequired");
    return found;
  }

  function fail(fieldErrors: Partial<Record<Field, string>>, message: string | null) {
    setErrors(fieldErrors);
    setFormError(message);
    setAttempt((n) => n + 1);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const found = validate();
    if (Object.keys(found).length > 0) return fail(found, null);

    setSubmitting(true);
    setErrors({});
    setFormError(null);
    setUnverifiedEmail(null);
    const value = identifier.trim();
    const byEmail = isEmailIdentifier(value);
    const { error } = byEmail
      ? await authClient.signIn.email({ email: value, password, rememberMe })
      : await authClient.signIn.username({ username: value, password, rememberMe });
    if (error) {
      setSubmitting(false);
      if (error.code === "EMAIL_NOT_VERIFIED") {
        setUnverifiedEmail(byEmail ? value : "");
        setAttempt((n) => n + 1);
        return;
      }
      const field = fieldOfError(error, FIELD_OF_CODE);
      const message = errorMessage(t, error);
      return field === "form" ? fail({}, message) : fail({ [field]: message }, null);
    }
    // The session store now holds the new session; the guest-only route moves on to the app.
    await authClient.$session.refetch();
  }

  const clearError = (field: Field) => setErrors(({ [field]: _cleared, ...rest }) => rest);

  return (
    <Form ref={formRef} onSubmit={(event) => void onSubmit(event)}>
      {formError ? (
        <Alert variant="error" focusable>
          {formError}
        </Alert>
      ) : null}
      {unverifiedEmail !== null ? (
        <Alert variant="info" title={t("signIn.notVerifiedTitle")} focusable>
          {unverifiedEmail ? t("signIn.notVerified", { email: unverifiedEmail }) : t("username.notVerified")}
        </Alert>
      ) : null}
      <TextField
        label={t("username.identifier")}
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        required
        value={identifier}
        error={errors.identifier}
        onChange={(event) => {
          setIdentifier(event.target.value);
          clearError("identifier");
        }}
      />
      <PasswordField
        label={t("signIn.password")}
        revealLabel={t("common.showPassword")}
        name="password"
        autoComplete="current-password"
        required
        value={password}
        error={errors.password}
        onChange={(event) => {
          setPassword(event.target.value);
          clearError("password");
        }}
      />
      <div className={styles.options}>
        <Checkbox
          label={t("signIn.rememberMe")}
          name="rememberMe"
          checked={rememberMe}
          onChange={(event) => setRememberMe(event.target.checked)}
        />
        {/* After the checkbox, so the fields and the checkbox stay the first stops of the tab order. */}
        <Link
          to="/forgot-password"
          state={isEmailIdentifier(identifier) ? { email: identifier.trim() } : undefined}
          className={styles.forgot}
        >
          {t("signIn.forgotPassword")}
        </Link>
      </div>
      {lastUsed === "email" || lastUsed === "username" ? <LastUsedBadge /> : null}
      <Button type="submit" fullWidth loading={submitting} loadingText={t("signIn.submitting")}>
        {t("signIn.submit")}
      </Button>
    </Form>
  );
}

import { useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Checkbox } from "../../components/ui/checkbox";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { errorMessage, fieldOfError } from "../../lib/auth-errors";
import { useFocusFirstError } from "../../lib/use-focus-first-error";
import { looksLikeEmail } from "../../lib/validation";
import styles from "./sign-in-form.module.css";

type Field = "email" | "password";

/** Server codes that are about one field. A wrong email or password stays form-level on purpose. */
const FIELD_OF_CODE: Partial<Record<string, Field>> = {
  INVALID_EMAIL: "email",
  PASSWORD_TOO_LONG: "password",
};

export function SignInForm() {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState("");
  // Set when the service refused an unverified address (and mailed it a new link): an explanation, not an error.
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
    if (!email.trim()) found.email = t("validation.emailRequired");
    else if (!looksLikeEmail(email)) found.email = t("validation.emailInvalid");
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
    const { error } = await authClient.signIn.email({ email: email.trim(), password, rememberMe });
    if (error) {
      setSubmitting(false);
      if (error.code === "EMAIL_NOT_VERIFIED") {
        setUnverifiedEmail(email.trim());
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
      {unverifiedEmail ? (
        <Alert variant="info" title={t("signIn.notVerifiedTitle")} focusable>
          {t("signIn.notVerified", { email: unverifiedEmail })}
        </Alert>
      ) : null}
      <TextField
        label={t("signIn.email")}
        type="email"
        name="email"
        autoComplete="username"
        inputMode="email"
        spellCheck={false}
        required
        value={email}
        error={errors.email}
        onChange={(event) => {
          setEmail(event.target.value);
          clearError("email");
        }}
      />
      <TextField
        label={t("signIn.password")}
        type="password"
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
        <Link to="/forgot-password" state={{ email: email.trim() }} className={styles.forgot}>
          {t("signIn.forgotPassword")}
        </Link>
      </div>
      <Button type="submit" fullWidth loading={submitting} loadingText={t("signIn.submitting")}>
        {t("signIn.submit")}
      </Button>
    </Form>
  );
}

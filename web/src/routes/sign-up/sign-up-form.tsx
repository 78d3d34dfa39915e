import { useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Form } from "../../components/ui/form";
import { PasswordField } from "../../components/ui/password-field";
import { TextField } from "../../components/ui/text-field";
import { UsernameField } from "../../components/username-field";
import { authClient } from "../../lib/auth-client";
import { errorMessage, fieldOfError } from "../../lib/auth-errors";
import { useFocusFirstError } from "../../lib/use-focus-first-error";
import { passwordLengthProblem, usePasswordBounds } from "../../lib/use-password-bounds";
import { useUsernameAvailability } from "../../lib/use-username-availability";
import { useUsernameBounds } from "../../lib/use-username-bounds";
import { usernameProblem, usernameProblemMessage } from "../../lib/username-rules";
import { looksLikeEmail } from "../../lib/validation";

type Field = "name" | "email" | "username" | "password";
type Values = Record<Field, string>;

/** Server codes that belong to one field; anything else is shown above the form. */
const FIELD_OF_CODE: Partial<Record<string, Field>> = {
  INVALID_EMAIL: "email",
  USER_ALREADY_EXISTS: "email",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "email",
  PASSWORD_TOO_SHORT: "password",
  PASSWORD_TOO_LONG: "password",
  INVALID_PASSWORD: "password",
  USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER: "username",
  USERNAME_IS_TOO_SHORT: "username",
  USERNAME_IS_TOO_LONG: "username",
  USERNAME_IS_INVALID: "username",
};

export interface SignUpFormProps {
  /** Called when the account exists but the service did not sign the visitor in. */
  onCreatedWithoutSession(email: string): void;
  /** Where the mailed verification link lands once used (the service's verify-email page by default). */
  callbackURL?: string | undefined;
}

export function SignUpForm({ onCreatedWithoutSession, callbackURL }: SignUpFormProps) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>({ name: "", email: "", username: "", password: "" });
  const [errors, setErrors] = useState<Partial<Values>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstError(formRef, attempt);
  // Optional: an empty username is not sent. Sent as typed (the service stores it in lower case and keeps
  // the typed form as displayUsername); spaces break the rules and are flagged rather than trimmed away.
  const username = values.username;
  const usernameBounds = useUsernameBounds();
  const usernameAvailability = useUsernameAvailability(username, { bounds: usernameBounds });
  const passwordBounds = usePasswordBounds();

  function validate(): Partial<Values> {
    const found: Partial<Values> = {};
    if (!values.name.trim()) found.name = t("validation.nameRequired");
    if (!values.email.trim()) found.email = t("validation.emailRequired");
    else if (!looksLikeEmail(values.email)) found.email = t("validation.emailInvalid");
    const problem = username ? usernameProblem(username, usernameBounds) : null;
    if (problem) found.username = usernameProblemMessage(t, problem, usernameBounds);
    else if (usernameAvailability === "taken") found.username = t("username.taken");
    if (!values.password) found.password = t("validation.passwordRequired");
    else {
      const problem = passwordLengthProblem(t, values.password, passwordBounds);
      if (problem) found.password = problem;
    }
    return found;
  }

  function fail(fieldErrors: Partial<Values>, message: string | null) {
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
    const email = values.email.trim();
    const { data, error } = await authClient.signUp.email({
      name: values.name.trim(),
      email,
      password: values.password,
      ...(username ? { username } : {}),
      ...(callbackURL ? { callbackURL } : {}),
    });
    if (error) {
      setSubmitting(false);
      const field = fieldOfError(error, FIELD_OF_CODE);
      const message = errorMessage(t, error);
      return field === "form" ? fail({}, message) : fail({ [field]: message }, null);
    }
    if (data.token === null) return onCreatedWithoutSession(email);
    // Signed in: once the session store has it, the guest-only route moves on to the app.
    await authClient.$session.refetch();
  }

  const bind = (field: Field) => ({
    name: field,
    value: values[field],
    error: errors[field],
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setValues((current) => ({ ...current, [field]: value }));
      setErrors(({ [field]: _cleared, ...rest }) => rest);
    },
  });

  return (
    <Form ref={formRef} onSubmit={(event) => void onSubmit(event)}>
      {formError ? (
        <Alert variant="error" focusable>
          {formError}
        </Alert>
      ) : null}
      <TextField label={t("signUp.name")} autoComplete="name" required {...bind("name")} />
      <TextField
        label={t("signUp.email")}
        type="email"
        autoComplete="email"
        inputMode="email"
        spellCheck={false}
        required
        {...bind("email")}
      />
      <UsernameField
        {...bind("username")}
        labelSuffix={`(${t("common.optional")})`}
        bounds={usernameBounds}
        availability={usernameAvailability}
        onChange={(value) => bind("username").onChange({ target: { value } })}
      />
      <PasswordField
        label={t("signUp.password")}
        hint={t("signUp.passwordHint", { min: passwordBounds.minLength })}
        revealLabel={t("common.showPassword")}
        autoComplete="new-password"
        minLength={passwordBounds.minLength}
        maxLength={passwordBounds.maxLength}
        required
        {...bind("password")}
      />
      <Button type="submit" fullWidth loading={submitting} loadingText={t("signUp.submitting")}>
        {t("signUp.submit")}
      </Button>
    </Form>
  );
}

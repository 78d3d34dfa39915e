import { useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Form } from "../../components/ui/form";
import { PasswordField } from "../../components/ui/password-field";
import { authClient } from "../../lib/auth-client";
import { placeError } from "../../lib/auth-errors";
import { useFocusFirstError } from "../../lib/use-focus-first-error";
import { passwordLengthProblem, usePasswordBounds } from "../../lib/use-password-bounds";

type Field = "password" | "confirm";

export interface ResetPasswordFormProps {
  token: string;
  onDone(): void;
  /** The token turned out to be used or expired by the time the form was sent. */
  onInvalidToken(): void;
}

export function ResetPasswordForm({ token, onDone, onInvalidToken }: ResetPasswordFormProps) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstError(formRef, attempt);
  const bounds = usePasswordBounds();

  function fail(fields: Partial<Record<Field, string>>, form: string | null) {
    setErrors(fields);
    setFormError(form);
    setAttempt((n) => n + 1);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const found: Partial<Record<Field, string>> = {};
    const tooShortOrLong = password ? passwordLengthProblem(t, password, bounds) : null;
    if (!password) found.password = t("validation.newPasswordRequired");
    else if (tooShortOrLong) found.password = tooShortOrLong;
    if (!confirm) found.confirm = t("validation.confirmPasswordRequired");
    else if (password && confirm !== password) found.confirm = t("validation.passwordsDontMatch");
    if (Object.keys(found).length > 0) return fail(found, null);

    setSubmitting(true);
    setErrors({});
    setFormError(null);
    const { error } = await authClient.resetPassword({ newPassword: password, token });
    setSubmitting(false);
    if (!error) return onDone();
    if (error.code === "INVALID_TOKEN") return onInvalidToken();
    const placed = placeError<Field>(t, error, {
      codes: { PASSWORD_TOO_SHORT: "password", PASSWORD_TOO_LONG: "password" },
      requestFields: { newPassword: "password" },
    });
    fail(placed.fields, placed.form);
  }

  return (
    <Form ref={formRef} onSubmit={(event) => void onSubmit(event)}>
      {formError ? (
        <Alert variant="error" focusable>
          {formError}
        </Alert>
      ) : null}
      <PasswordField
        label={t("resetPassword.newPassword")}
        hint={t("resetPassword.newPasswordHint", { min: bounds.minLength })}
        revealLabel={t("common.showPassword")}
        name="new-password"
        minLength={bounds.minLength}
        maxLength={bounds.maxLength}
        autoComplete="new-password"
        required
        value={password}
        error={errors.password}
        onChange={(event) => {
          setPassword(event.target.value);
          setErrors(({ password: _cleared, ...rest }) => rest);
        }}
      />
      <PasswordField
        label={t("resetPassword.confirmPassword")}
        revealLabel={t("common.showPassword")}
        name="confirm-password"
        autoComplete="new-password"
        required
        value={confirm}
        error={errors.confirm}
        onChange={(event) => {
          setConfirm(event.target.value);
          setErrors(({ confirm: _cleared, ...rest }) => rest);
        }}
      />
      <Button type="submit" fullWidth loading={submitting} loadingText={t("resetPassword.submitting")}>
        {t("resetPassword.submit")}
      </Button>
    </Form>
  );
}

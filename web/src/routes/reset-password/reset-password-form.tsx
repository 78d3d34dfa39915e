import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Form } from "../../components/ui/form";
import { PasswordField } from "../../components/ui/password-field";
import { authClient } from "../../lib/auth-client";
import { useForm } from "../../lib/use-form";
import { passwordLengthProblem, usePasswordBounds } from "../../lib/use-password-bounds";

export interface ResetPasswordFormProps {
  token: string;
  onDone(): void;
  /** The token turned out to be used or expired by the time the form was sent. */
  onInvalidToken(): void;
}

export function ResetPasswordForm({ token, onDone, onInvalidToken }: ResetPasswordFormProps) {
  const { t } = useTranslation();
  const bounds = usePasswordBounds();
  const form = useForm(
    { password: "", confirm: "" },
    {
      validate: ({ password, confirm }) => {
        const found: { password?: string; confirm?: string } = {};
        const tooShortOrLong = password ? passwordLengthProblem(t, password, bounds) : null;
        if (!password) found.password = t("validation.newPasswordRequired");
        else if (tooShortOrLong) found.password = tooShortOrLong;
        if (!confirm) found.confirm = t("validation.confirmPasswordRequired");
        else if (password && confirm !== password) found.confirm = t("validation.passwordsDontMatch");
        return found;
      },
      placement: {
        codes: { PASSWORD_TOO_SHORT: "password", PASSWORD_TOO_LONG: "password" },
        requestFields: { newPassword: "password" },
      },
    },
  );

  const onSubmit = form.onSubmit(async ({ password }) => {
    const { error } = await authClient.resetPassword({ newPassword: password, token });
    if (!error) return onDone();
    if (error.code === "INVALID_TOKEN") return onInvalidToken();
    return error;
  });

  return (
    <Form ref={form.ref} onSubmit={onSubmit}>
      {form.error ? (
        <Alert variant="error" focusable>
          {form.error}
        </Alert>
      ) : null}
      <PasswordField
        label={t("resetPassword.newPassword")}
        hint={t("resetPassword.newPasswordHint", { min: bounds.minLength })}
        revealLabel={t("common.showPassword")}
        {...form.field("password")}
        name="new-password"
        minLength={bounds.minLength}
        maxLength={bounds.maxLength}
        autoComplete="new-password"
        required
      />
      <PasswordField
        label={t("resetPassword.confirmPassword")}
        revealLabel={t("common.showPassword")}
        {...form.field("confirm")}
        name="confirm-password"
        autoComplete="new-password"
        required
      />
      <Button type="submit" fullWidth loading={form.submitting} loadingText={t("resetPassword.submitting")}>
        {t("resetPassword.submit")}
      </Button>
    </Form>
  );
}

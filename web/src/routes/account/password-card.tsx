import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Checkbox } from "../../components/ui/checkbox";
import { Form } from "../../components/ui/form";
import { PasswordField } from "../../components/ui/password-field";
import { mutations } from "../../lib/data";
import { useForm } from "../../lib/use-form";
import { passwordLengthProblem, usePasswordBounds } from "../../lib/use-password-bounds";
import styles from "./password-card.module.css";

type Values = { current: string; new: string; confirm: string; revokeOthers: boolean };

export function PasswordCard() {
  const { t } = useTranslation();
  const bounds = usePasswordBounds();
  // The notice says whether the other sessions were signed out.
  const form = useForm<Values, { signedOutOthers: boolean }>(
    { current: "", new: "", confirm: "", revokeOthers: true },
    {
      validate: (values) => {
        const found: Partial<Record<keyof Values, string>> = {};
        if (!values.current) found.current = t("validation.currentPasswordRequired");
        const tooShortOrLong = values.new ? passwordLengthProblem(t, values.new, bounds) : null;
        if (!values.new) found.new = t("validation.newPasswordRequired");
        else if (tooShortOrLong) found.new = tooShortOrLong;
        if (!values.confirm) found.confirm = t("validation.confirmPasswordRequired");
        else if (values.new && values.confirm !== values.new) found.confirm = t("validation.passwordsDontMatch");
        return found;
      },
      placement: {
        codes: { INVALID_PASSWORD: "current", PASSWORD_TOO_SHORT: "new", PASSWORD_TOO_LONG: "new" },
        requestFields: { currentPassword: "current", newPassword: "new" },
        messages: { INVALID_PASSWORD: t("account.password.wrongCurrent") },
      },
    },
  );

  const onSubmit = form.onSubmit(async (values) => {
    const { error } = await mutations.changePassword({
      currentPassword: values.current,
      newPassword: values.new,
      revokeOtherSessions: values.revokeOthers,
    });
    if (error) return error;
    form.reset({ ...values, current: "", new: "", confirm: "" });
    form.succeed({ signedOutOthers: values.revokeOthers });
  });

  return (
    <Form ref={form.ref} onSubmit={onSubmit}>
      <Card
        title={t("account.password.heading")}
        description={t("account.password.description")}
        footer={
          <>
            {/* Always present, so the change of text is announced. */}
            <p className={styles.saved} role="status">
              {form.notice
                ? form.notice.signedOutOthers
                  ? t("account.password.changedAndSignedOut")
                  : t("account.password.changed")
                : null}
            </p>
            <Button type="submit" loading={form.submitting} loadingText={t("account.password.submitting")}>
              {t("account.password.submit")}
            </Button>
          </>
        }
      >
        <div className={styles.fields}>
          {form.error ? (
            <Alert variant="error" focusable>
              {form.error}
            </Alert>
          ) : null}
          <PasswordField
            label={t("account.password.current")}
            revealLabel={t("common.showPassword")}
            name="current-password"
            autoComplete="current-password"
            required
            {...form.field("current")}
          />
          <div className={styles.pair}>
            <PasswordField
              label={t("account.password.new")}
              hint={t("account.password.newHint", { min: bounds.minLength })}
              revealLabel={t("common.showPassword")}
              name="new-password"
              minLength={bounds.minLength}
              maxLength={bounds.maxLength}
              autoComplete="new-password"
              required
              {...form.field("new")}
            />
            <PasswordField
              label={t("account.password.confirm")}
              revealLabel={t("common.showPassword")}
              name="confirm-password"
              autoComplete="new-password"
              required
              {...form.field("confirm")}
            />
          </div>
          <Checkbox
            label={t("account.password.revokeOthers")}
            name="revokeOtherSessions"
            checked={form.values.revokeOthers}
            onChange={(event) => form.set("revokeOthers", event.target.checked)}
          />
        </div>
      </Card>
    </Form>
  );
}

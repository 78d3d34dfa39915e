import { useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Checkbox } from "../../components/ui/checkbox";
import { Form } from "../../components/ui/form";
import { PasswordField } from "../../components/ui/password-field";
import { authClient } from "../../lib/auth-client";
import { placeError } from "../../lib/auth-errors";
import { useFocusFirstError } from "../../lib/use-focus-first-error";
import { passwordLengthProblem, usePasswordBounds } from "../../lib/use-password-bounds";
import styles from "./password-card.module.css";

type Field = "current" | "new" | "confirm";
type Values = Record<Field, string>;
type Outcome = { kind: "changed"; signedOutOthers: boolean } | { kind: "error"; message: string } | null;

const EMPTY: Values = { current: "", new: "", confirm: "" };

export function PasswordCard() {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>(EMPTY);
  const [revokeOthers, setRevokeOthers] = useState(true);
  const [errors, setErrors] = useState<Partial<Values>>({});
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [submitting, setSubmitting] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstError(formRef, attempt);
  const bounds = usePasswordBounds();

  function fail(fields: Partial<Values>, form: string | null) {
    setErrors(fields);
    setOutcome(form ? { kind: "error", message: form } : null);
    setAttempt((n) => n + 1);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const found: Partial<Values> = {};
    if (!values.current) found.current = t("validation.currentPasswordRequired");
    const tooShortOrLong = values.new ? passwordLengthProblem(t, values.new, bounds) : null;
    if (!values.new) found.new = t("validation.newPasswordRequired");
    else if (tooShortOrLong) found.new = tooShortOrLong;
    if (!values.confirm) found.confirm = t("validation.confirmPasswordRequired");
    else if (values.new && values.confirm !== values.new) found.confirm = t("validation.passwordsDontMatch");
    if (Object.keys(found).length > 0) return fail(found, null);

    setSubmitting(true);
    setErrors({});
    setOutcome(null);
    const { error } = await authClient.changePassword({
      currentPassword: values.current,
      newPassword: values.new,
      revokeOtherSessions: revokeOthers,
    });
    setSubmitting(false);
    if (error) {
      const placed = placeError<Field>(t, error, {
        codes: { INVALID_PASSWORD: "current", PASSWORD_TOO_SHORT: "new", PASSWORD_TOO_LONG: "new" },
        requestFields: { currentPassword: "current", newPassword: "new" },
        messages: { INVALID_PASSWORD: t("account.password.wrongCurrent") },
      });
      return fail(placed.fields, placed.form);
    }
    setValues(EMPTY);
    setOutcome({ kind: "changed", signedOutOthers: revokeOthers });
  }

  const bind = (field: Field) => ({
    value: values[field],
    error: errors[field],
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setValues((current) => ({ ...current, [field]: value }));
      setErrors(({ [field]: _cleared, ...rest }) => rest);
      setOutcome(null);
    },
  });

  return (
    <Form ref={formRef} onSubmit={(event) => void onSubmit(event)}>
      <Card
        title={t("account.password.heading")}
        description={t("account.password.description")}
        footer={
          <>
            {/* Always present, so the change of text is announced. */}
            <p className={styles.saved} role="status">
              {outcome?.kind === "changed"
                ? outcome.signedOutOthers
                  ? t("account.password.changedAndSignedOut")
                  : t("account.password.changed")
                : null}
            </p>
            <Button type="submit" loading={submitting} loadingText={t("account.password.submitting")}>
              {t("account.password.submit")}
            </Button>
          </>
        }
      >
        <div className={styles.fields}>
          {outcome?.kind === "error" ? (
            <Alert variant="error" focusable>
              {outcome.message}
            </Alert>
          ) : null}
          <PasswordField
            label={t("account.password.current")}
            revealLabel={t("common.showPassword")}
            name="current-password"
            autoComplete="current-password"
            required
            {...bind("current")}
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
              {...bind("new")}
            />
            <PasswordField
              label={t("account.password.confirm")}
              revealLabel={t("common.showPassword")}
              name="confirm-password"
              autoComplete="new-password"
              required
              {...bind("confirm")}
            />
          </div>
          <Checkbox
            label={t("account.password.revokeOthers")}
            name="revokeOtherSessions"
            checked={revokeOthers}
            onChange={(event) => setRevokeOthers(event.target.checked)}
          />
        </div>
      </Card>
    </Form>
  );
}

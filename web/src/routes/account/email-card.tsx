import { useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useCurrentSession } from "../../components/current-session";
import { Alert } from "../../components/ui/alert";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { placeError } from "../../lib/auth-errors";
import { useFocusFirstError } from "../../lib/use-focus-first-error";
import { looksLikeEmail } from "../../lib/validation";
import styles from "./email-card.module.css";

type Outcome =
  | { kind: "changed"; email: string }
  | { kind: "confirmSent"; current: string; email: string }
  | { kind: "error"; message: string }
  | null;

/**
 * Changing the email address takes one of two paths (SPEC.md section 4): an unverified address proves
 * nothing, so it changes at once and the new one gets a verification link; a verified one must confirm
 * the change from the current inbox first. The card says which before the user starts.
 */
export function EmailCard() {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const formRef = useRef<HTMLFormElement>(null);
  const [newEmail, setNewEmail] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [submitting, setSubmitting] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstError(formRef, attempt);

  function fail(field: string | null, form: string | null) {
    setFieldError(field);
    setOutcome(form ? { kind: "error", message: form } : null);
    setAttempt((n) => n + 1);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const email = newEmail.trim();
    if (!email) return fail(t("validation.newEmailRequired"), null);
    if (!looksLikeEmail(email)) return fail(t("validation.emailInvalid"), null);

    const wasVerified = user.emailVerified;
    const current = user.email;
    setSubmitting(true);
    setFieldError(null);
    setOutcome(null);
    const { error } = await authClient.changeEmail({ newEmail: email });
    setSubmitting(false);
    if (error) {
      const placed = placeError(t, error, {
        codes: { INVALID_EMAIL: "email", EMAIL_IS_THE_SAME: "email", COULDNT_UPDATE_YOUR_EMAIL: "email" },
        requestFields: { newEmail: "email" },
      });
      return fail(placed.fields.email ?? null, placed.form);
    }
    setNewEmail("");
    // An unverified address changed at once (the session store re-reads the user); a verified one waits.
    setOutcome(wasVerified ? { kind: "confirmSent", current, email } : { kind: "changed", email });
  }

  return (
    <Form ref={formRef} onSubmit={(event) => void onSubmit(event)}>
      <Card
        title={t("account.email.heading")}
        description={t("account.email.description")}
        footer={
          <Button type="submit" loading={submitting} loadingText={t("account.email.submitting")}>
            {t("account.email.submit")}
          </Button>
        }
      >
        <div className={styles.fields}>
          <div className={styles.current}>
            <span className={styles.currentLabel}>{t("account.email.current")}</span>
            <span className={styles.currentValue}>
              <span className={styles.address}>{user.email}</span>
              <Badge variant={user.emailVerified ? "success" : "warning"}>
                {user.emailVerified ? t("account.email.verified") : t("account.email.unverified")}
              </Badge>
            </span>
          </div>
          <p className={styles.how}>
            {user.emailVerified ? t("account.email.howVerified", { email: user.email }) : t("account.email.howUnverified")}
          </p>
          {outcome?.kind === "error" ? (
            <Alert variant="error" focusable>
              {outcome.message}
            </Alert>
          ) : null}
          {outcome?.kind === "changed" ? <Alert variant="success">{t("account.email.changed", { email: outcome.email })}</Alert> : null}
          {outcome?.kind === "confirmSent" ? (
            <Alert variant="info">{t("account.email.confirmSent", { current: outcome.current, email: outcome.email })}</Alert>
          ) : null}
          <TextField
            label={t("account.email.newEmail")}
            type="email"
            name="newEmail"
            autoComplete="email"
            inputMode="email"
            spellCheck={false}
            required
            value={newEmail}
            error={fieldError ?? undefined}
            onChange={(event) => {
              setNewEmail(event.target.value);
              setFieldError(null);
            }}
          />
        </div>
      </Card>
    </Form>
  );
}

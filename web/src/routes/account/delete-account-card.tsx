import { useEffect, useRef, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { useCurrentSession } from "../../components/current-session";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { Radio } from "../../components/ui/radio";
import { PasswordField } from "../../components/ui/password-field";
import { authClient } from "../../lib/auth-client";
import { placeError } from "../../lib/auth-errors";
import { useFocusFirstError } from "../../lib/use-focus-first-error";
import { useAccountDeletion } from "./use-account-deletion";
import styles from "./delete-account-card.module.css";

type Method = "password" | "email";
type Outcome = { kind: "emailSent" } | { kind: "error"; message: string } | null;

/** The server's answer when it deleted the account rather than mailing a link. */
const USER_DELETED = "User deleted";

/**
 * The danger zone: a first button opens a confirmation step with the warning and the choice of proof
 * (the password, or a link mailed to the user's address, to open in this browser). The section is left
 * out when the service does not allow deleting accounts.
 */
export function DeleteAccountCard({ hasPassword }: { hasPassword: boolean | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useCurrentSession();
  const availability = useAccountDeletion();
  const formRef = useRef<HTMLFormElement>(null);
  const warningRef = useRef<HTMLDivElement>(null);
  const sentRef = useRef<HTMLDivElement>(null);
  const [confirming, setConfirming] = useState(false);
  const [method, setMethod] = useState<Method>("password");
  // A user who signs in only through providers has no password to give: the mailed link is their proof.
  const chosen: Method = hasPassword === false ? "email" : method;
  const [password, setPassword] = useState("");
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [submitting, setSubmitting] = useState(false);
  const [unavailable, setUnavailable] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstError(formRef, attempt);

  // Opening the step moves focus to its warning, so it is read before anything else.
  useEffect(() => {
    if (confirming) warningRef.current?.focus();
  }, [confirming]);
  // The form is gone once the link is sent; focus goes to the message that replaces it.
  const emailSent = outcome?.kind === "emailSent";
  useEffect(() => {
    if (emailSent) sentRef.current?.focus();
  }, [emailSent]);

  if (availability !== "available") return null;

  function cancel() {
    setConfirming(false);
    setPassword("");
    setPasswordError(null);
    setOutcome(null);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    if (chosen === "password" && !password) {
      setPasswordError(t("validation.passwordRequired"));
      setAttempt((n) => n + 1);
      return;
    }
    setSubmitting(true);
    setPasswordError(null);
    setOutcome(null);
    const { data, error } = await authClient.deleteUser(chosen === "password" ? { password } : undefined);
    setSubmitting(false);
    if (error) {
      if (error.status === 404) {
        setUnavailable(true);
        return;
      }
      const placed = placeError<"password">(t, error, {
        codes: { INVALID_PASSWORD: "password" },
        requestFields: { password: "password" },
        messages: {
          INVALID_PASSWORD: t("account.delete.wrongPassword"),
          CREDENTIAL_ACCOUNT_NOT_FOUND: t("account.delete.noPassword"),
        },
      });
      setPasswordError(placed.fields.password ?? null);
      setOutcome(placed.form ? { kind: "error", message: placed.form } : null);
      setAttempt((n) => n + 1);
      return;
    }
    // Without a password the service may still delete at once (when it mails no confirmation links).
    if (data.message === USER_DELETED) {
      // The marker the deletion link's redirect also carries: the page says the account is gone only with it.
      await navigate("/account-deleted?deleted=true", { replace: true });
      return;
    }
    setPassword("");
    setOutcome({ kind: "emailSent" });
  }

  if (unavailable) {
    return (
      <Card title={t("account.delete.heading")} className={styles.danger}>
        <Alert variant="info">{t("account.delete.unavailable")}</Alert>
      </Card>
    );
  }

  if (!confirming) {
    return (
      <Card
        title={t("account.delete.heading")}
        description={t("account.delete.description")}
        className={styles.danger}
        actions={
          <Button variant="danger" onClick={() => setConfirming(true)}>
            {t("account.delete.start")}
          </Button>
        }
      />
    );
  }

  if (emailSent) {
    return (
      <Card title={t("account.delete.heading")} className={styles.danger}>
        <Alert ref={sentRef} variant="info" title={t("account.delete.emailSentTitle")} focusable>
          {t("account.delete.emailSent", { email: user.email })}
        </Alert>
      </Card>
    );
  }

  return (
    <Form ref={formRef} onSubmit={(event) => void onSubmit(event)}>
      <Card
        title={t("account.delete.heading")}
        description={t("account.delete.description")}
        className={styles.danger}
        footer={
          <>
            <Button variant="secondary" onClick={cancel} disabled={submitting}>
              {t("common.cancel")}
            </Button>
            <Button
              type="submit"
              variant="destructive"
              loading={submitting}
              loadingText={chosen === "password" ? t("account.delete.deleting") : t("account.delete.sending")}
            >
              {chosen === "password" ? t("account.delete.submitPassword") : t("account.delete.submitEmail")}
            </Button>
          </>
        }
      >
        <div className={styles.step}>
          {/* Focusable only by script (not a focus target of failed submits, which go to the field). */}
          <div ref={warningRef} tabIndex={-1}>
            <Alert variant="warning" title={t("account.delete.warningTitle")}>
              {t("account.delete.warning")}
            </Alert>
          </div>
          {outcome?.kind === "error" ? (
            <Alert variant="error" focusable>
              {outcome.message}
            </Alert>
          ) : null}
          <fieldset className={styles.methods}>
            <legend className={styles.legend}>{t("account.delete.methodLegend")}</legend>
            {hasPassword === false ? null : (
              <Radio
                name="deleteMethod"
                value="password"
                label={t("account.delete.withPassword")}
                checked={chosen === "password"}
                onChange={() => setMethod("password")}
              />
            )}
            {chosen === "password" ? (
              <PasswordField
                className={styles.password}
                label={t("account.delete.password")}
                revealLabel={t("common.showPassword")}
                name="password"
                autoComplete="current-password"
                required
                value={password}
                error={passwordError ?? undefined}
                onChange={(event) => {
                  setPassword(event.target.value);
                  setPasswordError(null);
                }}
              />
            ) : null}
            <Radio
              name="deleteMethod"
              value="email"
              label={t("account.delete.withEmail")}
              hint={t("account.delete.withEmailHint", { email: user.email })}
              checked={chosen === "email"}
              onChange={() => {
                setMethod("email");
                setPasswordError(null);
              }}
            />
          </fieldset>
        </div>
      </Card>
    </Form>
  );
}

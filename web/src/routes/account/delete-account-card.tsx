import { useEffect, useRef, useState } from "react";
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
import { useForm } from "../../lib/use-form";
import { useAccountDeletion } from "./use-account-deletion";
import styles from "./delete-account-card.module.css";

type Method = "password" | "email";

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
  const warningRef = useRef<HTMLDivElement>(null);
  const sentRef = useRef<HTMLDivElement>(null);
  const [confirming, setConfirming] = useState(false);
  // A user who signs in only through providers has no password to give: the mailed link is their proof.
  const chosenOf = (method: Method): Method => (hasPassword === false ? "email" : method);
  // The notice: the link was mailed.
  const form = useForm<{ method: Method; password: string }, "emailSent">(
    { method: "password", password: "" },
    {
      validate: ({ method, password }) =>
        chosenOf(method) === "password" && !password ? { password: t("validation.passwordRequired") } : {},
      placement: {
        codes: { INVALID_PASSWORD: "password" },
        requestFields: { password: "password" },
        messages: {
          INVALID_PASSWORD: t("account.delete.wrongPassword"),
          CREDENTIAL_ACCOUNT_NOT_FOUND: t("account.delete.noPassword"),
        },
      },
    },
  );
  const chosen = chosenOf(form.values.method);
  const [unavailable, setUnavailable] = useState(false);

  // Opening the step moves focus to its warning, so it is read before anything else.
  useEffect(() => {
    if (confirming) warningRef.current?.focus();
  }, [confirming]);
  // The form is gone once the link is sent; focus goes to the message that replaces it.
  const emailSent = form.notice === "emailSent";
  useEffect(() => {
    if (emailSent) sentRef.current?.focus();
  }, [emailSent]);

  if (availability !== "available") return null;

  function cancel() {
    setConfirming(false);
    form.reset({ ...form.values, password: "" });
  }

  const onSubmit = form.onSubmit(async ({ method, password }) => {
    const { data, error } = await authClient.deleteUser(chosenOf(method) === "password" ? { password } : undefined);
    if (error?.status === 404) return setUnavailable(true);
    if (error) return error;
    // Without a password the service may still delete at once (when it mails no confirmation links).
    if (data.message === USER_DELETED) {
      // The marker the deletion link's redirect also carries: the page says the account is gone only with it.
      await navigate("/account-deleted?deleted=true", { replace: true });
      return;
    }
    form.reset({ method, password: "" });
    form.succeed("emailSent");
  });

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
    <Form ref={form.ref} onSubmit={onSubmit}>
      <Card
        title={t("account.delete.heading")}
        description={t("account.delete.description")}
        className={styles.danger}
        footer={
          <>
            <Button variant="secondary" onClick={cancel} disabled={form.submitting}>
              {t("common.cancel")}
            </Button>
            <Button
              type="submit"
              variant="destructive"
              loading={form.submitting}
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
          {form.error ? (
            <Alert variant="error" focusable>
              {form.error}
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
                onChange={() => form.set("method", "password")}
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
                {...form.field("password")}
              />
            ) : null}
            <Radio
              name="deleteMethod"
              value="email"
              label={t("account.delete.withEmail")}
              hint={t("account.delete.withEmailHint", { email: user.email })}
              checked={chosen === "email"}
              onChange={() => {
                form.set("method", "email");
                // The password's error goes with its field.
                form.set("password", form.values.password);
              }}
            />
          </fieldset>
        </div>
      </Card>
    </Form>
  );
}

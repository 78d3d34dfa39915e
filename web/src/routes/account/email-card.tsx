import { useTranslation } from "react-i18next";
import { useCurrentSession } from "../../components/current-session";
import { Alert } from "../../components/ui/alert";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { useForm } from "../../lib/use-form";
import { looksLikeEmail } from "../../lib/validation";
import styles from "./email-card.module.css";

type Notice = { kind: "changed"; email: string } | { kind: "confirmSent"; current: string; email: string };

/**
 * Changing the email address takes one of two paths (SPEC.md section 4): an unverified address proves
 * nothing, so it changes at once and the new one gets a verification link; a verified one must confirm
 * the change from the current inbox first. The card says which before the user starts.
 */
export function EmailCard() {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const form = useForm<{ email: string }, Notice>(
    { email: "" },
    {
      validate: ({ email }) => {
        if (!email.trim()) return { email: t("validation.newEmailRequired") };
        return looksLikeEmail(email.trim()) ? {} : { email: t("validation.emailInvalid") };
      },
      placement: {
        codes: { INVALID_EMAIL: "email", EMAIL_IS_THE_SAME: "email", COULDNT_UPDATE_YOUR_EMAIL: "email" },
        requestFields: { newEmail: "email" },
      },
    },
  );

  const onSubmit = form.onSubmit(async (values) => {
    const email = values.email.trim();
    const wasVerified = user.emailVerified;
    const current = user.email;
    const { error } = await authClient.changeEmail({ newEmail: email });
    if (error) return error;
    form.reset();
    // An unverified address changed at once (the session store re-reads the user); a verified one waits.
    form.succeed(wasVerified ? { kind: "confirmSent", current, email } : { kind: "changed", email });
  });
  const outcome = form.notice;

  return (
    <Form ref={form.ref} onSubmit={onSubmit}>
      <Card
        title={t("account.email.heading")}
        description={t("account.email.description")}
        footer={
          <Button type="submit" loading={form.submitting} loadingText={t("account.email.submitting")}>
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
          {form.error ? (
            <Alert variant="error" focusable>
              {form.error}
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
            {...form.field("email")}
          />
        </div>
      </Card>
    </Form>
  );
}

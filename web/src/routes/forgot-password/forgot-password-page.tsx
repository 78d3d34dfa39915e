import { useRef, useState, type FormEvent } from "react";
import { Link, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "../../components/auth-layout";
import { PageHeading } from "../../components/page-heading";
import { StatusIcon } from "../../components/status-icon";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { placeError } from "../../lib/auth-errors";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useFocusFirstError } from "../../lib/use-focus-first-error";
import { looksLikeEmail } from "../../lib/validation";
import styles from "./forgot-password-page.module.css";

/** The address typed on the sign-in page comes along, so it need not be typed twice. */
function emailFromState(state: unknown): string {
  const email = (state as { email?: unknown } | null)?.email;
  return typeof email === "string" ? email : "";
}

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const location = useLocation();
  useDocumentTitle(t("forgotPassword.title"));
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState(() => emailFromState(location.state));
  const [error, setError] = useState<{ field: string | null; form: string | null }>({ field: null, form: null });
  const [submitting, setSubmitting] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstError(formRef, attempt);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const trimmed = email.trim();
    const invalid = !trimmed ? t("validation.emailRequired") : looksLikeEmail(trimmed) ? null : t("validation.emailInvalid");
    if (invalid) {
      setError({ field: invalid, form: null });
      setAttempt((n) => n + 1);
      return;
    }
    setSubmitting(true);
    setError({ field: null, form: null });
    // The service answers the same whether or not the address has an account, and so does this page.
    const result = await authClient.forgetPassword({ email: trimmed, redirectTo: "/reset-password" });
    setSubmitting(false);
    if (result.error) {
      const placed = placeError(t, result.error, { codes: { INVALID_EMAIL: "email" }, requestFields: { email: "email" } });
      setError({ field: placed.fields.email ?? null, form: placed.form });
      setAttempt((n) => n + 1);
      return;
    }
    setSentTo(trimmed);
  }

  const footer = (
    <>
      {t("forgotPassword.remembered")} <Link to="/sign-in">{t("common.backToSignIn")}</Link>
    </>
  );

  if (sentTo) {
    return (
      <AuthLayout footer={footer}>
        <StatusIcon icon="mail" />
        <PageHeading align="center" lead={t("forgotPassword.sent", { email: sentTo })}>
          {t("forgotPassword.sentHeading")}
        </PageHeading>
        <p className={styles.note}>{t("forgotPassword.noEmail")}</p>
        <Button variant="secondary" fullWidth onClick={() => setSentTo(null)}>
          {t("forgotPassword.sendAgain")}
        </Button>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout footer={footer}>
      <PageHeading lead={t("forgotPassword.lead")}>{t("forgotPassword.heading")}</PageHeading>
      <Form ref={formRef} onSubmit={(event) => void onSubmit(event)}>
        {error.form ? (
          <Alert variant="error" focusable>
            {error.form}
          </Alert>
        ) : null}
        <TextField
          label={t("forgotPassword.email")}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          required
          value={email}
          error={error.field ?? undefined}
          onChange={(event) => {
            setEmail(event.target.value);
            setError({ field: null, form: null });
          }}
        />
        <Button type="submit" fullWidth loading={submitting} loadingText={t("forgotPassword.submitting")}>
          {t("forgotPassword.submit")}
        </Button>
      </Form>
    </AuthLayout>
  );
}

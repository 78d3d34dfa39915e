import { useState } from "react";
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
import { useDocumentTitle } from "../../lib/use-document-title";
import { useForm } from "../../lib/use-form";
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
  const form = useForm(() => ({ email: emailFromState(location.state) }), {
    validate: ({ email }) => {
      const trimmed = email.trim();
      if (!trimmed) return { email: t("validation.emailRequired") };
      return looksLikeEmail(trimmed) ? {} : { email: t("validation.emailInvalid") };
    },
    placement: { codes: { INVALID_EMAIL: "email" }, requestFields: { email: "email" } },
  });
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onSubmit = form.onSubmit(async ({ email }) => {
    // The service answers the same whether or not the address has an account, and so does this page.
    const { error } = await authClient.forgetPassword({ email: email.trim(), redirectTo: "/reset-password" });
    if (!error) setSentTo(email.trim());
    return error;
  });

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
      <Form ref={form.ref} onSubmit={onSubmit}>
        {form.error ? (
          <Alert variant="error" focusable>
            {form.error}
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
          {...form.field("email")}
        />
        <Button type="submit" fullWidth loading={form.submitting} loadingText={t("forgotPassword.submitting")}>
          {t("forgotPassword.submit")}
        </Button>
      </Form>
    </AuthLayout>
  );
}

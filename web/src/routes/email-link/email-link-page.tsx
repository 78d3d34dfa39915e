import { useState } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "../../components/auth-layout";
import { ForApplication } from "../../components/for-application";
import { PageHeading } from "../../components/page-heading";
import { StatusIcon } from "../../components/status-icon";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { emailProblem, readSignInState } from "../../lib/email-sign-in";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useErrorSentence } from "../../lib/use-error-sentence";
import { useForm } from "../../lib/use-form";
import styles from "./email-link-page.module.css";

/** This page's path: a link that could not sign in comes back here with `?error=CODE`. */
const HERE = "/sign-in/link";

/**
 * Sign-in by a mailed link (README.md, "Magic links and email codes"): the visitor gives an address, the service
 * mails a link that works once for a few minutes, and opening it signs them in and lands on the page they were
 * going to (through the second step when they have one). The service answers alike whether or not the address has
 * an account, and so does this page.
 */
export function EmailLinkPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  useDocumentTitle(t("emailSignIn.link.title"));
  const { email: typed, from } = readSignInState(location.state);
  const failure = (params.get("error") ?? "").trim().slice(0, 100);
  const sentence = useErrorSentence(failure);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm(() => ({ email: typed }), {
    validate: ({ email }) => {
      const problem = emailProblem(t, email);
      return problem ? { email: problem } : {};
    },
    placement: { codes: { INVALID_EMAIL: "email" }, requestFields: { email: "email" } },
  });

  const onSubmit = form.onSubmit(async ({ email }) => {
    const address = email.trim();
    const { error } = await authClient.signIn.magicLink({ email: address, callbackURL: from, errorCallbackURL: HERE });
    if (!error) setSentTo(address);
    return error;
  });

  const footer = (
    <>
      {t("emailSignIn.otherWay")}{" "}
      <Link to="/sign-in" state={location.state}>
        {t("common.backToSignIn")}
      </Link>
    </>
  );

  if (sentTo) {
    return (
      <AuthLayout footer={footer}>
        <StatusIcon icon="mail" />
        <PageHeading align="center" lead={t("emailSignIn.link.sent", { email: sentTo })}>
          {t("emailSignIn.link.sentHeading")}
        </PageHeading>
        <p className={styles.note}>{t("emailSignIn.link.noEmail")}</p>
        <Button variant="secondary" fullWidth onClick={() => setSentTo(null)}>
          {t("emailSignIn.link.sendAgain")}
        </Button>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout footer={footer}>
      <PageHeading lead={t("emailSignIn.link.lead")}>{t("emailSignIn.link.heading")}</PageHeading>
      <ForApplication path={from} />
      {failure ? (
        <Alert variant="error" title={t("emailSignIn.link.failedTitle")}>
          {sentence}
        </Alert>
      ) : null}
      <Form ref={form.ref} onSubmit={onSubmit}>
        {form.error ? (
          <Alert variant="error" focusable>
            {form.error}
          </Alert>
        ) : null}
        <TextField
          label={t("emailSignIn.email")}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          required
          {...form.field("email")}
        />
        <Button type="submit" fullWidth loading={form.submitting} loadingText={t("emailSignIn.link.submitting")}>
          {t("emailSignIn.link.submit")}
        </Button>
      </Form>
    </AuthLayout>
  );
}

import { useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "../../components/auth-layout";
import { ForApplication } from "../../components/for-application";
import { PageHeading } from "../../components/page-heading";
import { StatusIcon } from "../../components/status-icon";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Form } from "../../components/ui/form";
import { OneTimeCodeField } from "../../components/ui/one-time-code-field";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { errorMessage } from "../../lib/auth-errors";
import { emailProblem, readSignInState } from "../../lib/email-sign-in";
import { isSecondStep, secondStepPath, type SecondStepState } from "../../lib/second-step";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useForm } from "../../lib/use-form";
import styles from "./email-code-page.module.css";

/**
 * Sign-in by a mailed code (README.md, "Magic links and email codes"): the visitor gives an address, the service
 * mails a one-time code, and typing it here signs them in (or leads to the second step when they have one). The
 * service answers alike whether or not the address has an account, and so does this page.
 */
export function EmailCodePage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  useDocumentTitle(t("emailSignIn.code.title"));
  const { email: typed, from } = readSignInState(location.state);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const ask = useForm(() => ({ email: typed }), {
    validate: ({ email }) => {
      const problem = emailProblem(t, email);
      return problem ? { email: problem } : {};
    },
    placement: { codes: { INVALID_EMAIL: "email" }, requestFields: { email: "email" } },
  });
  // The notice is "a new code was sent".
  const answer = useForm<{ code: string }>(
    { code: "" },
    {
      validate: ({ code }) => (code.trim() ? {} : { code: t("emailSignIn.code.codeRequired") }),
      placement: { codes: { INVALID_OTP: "code", OTP_EXPIRED: "code" }, requestFields: { otp: "code" } },
    },
  );
  const [resending, setResending] = useState(false);

  const send = (email: string) => authClient.emailOtp.sendVerificationOtp({ email, type: "sign-in" });

  const onAsk = ask.onSubmit(async ({ email }) => {
    const address = email.trim();
    const { error } = await send(address);
    if (error) return error;
    answer.reset();
    setSentTo(address);
    return null;
  });

  const onAnswer = answer.onSubmit(async ({ code }) => {
    if (!sentTo) return null;
    const { data, error } = await authClient.signIn.emailOtp({ email: sentTo, otp: code.replace(/\s+/g, "") });
    if (error) return error;
    if (isSecondStep(data)) {
      const state: SecondStepState = { methods: data.twoFactorMethods };
      await navigate(secondStepPath(from), { state });
      return null;
    }
    // The session store now holds the new session; the guest-only route moves on to `from`.
    await authClient.$session.refetch();
    return null;
  });

  async function resend() {
    if (!sentTo) return;
    setResending(true);
    const { error } = await send(sentTo);
    setResending(false);
    if (error) answer.fail({}, errorMessage(t, error));
    else {
      answer.reset();
      answer.succeed(true);
    }
  }

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
        <PageHeading align="center" lead={t("emailSignIn.code.enterLead", { email: sentTo })}>
          {t("emailSignIn.code.enterHeading")}
        </PageHeading>
        <ForApplication path={from} />
        <Form ref={answer.ref} onSubmit={onAnswer}>
          {answer.error ? (
            <Alert variant="error" focusable>
              {answer.error}
            </Alert>
          ) : null}
          {answer.notice ? <Alert variant="success">{t("emailSignIn.code.sentAgain")}</Alert> : null}
          <OneTimeCodeField
            label={t("emailSignIn.code.code")}
            className={styles.code}
            autoCapitalize="none"
            {...answer.field("code")}
          />
          <Button type="submit" fullWidth loading={answer.submitting} loadingText={t("emailSignIn.code.verifying")}>
            {t("emailSignIn.code.verify")}
          </Button>
          <div className={styles.actions}>
            <Button
              variant="secondary"
              fullWidth
              loading={resending}
              loadingText={t("emailSignIn.code.sendingAgain")}
              disabled={answer.submitting}
              onClick={() => void resend()}
            >
              {t("emailSignIn.code.sendAgain")}
            </Button>
            <Button
              variant="ghost"
              fullWidth
              disabled={answer.submitting}
              onClick={() => {
                ask.reset({ email: sentTo });
                setSentTo(null);
              }}
            >
              {t("emailSignIn.code.otherAddress")}
            </Button>
          </div>
        </Form>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout footer={footer}>
      <PageHeading lead={t("emailSignIn.code.lead")}>{t("emailSignIn.code.heading")}</PageHeading>
      <ForApplication path={from} />
      <Form ref={ask.ref} onSubmit={onAsk}>
        {ask.error ? (
          <Alert variant="error" focusable>
            {ask.error}
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
          {...ask.field("email")}
        />
        <Button type="submit" fullWidth loading={ask.submitting} loadingText={t("emailSignIn.code.submitting")}>
          {t("emailSignIn.code.submit")}
        </Button>
      </Form>
    </AuthLayout>
  );
}

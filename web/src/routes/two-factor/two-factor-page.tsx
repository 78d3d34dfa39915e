import { useEffect, useId, useRef, useState } from "react";
import { Link, Navigate, useLocation, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import type { AuthError } from "@gatehouse/client";
import { AuthLayout } from "../../components/auth-layout";
import { ForApplication } from "../../components/for-application";
import { LoadingScreen } from "../../components/loading-screen";
import { PageHeading } from "../../components/page-heading";
import { StatusIcon } from "../../components/status-icon";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { ButtonLink } from "../../components/ui/button-link";
import { Checkbox } from "../../components/ui/checkbox";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { errorMessage } from "../../lib/auth-errors";
import { secondStepTarget, signInAgain } from "../../lib/return-to";
import type { SecondStepState } from "../../lib/second-step";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useForm } from "../../lib/use-form";
import styles from "./two-factor-page.module.css";

/** What the visitor answers with: the authenticator app, a backup code, or a code mailed to them. */
type Mode = "totp" | "backup" | "otp";

/** Refusals after which this pending sign-in is over: only signing in again helps. */
const ENDED = new Set(["INVALID_TWO_FACTOR_COOKIE", "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE"]);

/**
 * The second step of a sign-in (README.md, "Second factors"): a user with a second factor arrives here from any
 * first factor with a pending challenge (its cookie), answers it with a code, and goes on to `?callbackURL` (one of
 * our pages, or the OpenID Provider's interaction; anything else goes home). The challenge lives a few minutes; once
 * it is over the page says to sign in again, and starting over keeps going to the same place. Which factors the user has comes with the navigation from our sign-in pages, or in `?methods` when the
 * service sent the browser here (a mailed link, a provider's callback).
 */
/** `?methods=` as the service writes it: the known methods it names, or none when it names none. */
function methodsFromQuery(raw: string | null): string[] | undefined {
  const methods = (raw ?? "").split(",").filter((m) => m === "totp" || m === "otp");
  return methods.length ? methods : undefined;
}

export function TwoFactorPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  useDocumentTitle(t("twoFactor.title"));
  const { data, isPending } = authClient.useSession();
  const callback = secondStepTarget(params.get("callbackURL"));
  const startOver = signInAgain(callback);
  // The session the store holds may be one the sign-in that sent the browser here has just ended: a signed-in user
  // asked to sign in again (an application's prompt=login) whose password owes a second step. It is read afresh
  // before the page goes on with it.
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    let live = true;
    void authClient.$session.refetch().finally(() => {
      if (live) setSettled(true);
    });
    return () => {
      live = false;
    };
  }, []);

  // From our sign-in pages in the navigation's state; from the service's own redirect (a mailed link, a provider's
  // callback) in `?methods=totp,otp`. Neither: every way is offered and the service refuses what does not apply.
  const methods = (location.state as SecondStepState | null)?.methods ?? methodsFromQuery(params.get("methods"));
  const hasApp = !methods || methods.includes("totp");
  // Learnt when the service says this account has no email code (a visitor the service sent here).
  const [noEmail, setNoEmail] = useState(false);
  const hasEmail = (!methods || methods.includes("otp")) && !noEmail;
  const [mode, setMode] = useState<Mode>(hasApp ? "totp" : "otp");
  const [emailSent, setEmailSent] = useState(false);
  const [sending, setSending] = useState(false);
  const [resent, setResent] = useState(false);
  const [ended, setEnded] = useState<string | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const switched = useRef(false);
  const othersId = useId();

  const form = useForm<{ code: string; trustDevice: boolean }>(
    { code: "", trustDevice: false },
    { validate: ({ code }) => (code.trim() ? {} : { code: t("twoFactor.codeRequired") }) },
  );

  // A switch of the way to answer puts the cursor in its field (the page's first focus is its heading).
  useEffect(() => {
    if (switched.current) codeRef.current?.focus();
  }, [mode, emailSent]);

  /** A refusal that ends the pending sign-in replaces the form; any other goes beside the field. */
  function settle(error: AuthError | null): AuthError | null {
    if (error && ENDED.has(error.code)) {
      setEnded(errorMessage(t, error));
      return null;
    }
    return error;
  }

  const onSubmit = form.onSubmit(async ({ code, trustDevice }) => {
    const typed = mode === "backup" ? code.trim() : code.replace(/\s+/g, "");
    const call =
      mode === "totp"
        ? authClient.twoFactor.verifyTotp({ code: typed, trustDevice })
        : mode === "backup"
          ? authClient.twoFactor.verifyBackupCode({ code: typed, trustDevice })
          : authClient.twoFactor.verifyOtp({ code: typed, trustDevice });
    const { error } = await call;
    if (error) return settle(error);
    // Signed in: the session store reads the new session and the page goes on (below).
    await authClient.$session.refetch();
    return null;
  });

  async function sendEmail() {
    setSending(true);
    setResent(false);
    const { error } = await authClient.twoFactor.sendOtp();
    setSending(false);
    if (error) {
      const left = settle(error);
      if (left?.code === "OTP_NOT_ENABLED" && hasApp) {
        // Not one of this account's factors: back to the app, saying why.
        setNoEmail(true);
        choose("totp");
      }
      if (left) form.fail({}, errorMessage(t, left));
      return;
    }
    if (emailSent) setResent(true);
    setEmailSent(true);
  }

  function choose(next: Mode) {
    switched.current = true;
    setMode(next);
    setResent(false);
    form.reset({ code: "", trustDevice: form.values.trustDevice });
  }

  if (isPending || !settled) return <LoadingScreen />;
  // Signed in (just now, or already when the page opened): on to where the sign-in was going.
  if (data) return <GoOn path={callback} />;

  const lead =
    mode === "totp"
      ? t("twoFactor.totpLead")
      : mode === "backup"
        ? t("twoFactor.backupLead")
        : emailSent
          ? t("twoFactor.otpSentLead")
          : t("twoFactor.otpLead");
  const label = mode === "totp" ? t("twoFactor.code") : mode === "backup" ? t("twoFactor.backupCode") : t("twoFactor.emailCode");
  const numeric = mode !== "backup";
  const others: { mode: Mode; label: string }[] = [
    ...(hasApp && mode !== "totp" ? [{ mode: "totp" as const, label: t("twoFactor.useApp") }] : []),
    ...(hasApp && mode !== "backup" ? [{ mode: "backup" as const, label: t("twoFactor.useBackup") }] : []),
    ...(hasEmail && mode !== "otp" ? [{ mode: "otp" as const, label: t("twoFactor.useEmail") }] : []),
  ];

  return (
    <AuthLayout
      footer={
        <>
          {t("twoFactor.startOverLead")}{" "}
          <Link to={startOver.to} state={startOver.state}>
            {t("common.backToSignIn")}
          </Link>
        </>
      }
    >
      <StatusIcon icon="lock" />
      <PageHeading align="center" lead={ended ? undefined : lead}>
        {t("twoFactor.heading")}
      </PageHeading>
      {ended ? null : <ForApplication path={callback} />}

      {ended ? (
        <>
          <Alert variant="error" title={t("twoFactor.expiredTitle")} focusable>
            {ended}
          </Alert>
          <ButtonLink to={startOver.to} state={startOver.state} fullWidth>
            {t("common.signIn")}
          </ButtonLink>
        </>
      ) : mode === "otp" && !emailSent ? (
        <>
          {form.error ? (
            <Alert variant="error" focusable>
              {form.error}
            </Alert>
          ) : null}
          <Button fullWidth loading={sending} loadingText={t("twoFactor.sendingCode")} onClick={() => void sendEmail()}>
            {t("twoFactor.sendCode")}
          </Button>
        </>
      ) : (
        <Form ref={form.ref} onSubmit={onSubmit}>
          {form.error ? (
            <Alert variant="error" focusable>
              {form.error}
            </Alert>
          ) : null}
          {resent ? <Alert variant="success">{t("twoFactor.codeSent")}</Alert> : null}
          <TextField
            ref={codeRef}
            key={mode}
            label={label}
            name={mode === "backup" ? "backup-code" : "one-time-code"}
            className={styles.code}
            autoComplete={numeric ? "one-time-code" : "off"}
            inputMode={numeric ? "numeric" : "text"}
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            maxLength={numeric ? 12 : 32}
            required
            {...form.field("code")}
          />
          <Checkbox
            label={t("twoFactor.trustDevice")}
            hint={t("twoFactor.trustDeviceHint")}
            name="trustDevice"
            checked={form.values.trustDevice}
            onChange={(event) => form.set("trustDevice", event.target.checked)}
          />
          <Button type="submit" fullWidth loading={form.submitting} loadingText={t("twoFactor.verifying")}>
            {t("twoFactor.verify")}
          </Button>
          {mode === "otp" ? (
            <Button variant="ghost" fullWidth loading={sending} loadingText={t("twoFactor.sendingCode")} onClick={() => void sendEmail()}>
              {t("twoFactor.resendCode")}
            </Button>
          ) : null}
        </Form>
      )}

      {!ended && others.length > 0 ? (
        <div className={styles.others}>
          <p id={othersId} className={styles.othersHeading}>
            {t("twoFactor.otherWays")}
          </p>
          <ul className={styles.othersList} aria-labelledby={othersId}>
            {others.map((other) => (
              <li key={other.mode}>
                <Button variant="secondary" fullWidth onClick={() => choose(other.mode)}>
                  {other.label}
                </Button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </AuthLayout>
  );
}

/**
 * Leaves for `path`: a page of ours through the router; a route of the service (an authorization that waited for
 * this sign-in) is loaded by the browser.
 */
function GoOn({ path }: { path: string }) {
  const isService = path.startsWith("/api/");
  useEffect(() => {
    if (isService) window.location.assign(path);
  }, [isService, path]);
  return isService ? <LoadingScreen /> : <Navigate to={path} replace />;
}

import type { AuthError } from "@gatehouse/client";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCurrentSession } from "../../components/current-session";
import { Alert } from "../../components/ui/alert";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { OneTimeCodeField } from "../../components/ui/one-time-code-field";
import { Spinner } from "../../components/ui/spinner";
import { authClient } from "../../lib/auth-client";
import { errorMessage } from "../../lib/auth-errors";
import { mutations, queries, useQuery } from "../../lib/data";
import { formatDate } from "../../lib/format-time";
import { useForm } from "../../lib/use-form";
import { BackupCodes } from "./backup-codes";
import { PasswordStep } from "./password-step";
import { TotpEnrolment } from "./totp-enrolment";
import styles from "./security-page.module.css";

/** Where the card is: at rest, asking for the password before a change, or in the middle of one. */
type Step =
  | { kind: "rest" }
  | { kind: "password"; purpose: "app" | "email" | "codes" | "off" }
  | { kind: "scan"; uri: string; backupCodes: string[] }
  | { kind: "email" }
  | { kind: "codes"; codes: string[] };

export interface TwoFactorCardProps {
  /** Whether the user has a password to confirm changes with; null while unknown. */
  hasPassword: boolean | null;
}

/**
 * Two-step sign-in (README.md, "Second factors"): turning it on with an authenticator app (QR code, setup key,
 * first code; then backup codes shown once) or with codes by email (a first code proves the mailbox), new backup
 * codes, and turning it off. Every change asks for the password first (a user without one confirms from a fresh
 * session, which the service checks).
 */
export function TwoFactorCard({ hasPassword }: TwoFactorCardProps) {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const enabled = user.twoFactorEnabled;
  const [step, setStep] = useState<Step>({ kind: "rest" });
  const [notice, setNotice] = useState<string | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  function go(next: Step) {
    setNotice(null);
    setStep(next);
  }

  function finish(message: string | null) {
    setStep({ kind: "rest" });
    setNotice(message);
  }

  async function confirmed(purpose: "app" | "email" | "codes" | "off", password: string | undefined): Promise<AuthError | null> {
    const withPassword = password === undefined ? {} : { password };
    if (purpose === "app") {
      const { data, error } = await mutations.enableTwoFactor({ ...withPassword, method: "totp" });
      if (error) return error;
      if (data.method === "totp") go({ kind: "scan", uri: data.totpURI, backupCodes: data.backupCodes });
      return null;
    }
    if (purpose === "email") {
      const { error } = await mutations.enableTwoFactor({ ...withPassword, method: "otp" });
      if (error) return error;
      // The mailbox proves itself with a first code before it counts as a factor.
      const sent = await authClient.twoFactor.sendOtp();
      if (sent.error) return sent.error;
      go({ kind: "email" });
      return null;
    }
    if (purpose === "codes") {
      const { data, error } = await mutations.generateBackupCodes(withPassword);
      if (error) return error;
      go({ kind: "codes", codes: data.backupCodes });
      return null;
    }
    const { error } = await mutations.disableTwoFactor(withPassword);
    if (error) return error;
    finish(t("security.twoFactor.disabled"));
    return null;
  }

  const passwordStep = (purpose: "app" | "email" | "codes" | "off") => {
    const labels = {
      app: [t("security.twoFactor.confirmLead"), t("security.twoFactor.confirm"), t("security.twoFactor.confirming")],
      email: [t("security.twoFactor.confirmLead"), t("security.twoFactor.confirm"), t("security.twoFactor.confirming")],
      codes: [t("security.backupCodes.regenerateLead"), t("security.backupCodes.regenerate"), t("security.backupCodes.regenerating")],
      off: [t("security.twoFactor.turnOffLead"), t("security.twoFactor.turnOff"), t("security.twoFactor.turningOff")],
    }[purpose];
    return (
      <PasswordStep
        lead={labels[0]!}
        submitLabel={labels[1]!}
        submittingLabel={labels[2]!}
        variant={purpose === "off" ? "danger" : "primary"}
        hasPassword={hasPassword !== false}
        onSubmit={(password) => confirmed(purpose, password)}
        onCancel={() => finish(null)}
      />
    );
  };

  let body;
  if (step.kind === "password") body = passwordStep(step.purpose);
  else if (step.kind === "scan") {
    body = (
      <TotpEnrolment
        uri={step.uri}
        onVerified={() => {
          setNotice(t("security.twoFactor.enabled"));
          setStep({ kind: "codes", codes: step.backupCodes });
        }}
        onCancel={() => finish(null)}
      />
    );
  } else if (step.kind === "email") {
    body = <EmailEnrolment email={user.email} onVerified={() => finish(t("security.twoFactor.enabled"))} onCancel={() => finish(null)} />;
  } else if (step.kind === "codes") {
    body = <BackupCodes codes={step.codes} onDone={() => finish(null)} />;
  } else {
    body = <FactorList enabled={enabled} email={user.email} onStart={(purpose) => go({ kind: "password", purpose })} />;
  }

  return (
    <Card
      id="two-factor"
      title={t("security.twoFactor.heading")}
      description={t("security.twoFactor.description")}
      actions={<Badge variant={enabled ? "success" : "neutral"}>{enabled ? t("security.on") : t("security.off")}</Badge>}
    >
      <div className={styles.cardBody}>
        {notice ? (
          <Alert ref={noticeRef} variant="success" focusable>
            {notice}
          </Alert>
        ) : null}
        {step.kind === "rest" ? (
          <p className={styles.status}>{enabled ? t("security.twoFactor.onText") : t("security.twoFactor.offText")}</p>
        ) : null}
        {body}
      </div>
    </Card>
  );
}

interface FactorListProps {
  enabled: boolean;
  email: string;
  onStart(purpose: "app" | "email" | "codes" | "off"): void;
}

/**
 * What the user holds (GET /two-factor/get-factors): the authenticator app and codes by email, each on (since when)
 * or offered, the backup codes left, and turning it all off.
 */
function FactorList({ enabled, email, onStart }: FactorListProps) {
  const { t, i18n } = useTranslation();
  const factors = useQuery(queries.factors());
  if (factors.state !== "ready") {
    return factors.state === "loading" ? (
      <p className={styles.loading} role="status">
        <Spinner size="sm" />
        {t("security.twoFactor.loading")}
      </p>
    ) : (
      <Alert variant="error" title={t("security.twoFactor.loadFailed")}>
        <p>{errorMessage(t, factors.error)}</p>
        <Button variant="secondary" size="sm" className={styles.retry} onClick={() => void factors.reload()}>
          {t("common.tryAgain")}
        </Button>
      </Alert>
    );
  }
  const { totp, emailCode, backupCodes } = factors.data;
  const since = (date: string | null) => (date ? t("security.twoFactor.onSince", { date: formatDate(date, i18n.language) }) : t("security.on"));
  return (
    <>
      <ul className={styles.methods}>
        <li className={styles.method}>
          <div className={styles.methodText}>
            <h3 className={styles.methodName}>{t("security.twoFactor.appMethod")}</h3>
            <p className={styles.muted}>{totp ? since(totp.enabledAt) : t("security.twoFactor.appMethodText")}</p>
          </div>
          {totp ? (
            <Badge variant="success">{t("security.on")}</Badge>
          ) : (
            <Button variant="secondary" size="sm" onClick={() => onStart("app")}>
              {t("security.twoFactor.setUpApp")}
            </Button>
          )}
        </li>
        <li className={styles.method}>
          <div className={styles.methodText}>
            <h3 className={styles.methodName}>{t("security.twoFactor.emailMethod")}</h3>
            <p className={styles.muted}>{emailCode ? since(emailCode.enabledAt) : t("security.twoFactor.emailMethodText", { email })}</p>
          </div>
          {emailCode ? (
            <Badge variant="success">{t("security.on")}</Badge>
          ) : (
            <Button variant="secondary" size="sm" onClick={() => onStart("email")}>
              {t("security.twoFactor.setUpEmail")}
            </Button>
          )}
        </li>
        {enabled ? (
          <li className={styles.method}>
            <div className={styles.methodText}>
              <h3 className={styles.methodName}>{t("security.backupCodes.heading")}</h3>
              <p className={styles.muted}>{t("security.backupCodes.remaining", { count: backupCodes.remaining })}</p>
            </div>
            <Button variant="secondary" size="sm" onClick={() => onStart("codes")}>
              {t("security.backupCodes.regenerate")}
            </Button>
          </li>
        ) : null}
      </ul>
      {enabled ? (
        <div className={styles.buttons}>
          <Button variant="danger" onClick={() => onStart("off")}>
            {t("security.twoFactor.turnOff")}
          </Button>
        </div>
      ) : null}
    </>
  );
}

interface EmailEnrolmentProps {
  email: string;
  onVerified(): void;
  onCancel(): void;
}

/** Codes by email as the second factor: the code just mailed proves the mailbox and turns it on. */
function EmailEnrolment({ email, onVerified, onCancel }: EmailEnrolmentProps) {
  const { t } = useTranslation();
  const field = useRef<HTMLInputElement>(null);
  const form = useForm(
    { code: "" },
    {
      validate: ({ code }) => (code.trim() ? {} : { code: t("security.twoFactor.emailCodeRequired") }),
      placement: { codes: { INVALID_CODE: "code", OTP_HAS_EXPIRED: "code" }, requestFields: { code: "code" } },
    },
  );
  useEffect(() => {
    field.current?.focus();
  }, []);

  const onSubmit = form.onSubmit(async ({ code }) => {
    const { error } = await mutations.verifyOtp({ code: code.replace(/\s+/g, "") });
    if (error) return error;
    onVerified();
    return null;
  });

  return (
    <Form ref={form.ref} onSubmit={onSubmit} className={styles.step}>
      <p className={styles.stepLead}>{t("security.twoFactor.emailCodeLead", { email })}</p>
      {form.error ? (
        <Alert variant="error" focusable>
          {form.error}
        </Alert>
      ) : null}
      <OneTimeCodeField
        ref={field}
        label={t("security.twoFactor.emailCode")}
        className={styles.codeField}
        {...form.field("code")}
      />
      <div className={styles.buttons}>
        <Button type="submit" loading={form.submitting} loadingText={t("security.twoFactor.turningOn")}>
          {t("security.twoFactor.turnOn")}
        </Button>
        <Button variant="secondary" disabled={form.submitting} onClick={onCancel}>
          {t("common.cancel")}
        </Button>
      </div>
    </Form>
  );
}

import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Form } from "../../components/ui/form";
import { Spinner } from "../../components/ui/spinner";
import { OneTimeCodeField } from "../../components/ui/one-time-code-field";
import { mutations } from "../../lib/data";
import { useForm } from "../../lib/use-form";
import styles from "./security-page.module.css";

// The QR library comes only with an enrolment.
const TotpQrCode = lazy(() => import("./totp-qr-code").then((module) => ({ default: module.TotpQrCode })));

/** The base32 secret of an otpauth:// URI, for typing it into an app by hand. */
function secretOf(uri: string): string {
  try {
    return new URL(uri).searchParams.get("secret") ?? "";
  } catch {
    return "";
  }
}

export interface TotpEnrolmentProps {
  /** The otpauth:// URI two-factor/enable answered. */
  uri: string;
  /** The app's first code was accepted: two-step sign-in is on. */
  onVerified(): void;
  onCancel(): void;
}

/**
 * Adding an authenticator app: its QR code, the same secret as text for typing it in, and the app's first code,
 * which proves it was added right and turns two-step sign-in on.
 */
export function TotpEnrolment({ uri, onVerified, onCancel }: TotpEnrolmentProps) {
  const { t } = useTranslation();
  const secret = secretOf(uri);
  const [copied, setCopied] = useState(false);
  const form = useForm(
    { code: "" },
    {
      validate: ({ code }) => (code.trim() ? {} : { code: t("security.twoFactor.codeRequired") }),
      placement: { codes: { INVALID_CODE: "code" }, requestFields: { code: "code" } },
    },
  );

  const onSubmit = form.onSubmit(async ({ code }) => {
    const { error } = await mutations.verifyTotp({ code: code.replace(/\s+/g, "") });
    if (error) return error;
    onVerified();
    return null;
  });

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <div className={styles.step}>
      <div className={styles.scan}>
        <Suspense
          fallback={
            <div className={styles.qrPlaceholder}>
              <Spinner size="sm" label={t("security.twoFactor.qrLoading")} />
            </div>
          }
        >
          <TotpQrCode uri={uri} label={t("security.twoFactor.qrLabel")} />
        </Suspense>
        <div className={styles.scanText}>
          <h3 className={styles.stepHeading}>{t("security.twoFactor.scanHeading")}</h3>
          <p className={styles.muted}>{t("security.twoFactor.appMethodText")}</p>
          <p className={styles.muted}>{t("security.twoFactor.manualHeading")}</p>
          <div className={styles.secretRow}>
            <p className={styles.secret}>
              <span className="visually-hidden">{`${t("security.twoFactor.secretLabel")}: `}</span>
              <code data-secret={secret}>{secret.match(/.{1,4}/g)?.join(" ")}</code>
            </p>
            <Button variant="secondary" size="sm" onClick={() => void copy()}>
              {copied ? t("security.copied") : t("security.copy")}
            </Button>
          </div>
        </div>
      </div>
      <Form ref={form.ref} onSubmit={onSubmit}>
        {form.error ? (
          <Alert variant="error" focusable>
            {form.error}
          </Alert>
        ) : null}
        <OneTimeCodeField
          label={t("security.twoFactor.code")}
          hint={t("security.twoFactor.codeHint")}
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
    </div>
  );
}

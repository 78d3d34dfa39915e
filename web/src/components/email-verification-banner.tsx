import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { authClient } from "../lib/auth-client";
import { errorMessage } from "../lib/auth-errors";
import { useCurrentSession } from "./current-session";
import { Button } from "./ui/button";
import own from "./email-verification-banner.module.css";
import styles from "./warning-banner.module.css";

type Outcome = { kind: "sent" } | { kind: "error"; message: string } | null;

/**
 * Shown under the heading of the signed-in pages (home, account) while the user's address is unverified,
 * with a way to get a new link; renders nothing once it is verified.
 */
export function EmailVerificationBanner() {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const email = user.email;
  const titleId = useId();
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  if (user.emailVerified) return null;

  async function resend() {
    setSending(true);
    setOutcome(null);
    const { error } = await authClient.sendVerificationEmail({ email });
    setSending(false);
    setOutcome(error ? { kind: "error", message: errorMessage(t, error) } : { kind: "sent" });
  }

  return (
    <section className={styles.banner} aria-labelledby={titleId}>
      <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          d="M3.75 6.75h16.5v10.5a1.5 1.5 0 0 1-1.5 1.5H5.25a1.5 1.5 0 0 1-1.5-1.5V6.75Zm0 0L12 13l8.25-6.25"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <div className={styles.text}>
        <h2 id={titleId} className={styles.title}>
          {t("verifyBanner.title")}
        </h2>
        <p>{t("verifyBanner.text", { email })}</p>
        {/* Always present, so the outcome is announced when it appears. */}
        <p role="status" className={outcome?.kind === "error" ? own.error : own.sent}>
          {outcome?.kind === "sent" ? t("verifyBanner.resent", { email }) : null}
          {outcome?.kind === "error" ? outcome.message : null}
        </p>
      </div>
      <Button
        variant="secondary"
        size="sm"
        className={styles.action}
        loading={sending}
        loadingText={t("verifyBanner.resending")}
        onClick={() => void resend()}
      >
        {t("verifyBanner.resend")}
      </Button>
    </section>
  );
}

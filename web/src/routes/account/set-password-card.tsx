import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useCurrentSession } from "../../components/current-session";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { authClient } from "../../lib/auth-client";
import { errorMessage } from "../../lib/auth-errors";
import { useFeatures } from "../../lib/use-features";
import styles from "./set-password-card.module.css";

type Outcome = { kind: "sent" } | { kind: "error"; message: string } | null;

/**
 * For a user who signs in only through providers: a password is set by proving the mailbox, with the same
 * mailed link as a reset (setting one directly is a server-only route). The link's page creates the password.
 */
export function SetPasswordCard() {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const features = useFeatures();
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const available = features?.resetPassword !== false;

  async function send() {
    setSending(true);
    setOutcome(null);
    const { error } = await authClient.forgetPassword({ email: user.email, redirectTo: "/reset-password" });
    setSending(false);
    setOutcome(error ? { kind: "error", message: errorMessage(t, error) } : { kind: "sent" });
  }

  return (
    <Card
      title={t("account.setPassword.heading")}
      description={available ? t("account.setPassword.description") : t("account.setPassword.unavailable")}
      footer={
        available ? (
          <>
            <p className={styles.status} role="status">
              {outcome?.kind === "sent" ? t("account.setPassword.sent", { email: user.email }) : null}
            </p>
            <Button loading={sending} loadingText={t("account.setPassword.sending")} onClick={() => void send()}>
              {outcome?.kind === "sent" ? t("account.setPassword.sendAgain") : t("account.setPassword.send")}
            </Button>
          </>
        ) : undefined
      }
    >
      {outcome?.kind === "error" ? (
        <Alert variant="error" focusable>
          {outcome.message}
        </Alert>
      ) : null}
    </Card>
  );
}

import { useState } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { authClient } from "../lib/auth-client";
import { errorMessage } from "../lib/auth-errors";
import { Button } from "./ui/button";
import styles from "./impersonation-banner.module.css";

/**
 * While an administrator acts as another user (the session carries `impersonatedBy`), a strip at the top of
 * every page, kept in view as the page scrolls, says whom they act as and lets them stop, back to their own session.
 */
export function ImpersonationBanner() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data, refetch } = authClient.useSession();
  const [stopping, setStopping] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (!data?.session.impersonatedBy) return null;
  const { user } = data;

  async function stop() {
    setStopping(true);
    setFailure(null);
    const { error } = await authClient.admin.stopImpersonating();
    if (error) {
      setStopping(false);
      setFailure(errorMessage(t, error));
      return;
    }
    await refetch();
    setStopping(false);
    void navigate(`/admin/users/${encodeURIComponent(user.id)}`);
  }

  return (
    <div className={styles.banner} role="region" aria-label={t("impersonation.stop")}>
      <p className={styles.text}>
        {t("impersonation.banner", { name: user.name, email: user.email })}
        {failure ? <span className={styles.failure}> {failure}</span> : null}
      </p>
      <Button className={styles.button} size="sm" variant="secondary" loading={stopping} loadingText={t("impersonation.stopping")} onClick={() => void stop()}>
        {t("impersonation.stop")}
      </Button>
    </div>
  );
}

import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { UserFactors } from "@gatehouse/client";
import { CardListState } from "../../components/card-list-state";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Checkbox } from "../../components/ui/checkbox";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { mutations, queries, useQuery } from "../../lib/data";
import { formatDate, formatDateTime } from "../../lib/format-time";
import type { UserCardProps } from "./user-actions";
import pageStyles from "./admin-user-page.module.css";
import styles from "./factors-card.module.css";

/** Whether the user holds anything a reset would remove (with or without their passkeys). */
function holdsFactors(factors: UserFactors): boolean {
  return (
    factors.twoFactorEnabled ||
    factors.totp !== null ||
    factors.totpPending ||
    factors.emailCode !== null ||
    factors.backupCodes.remaining > 0 ||
    factors.trustedDevices.count > 0 ||
    factors.passkeys.length > 0
  );
}

/**
 * The user's sign-in factors as the service shows them to administrators (GET /admin/list-user-factors: kinds,
 * dates and counts, never a secret), and a reset after a confirmation (POST /admin/reset-user-factors): their
 * second factors, backup codes and trusted browsers go, and their passkeys too when ticked. Not offered on the
 * administrator's own page: theirs are changed on the Security page, behind the password.
 */
export function FactorsCard({ user, busy, act, own }: UserCardProps & { own: boolean }) {
  const { t, i18n } = useTranslation();
  const load = useQuery(queries.adminUserFactors(user.id));
  const [confirming, setConfirming] = useState(false);
  const [includePasskeys, setIncludePasskeys] = useState(false);
  const locale = i18n.language;

  async function reset() {
    const done = await act(
      "resetFactors",
      () => mutations.resetUserFactors({ userId: user.id, includePasskeys }),
      t("admin.user.factors.didReset", { name: user.name }),
    );
    if (done) setIncludePasskeys(false);
    setConfirming(false);
  }

  const factors = load.data;
  return (
    <Card
      title={t("admin.user.factors.heading")}
      description={t("admin.user.factors.description")}
      footer={
        factors && !own ? (
          <Button
            variant="danger"
            disabled={busy !== null || !holdsFactors(factors)}
            onClick={() => setConfirming(true)}
          >
            {t("admin.user.factors.reset")}
          </Button>
        ) : undefined
      }
    >
      {!factors ? (
        <CardListState
          state={load.state === "failed" ? "failed" : "loading"}
          error={load.error ?? undefined}
          loadingText={t("admin.user.factors.loading")}
          failedTitle={t("admin.user.factors.failed")}
          onRetry={() => void load.reload()}
        />
      ) : (
        <div className={pageStyles.stack}>
          <dl className={styles.facts}>
            <div className={styles.fact}>
              <dt>{t("admin.user.factors.twoStep")}</dt>
              <dd>
                <Badge variant={factors.twoFactorEnabled ? "success" : "neutral"}>
                  {factors.twoFactorEnabled ? t("admin.user.factors.on") : t("admin.user.factors.off")}
                </Badge>
              </dd>
            </div>
            <div className={styles.fact}>
              <dt>{t("admin.user.factors.app")}</dt>
              <dd>
                {factors.totp
                  ? factors.totp.enabledAt
                    ? t("admin.user.factors.since", { date: formatDate(factors.totp.enabledAt, locale) })
                    : t("admin.user.factors.on")
                  : factors.totpPending
                    ? t("admin.user.factors.pending")
                    : t("admin.user.factors.none")}
              </dd>
            </div>
            <div className={styles.fact}>
              <dt>{t("admin.user.factors.email")}</dt>
              <dd>
                {factors.emailCode
                  ? t("admin.user.factors.since", { date: formatDate(factors.emailCode.enabledAt, locale) })
                  : t("admin.user.factors.none")}
              </dd>
            </div>
            <div className={styles.fact}>
              <dt>{t("admin.user.factors.backupCodes")}</dt>
              <dd>{factors.backupCodes.remaining}</dd>
            </div>
            <div className={styles.fact}>
              <dt>{t("admin.user.factors.trusted")}</dt>
              <dd>{factors.trustedDevices.count}</dd>
            </div>
          </dl>
          {factors.lockedUntil ? (
            <p className={styles.muted}>{t("admin.user.factors.locked", { date: formatDateTime(factors.lockedUntil, locale) })}</p>
          ) : null}
          <div className={pageStyles.stack}>
            <h3 className={styles.subheading}>{t("admin.user.factors.passkeys")}</h3>
            {factors.passkeys.length > 0 ? (
              <ul className={styles.passkeys} aria-label={t("admin.user.factors.passkeys")}>
                {factors.passkeys.map((passkey) => (
                  <li key={passkey.id} className={styles.passkey}>
                    <span className={styles.passkeyName}>{passkey.name || t("admin.user.factors.unnamed")}</span>
                    <span className={styles.muted}>{t("admin.user.factors.added", { date: formatDate(passkey.createdAt, locale) })}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className={styles.muted}>{t("admin.user.factors.noPasskeys")}</p>
            )}
          </div>
          {own ? <p className={styles.muted}>{t("admin.user.factors.own")}</p> : null}
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title={t("admin.user.factors.resetTitle", { name: user.name })}
        confirmLabel={t("admin.user.factors.resetConfirm")}
        cancelLabel={t("common.cancel")}
        loading={busy === "resetFactors"}
        loadingText={t("admin.user.factors.resetting")}
        onConfirm={() => void reset()}
        onClose={() => setConfirming(false)}
      >
        <p>{t("admin.user.factors.resetText")}</p>
        {factors && factors.passkeys.length > 0 ? (
          <Checkbox
            label={t("admin.user.factors.includePasskeys")}
            checked={includePasskeys}
            onChange={(event) => setIncludePasskeys(event.currentTarget.checked)}
          />
        ) : null}
      </ConfirmDialog>
    </Card>
  );
}

import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { OwnFactors } from "@gatehouse/client";
import { CardListState } from "../../components/card-list-state";
import { Alert } from "../../components/ui/alert";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { errorMessage } from "../../lib/auth-errors";
import { mutations, queries, useQuery } from "../../lib/data";
import { formatDate, formatDateTime, formatRelativeTime } from "../../lib/format-time";
import { useDeviceLabel } from "../../lib/use-device-label";
import list from "../../components/card-list.module.css";
import styles from "./security-page.module.css";

type Device = OwnFactors["trustedDevices"][number];
type Notice = { variant: "success" | "error"; text: string } | null;

const BROWSER_ICON = "M4.5 4.75h15a1.25 1.25 0 0 1 1.25 1.25v12A1.25 1.25 0 0 1 19.5 19.25h-15A1.25 1.25 0 0 1 3.25 18V6A1.25 1.25 0 0 1 4.5 4.75ZM3.25 9h17.5M6.5 7h.01M9 7h.01";

/**
 * The browsers where the user ticked "Trust this device" at the second step, which skip it until their trust runs
 * out: each with when it was trusted and last used (this browser marked), forgotten one by one or all at once.
 */
export function TrustedBrowsersCard() {
  const { t, i18n } = useTranslation();
  const deviceLabel = useDeviceLabel();
  const load = useQuery(queries.factors());
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const noticeRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  async function forget(device: Device | null) {
    setBusy(device?.id ?? "all");
    setNotice(null);
    const { error } = await mutations.forgetTrustedDevices(device ? { id: device.id } : {});
    setBusy(null);
    if (error) setNotice({ variant: "error", text: errorMessage(t, error) });
    else if (device) setNotice({ variant: "success", text: t("security.trusted.forgotten", { device: deviceLabel(device.userAgent) }) });
    else setNotice({ variant: "success", text: t("security.trusted.forgottenAll") });
  }

  const devices = load.state === "ready" ? load.data.trustedDevices : [];

  return (
    <Card
      id="trusted-browsers"
      title={t("security.trusted.heading")}
      description={t("security.trusted.description")}
      actions={
        devices.length > 1 ? (
          <Button
            variant="secondary"
            size="sm"
            loading={busy === "all"}
            loadingText={t("security.trusted.forgetting")}
            disabled={busy !== null}
            onClick={() => void forget(null)}
          >
            {t("security.trusted.forgetAll")}
          </Button>
        ) : null
      }
      flush
    >
      {notice ? (
        <div className={list.notice}>
          <Alert ref={noticeRef} variant={notice.variant} focusable>
            {notice.text}
          </Alert>
        </div>
      ) : null}
      <CardListState
        state={load.state}
        error={load.error ?? undefined}
        loadingText={t("security.trusted.loading")}
        failedTitle={t("security.trusted.loadFailed")}
        onRetry={() => void load.reload()}
      />
      {load.state === "ready" && devices.length === 0 ? (
        <div className={styles.empty}>
          <p className={styles.emptyTitle}>{t("security.trusted.none")}</p>
        </div>
      ) : null}
      {devices.length > 0 ? (
        <ul className={list.list} aria-label={t("security.trusted.listLabel")}>
          {devices.map((device) => {
            const label = deviceLabel(device.userAgent);
            const used = formatRelativeTime(device.lastUsedAt, i18n.language) ?? t("time.justNow");
            return (
              <li key={device.id} className={`${list.row} ${styles.passkey}`}>
                <span className={styles.icon} aria-hidden="true">
                  <svg viewBox="0 0 24 24" focusable="false">
                    <path d={BROWSER_ICON} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
                  </svg>
                </span>
                <div className={styles.details}>
                  <p className={styles.deviceName}>
                    <span>{label}</span>
                    {device.current ? <Badge variant="accent">{t("security.trusted.current")}</Badge> : null}
                  </p>
                  <p className={styles.meta}>
                    <time dateTime={device.createdAt} title={formatDateTime(device.createdAt, i18n.language)}>
                      {t("security.trusted.trustedOn", { date: formatDate(device.createdAt, i18n.language) })}
                    </time>
                    <time dateTime={device.lastUsedAt} title={formatDateTime(device.lastUsedAt, i18n.language)}>
                      {t("security.trusted.lastUsed", { time: used })}
                    </time>
                  </p>
                </div>
                <div className={styles.rowActions}>
                  <Button
                    variant="danger"
                    size="sm"
                    loading={busy === device.id}
                    loadingText={t("security.trusted.forgetting")}
                    disabled={busy !== null && busy !== device.id}
                    aria-label={t("security.trusted.forgetLabel", { device: label })}
                    onClick={() => void forget(device)}
                  >
                    {t("security.trusted.forget")}
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      ) : null}
    </Card>
  );
}

import type { Session } from "@gatehouse/client";
import { useTranslation } from "react-i18next";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { formatDateTime, formatRelativeTime } from "../../lib/format-time";
import { parseUserAgent } from "../../lib/user-agent";
import { useDeviceLabel } from "../../lib/use-device-label";
import list from "../../components/card-list.module.css";
import styles from "./session-row.module.css";

const PHONE_SYSTEMS = new Set(["iPhone", "Android"]);

const ICON_PATHS = {
  phone: "M8 2.75h8a1.25 1.25 0 0 1 1.25 1.25v16A1.25 1.25 0 0 1 16 21.25H8A1.25 1.25 0 0 1 6.75 20V4A1.25 1.25 0 0 1 8 2.75ZM11 18h2",
  computer: "M4.5 4.75h15a1.25 1.25 0 0 1 1.25 1.25v9.5a1.25 1.25 0 0 1-1.25 1.25h-15A1.25 1.25 0 0 1 3.25 15.5V6A1.25 1.25 0 0 1 4.5 4.75ZM8.5 20.25h7M12 16.75v3.5",
};

export interface SessionRowProps {
  session: Session;
  isCurrent: boolean;
  revoking: boolean;
  disabled: boolean;
  onRevoke(): void;
}

export function SessionRow({ session, isCurrent, revoking, disabled, onRevoke }: SessionRowProps) {
  const { t, i18n } = useTranslation();
  const deviceLabel = useDeviceLabel();
  const label = deviceLabel(session.userAgent);
  const { os } = parseUserAgent(session.userAgent);

  return (
    <li className={`${list.row} ${styles.row}`}>
      <span className={styles.icon} aria-hidden="true">
        <svg viewBox="0 0 24 24" focusable="false">
          <path
            d={ICON_PATHS[os && PHONE_SYSTEMS.has(os) ? "phone" : "computer"]}
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </span>
      <div className={styles.details}>
        <p className={styles.device}>
          <span>{label}</span>
          {isCurrent ? <Badge variant="accent">{t("account.sessions.current")}</Badge> : null}
        </p>
        <p className={styles.meta}>
          {session.ipAddress ? <span>{t("account.sessions.ipAddress", { ip: session.ipAddress })}</span> : null}
          {isCurrent ? (
            <span className={styles.active}>{t("account.sessions.activeNow")}</span>
          ) : (
            // The times are formatted only where shown: the current session (often the only one) says "Active now".
            <time dateTime={session.updatedAt} title={formatDateTime(session.updatedAt, i18n.language)}>
              {t("account.sessions.lastActive", { time: formatRelativeTime(session.updatedAt, i18n.language) ?? t("time.justNow") })}
            </time>
          )}
        </p>
      </div>
      {isCurrent ? null : (
        <Button
          variant="danger"
          size="sm"
          className={styles.action}
          loading={revoking}
          loadingText={t("account.sessions.revoking")}
          disabled={disabled}
          aria-label={t("account.sessions.revokeLabel", { device: label })}
          onClick={onRevoke}
        >
          {t("account.sessions.revoke")}
        </Button>
      )}
    </li>
  );
}

import type { Session } from "@gatehouse/client";
import { useTranslation } from "react-i18next";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { mutations } from "../../lib/data";
import { formatDateTime } from "../../lib/format-time";
import { useDeviceLabel } from "../../lib/use-device-label";
import type { UserCardProps } from "./user-actions";
import styles from "./admin-user-page.module.css";

/** Where the user is signed in (impersonations included, marked), each revocable, or all at once. */
export function SessionsCard({ user, busy, act, sessions }: UserCardProps & { sessions: Session[] }) {
  const { t, i18n } = useTranslation();
  const deviceLabel = useDeviceLabel();
  return (
    <Card title={t("admin.user.sessionsHeading")} description={t("admin.user.sessionsDescription")} flush>
      {sessions.length > 0 ? (
        <>
          <ul className={styles.list} aria-label={t("admin.user.sessionsLabel")}>
            {sessions.map((session) => (
              <li key={session.id} className={styles.session}>
                <div className={styles.sessionText}>
                  <span className={styles.device}>{deviceLabel(session.userAgent)}</span>
                  <span className={styles.muted}>
                    {t("admin.user.sessionStarted", { date: formatDateTime(session.createdAt, i18n.language) })}
                    {session.ipAddress ? ` · ${session.ipAddress}` : ""}
                  </span>
                  {session.impersonatedBy ? <Badge variant="warning">{t("admin.user.impersonation")}</Badge> : null}
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  loading={busy === session.id}
                  loadingText={t("admin.user.revoking")}
                  disabled={busy !== null}
                  onClick={() =>
                    void act(session.id, () => mutations.revokeUserSession(user.id, { sessionToken: session.token }), t("admin.user.revoked"))
                  }
                >
                  {t("admin.user.revoke")}
                </Button>
              </li>
            ))}
          </ul>
          <div className={styles.footer}>
            <Button
              variant="secondary"
              size="sm"
              loading={busy === "revokeAll"}
              loadingText={t("admin.user.revoking")}
              disabled={busy !== null}
              onClick={() => void act("revokeAll", () => mutations.revokeUserSessions({ userId: user.id }), t("admin.user.revoked"))}
            >
              {t("admin.user.revokeAll")}
            </Button>
          </div>
        </>
      ) : (
        <p className={styles.empty}>{t("admin.user.noSessions")}</p>
      )}
    </Card>
  );
}

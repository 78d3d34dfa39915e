import type { Session } from "@gatehouse/client";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCurrentSession } from "../../components/current-session";
import { CardListState } from "../../components/card-list-state";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { errorMessage } from "../../lib/auth-errors";
import { mutations, queries, useQuery } from "../../lib/data";
import { useDeviceLabel } from "../../lib/use-device-label";
import { SessionRow } from "./session-row";
import list from "../../components/card-list.module.css";
import styles from "./sessions-card.module.css";

type Notice = { variant: "success" | "error"; text: string } | null;

/** The current session first, then the most recently active. */
function sortSessions(sessions: Session[], currentId: string): Session[] {
  return [...sessions].sort((a, b) => {
    if (a.id === currentId) return -1;
    if (b.id === currentId) return 1;
    return Date.parse(b.updatedAt) - Date.parse(a.updatedAt);
  });
}

export function SessionsCard({ id }: { id?: string }) {
  const { t } = useTranslation();
  const { session: current } = useCurrentSession();
  const deviceLabel = useDeviceLabel();
  const load = useQuery(queries.sessions());
  const sessions = load.state === "ready" ? sortSessions(load.data, current.id) : [];
  const [notice, setNotice] = useState<Notice>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [revokingOthers, setRevokingOthers] = useState(false);
  const noticeRef = useRef<HTMLDivElement>(null);

  // After a revoke the pressed button is gone; focus goes to the message saying what happened.
  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  async function revoke(session: Session) {
    setRevoking(session.id);
    setNotice(null);
    const { error } = await mutations.revokeSession({ token: session.token });
    setRevoking(null);
    setNotice(
      error
        ? { variant: "error", text: errorMessage(t, error) }
        : { variant: "success", text: t("account.sessions.revoked", { device: deviceLabel(session.userAgent) }) },
    );
  }

  async function revokeOthers() {
    setRevokingOthers(true);
    setNotice(null);
    const { error } = await mutations.revokeOtherSessions();
    setRevokingOthers(false);
    setNotice(
      error ? { variant: "error", text: errorMessage(t, error) } : { variant: "success", text: t("account.sessions.revokedOthers") },
    );
  }

  const others = sessions.filter((s) => s.id !== current.id);

  return (
    <Card
      id={id}
      title={t("account.sessions.heading")}
      description={t("account.sessions.description")}
      actions={
        others.length > 0 ? (
          <Button
            variant="secondary"
            size="sm"
            loading={revokingOthers}
            loadingText={t("account.sessions.revokingOthers")}
            disabled={revoking !== null}
            onClick={() => void revokeOthers()}
          >
            {t("account.sessions.revokeOthers")}
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
        loadingText={t("account.sessions.loading")}
        failedTitle={t("account.sessions.loadFailed")}
        onRetry={() => void load.reload()}
      />

      {load.state === "ready" ? (
        <>
          <ul className={list.list} aria-label={t("account.sessions.listLabel")}>
            {sessions.map((session) => (
              <SessionRow
                key={session.id}
                session={session}
                isCurrent={session.id === current.id}
                revoking={revoking === session.id}
                disabled={revokingOthers || (revoking !== null && revoking !== session.id)}
                onRevoke={() => void revoke(session)}
              />
            ))}
          </ul>
          {others.length === 0 ? (
            <div className={styles.empty}>
              <p className={styles.emptyTitle}>{t("account.sessions.onlyThisDevice")}</p>
              <p className={styles.emptyText}>{t("account.sessions.onlyThisDeviceHint")}</p>
            </div>
          ) : null}
        </>
      ) : null}
    </Card>
  );
}

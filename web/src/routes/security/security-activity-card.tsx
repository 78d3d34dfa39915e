import type { AuthError, SecurityEvent, Session } from "@gatehouse/client";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { ActivityIcon } from "../../components/activity-icon";
import { CardListState } from "../../components/card-list-state";
import { useCurrentSession } from "../../components/current-session";
import { useCursorPages } from "../../components/cursor-pages";
import { Alert } from "../../components/ui/alert";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Select } from "../../components/ui/select";
import { errorMessage } from "../../lib/auth-errors";
import { mutations, queries, useQuery } from "../../lib/data";
import { CHANGE_TYPES, SECURITY_TYPES, SIGN_IN_TYPES } from "../../lib/event-types";
import { formatDateTime, formatRelativeTime } from "../../lib/format-time";
import { useDeviceLabel } from "../../lib/use-device-label";
import { useEventText } from "../../lib/use-event-text";
import activity from "../../components/activity-list.module.css";
import list from "../../components/card-list.module.css";

/** Events per page. */
const PAGE_SIZE = 20;

type Scope = "all" | "signIns" | "changes";
const SCOPES: Record<Scope, readonly string[]> = { all: SECURITY_TYPES, signIns: SIGN_IN_TYPES, changes: CHANGE_TYPES };

/** What the last sign-out did: put into words as shown, so a language chosen since applies to it too. */
type Notice = { variant: "success"; userAgent: string | null } | { variant: "error"; error: AuthError } | null;

/** The session a sign-in opened (sign_in.succeeded carries its id), when the event says. */
const sessionOf = (event: SecurityEvent): string | null =>
  event.type === "sign_in.succeeded" && typeof event.data.sessionId === "string" ? event.data.sessionId : null;

/**
 * The user's own security activity (GET /list-security-events): sign-ins, with the browser and system read from the
 * user agent and the IP address, refused sign-ins, sign-outs, and changes to the password, address, second factors
 * and passkeys; newest first, 20 at a time. A sign-in whose session is still open can be signed out from its row
 * (the session's token comes from the user's session list, matched by the id the event carries).
 */
export function SecurityActivityCard() {
  const { t, i18n } = useTranslation();
  const { session: current } = useCurrentSession();
  const text = useEventText();
  const deviceLabel = useDeviceLabel();
  const [scope, setScope] = useState<Scope>("all");
  const sessions = useQuery(queries.sessions());
  const open = new Map<string, Session>((sessions.data ?? []).map((session) => [session.id, session]));
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const noticeRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  const query = { type: SCOPES[scope].join(","), limit: PAGE_SIZE };
  const pages = useCursorPages<SecurityEvent>(
    (cursor) => queries.securityEvents(cursor ? { ...query, cursor } : query),
    scope,
    (events) => events.map(row),
  );
  const load = pages.first;

  async function signOut(session: Session) {
    setBusy(session.id);
    setNotice(null);
    const { error } = await mutations.revokeSession({ token: session.token });
    setBusy(null);
    setNotice(error ? { variant: "error", error } : { variant: "success", userAgent: session.userAgent });
  }

  function row(event: SecurityEvent) {
    const details = text.details(event);
    const sessionId = sessionOf(event);
    const isCurrent = sessionId !== null && sessionId === current.id;
    const session = sessionId && !isCurrent ? open.get(sessionId) : undefined;
    const device = event.userAgent ? deviceLabel(event.userAgent) : null;
    const when = formatRelativeTime(event.createdAt, i18n.language) ?? t("time.justNow");
    return (
      <li key={event.id} className={`${list.row} ${activity.row}`}>
        <ActivityIcon type={event.type} warn={event.actor === "other"} />
        <div className={activity.text}>
          <p className={activity.title}>
            <span>{text.label(event.type)}</span>
            {isCurrent ? <Badge variant="accent">{t("activity.security.thisDevice")}</Badge> : null}
            {session ? <Badge variant="success">{t("activity.security.stillSignedIn")}</Badge> : null}
            {event.actor === "other" ? <Badge variant="warning">{t("activity.security.byOther")}</Badge> : null}
          </p>
          {details.length > 0 ? (
            <ul className={activity.details}>
              {details.map((line, index) => (
                <li key={index}>{line}</li>
              ))}
            </ul>
          ) : null}
          <p className={activity.meta}>
            <time dateTime={event.createdAt} title={formatDateTime(event.createdAt, i18n.language)}>
              {when}
            </time>
            {device ? <span>{device}</span> : null}
            {event.ipAddress ? <span>{t("account.sessions.ipAddress", { ip: event.ipAddress })}</span> : null}
          </p>
        </div>
        {session ? (
          <div className={activity.action}>
            <Button
              variant="danger"
              size="sm"
              loading={busy === session.id}
              loadingText={t("account.sessions.revoking")}
              disabled={busy !== null && busy !== session.id}
              // The visible words first (a voice command names the button by them), then which sign-in it is.
              aria-label={`${t("activity.security.signOut")} (${t("activity.security.signOutWhich", { device: device ?? deviceLabel(session.userAgent), time: when })})`}
              onClick={() => void signOut(session)}
            >
              {t("activity.security.signOut")}
            </Button>
          </div>
        ) : null}
      </li>
    );
  }

  // The service keeps no audit log (events.enabled is false): the page goes without the card.
  if (load.state === "failed" && load.error.status === 404) return null;

  return (
    <Card id="security-activity" title={t("activity.security.heading")} description={t("activity.security.description")} flush>
      <div className={activity.controls}>
        <Select<Scope>
          className={activity.filter}
          size="sm"
          label={t("activity.show")}
          options={[
            { value: "all", label: t("activity.security.all") },
            { value: "signIns", label: t("activity.security.signIns") },
            { value: "changes", label: t("activity.security.changes") },
          ]}
          value={scope}
          onChange={setScope}
        />
      </div>
      {notice ? (
        <div className={list.notice}>
          <Alert ref={noticeRef} variant={notice.variant} focusable>
            {notice.variant === "error" ? (
              errorMessage(t, notice.error)
            ) : (
              <>
                {t("activity.security.signedOut", { device: deviceLabel(notice.userAgent) })}{" "}
                <Link to="/account">{t("activity.security.changePassword")}</Link>
              </>
            )}
          </Alert>
        </div>
      ) : null}
      <CardListState
        state={load.state}
        error={load.error ?? undefined}
        loadingText={t("activity.security.loading")}
        failedTitle={t("activity.security.loadFailed")}
        onRetry={() => void load.reload()}
      />
      {load.state === "ready" && load.data.events.length === 0 ? (
        <div className={activity.empty}>
          <p className={activity.emptyTitle}>{t("activity.security.empty")}</p>
        </div>
      ) : null}
      {load.state === "ready" && load.data.events.length > 0 ? (
        <>
          <ul className={list.list} aria-label={t("activity.security.listLabel")}>
            {pages.items}
          </ul>
          {pages.footer}
        </>
      ) : null}
    </Card>
  );
}

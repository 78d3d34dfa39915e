import type { AuditEvent, FullOrganization } from "@gatehouse/client";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ActivityIcon } from "../../components/activity-icon";
import { CardListState } from "../../components/card-list-state";
import { useCursorPages } from "../../components/cursor-pages";
import { Card } from "../../components/ui/card";
import { Select } from "../../components/ui/select";
import { queries } from "../../lib/data";
import { formatDateTime, formatRelativeTime } from "../../lib/format-time";
import { useEventText } from "../../lib/use-event-text";
import activity from "../../components/activity-list.module.css";
import list from "../../components/card-list.module.css";

/** Events per page. */
const PAGE_SIZE = 20;

type Scope = "all" | "members" | "invitations" | "organization";
const SCOPES: Record<Scope, string | undefined> = {
  all: undefined,
  members: "member.*",
  invitations: "invitation.*",
  organization: "organization.*",
};

/**
 * The organization's activity, for its owners and admins (GET /organization/list-events): changes to its settings,
 * members joining, leaving and changing roles, invitations sent and answered; newest first, 20 at a time. People
 * are named from the member list; someone who has left since is "a former member" (the log keeps ids only).
 */
export function ActivityCard({ organization }: { organization: FullOrganization }) {
  const { t, i18n } = useTranslation();
  const text = useEventText();
  const [scope, setScope] = useState<Scope>("all");
  const names = new Map(organization.members.map((member) => [member.userId, member.user.name]));
  const nameOf = (id: string) => names.get(id) ?? t("activity.organization.formerMember");

  const type = SCOPES[scope];
  const query = { limit: PAGE_SIZE, ...(type ? { type } : {}) };
  const pages = useCursorPages<AuditEvent>(
    (cursor) => queries.organizationEvents(organization.id, cursor ? { ...query, cursor } : query),
    `${organization.id}/${scope}`,
    (events) => events.map(row),
  );
  const load = pages.first;

  function row(event: AuditEvent) {
    const details = text.details(event);
    const when = formatRelativeTime(event.createdAt, i18n.language) ?? t("time.justNow");
    // Who did it, and to whom when that is someone else (an invitation's or a removal's subject).
    const actor = event.actorId ? nameOf(event.actorId) : null;
    const subject = event.userId && event.userId !== event.actorId ? nameOf(event.userId) : null;
    return (
      <li key={event.id} className={`${list.row} ${activity.row}`}>
        <ActivityIcon type={event.type} />
        <div className={activity.text}>
          <p className={activity.title}>{text.label(event.type)}</p>
          {details.length > 0 || subject ? (
            <ul className={activity.details}>
              {subject ? <li>{t("activity.organization.member", { name: subject })}</li> : null}
              {details.map((line, index) => (
                <li key={index}>{line}</li>
              ))}
            </ul>
          ) : null}
          <p className={activity.meta}>
            <time dateTime={event.createdAt} title={formatDateTime(event.createdAt, i18n.language)}>
              {when}
            </time>
            {actor ? <span>{t("activity.organization.by", { name: actor })}</span> : null}
          </p>
        </div>
      </li>
    );
  }

  // The service keeps no audit log (events.enabled is false): the page goes without the card.
  if (load.state === "failed" && load.error.status === 404) return null;

  return (
    <Card id="activity" title={t("activity.organization.heading")} description={t("activity.organization.description")} flush>
      <div className={activity.controls}>
        <Select<Scope>
          className={activity.filter}
          size="sm"
          label={t("activity.show")}
          options={[
            { value: "all", label: t("activity.organization.all") },
            { value: "members", label: t("activity.nouns.member") },
            { value: "invitations", label: t("activity.nouns.invitation") },
            { value: "organization", label: t("activity.organization.settings") },
          ]}
          value={scope}
          onChange={setScope}
        />
      </div>
      <CardListState
        state={load.state}
        error={load.error ?? undefined}
        loadingText={t("activity.organization.loading")}
        failedTitle={t("activity.organization.loadFailed")}
        onRetry={() => void load.reload()}
      />
      {load.state === "ready" && load.data.events.length === 0 ? (
        <div className={activity.empty}>
          <p className={activity.emptyTitle}>{t("activity.organization.empty")}</p>
        </div>
      ) : null}
      {load.state === "ready" && load.data.events.length > 0 ? (
        <>
          <ul className={list.list} aria-label={t("activity.organization.listLabel")}>
            {pages.items}
          </ul>
          {pages.footer}
        </>
      ) : null}
    </Card>
  );
}

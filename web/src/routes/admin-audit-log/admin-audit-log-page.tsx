import type { AdminAuditEvent, AdminListEventsQuery } from "@gatehouse/client";
import { Fragment, useId, useState, type ReactNode } from "react";
import { Link, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { AdminNav } from "../../components/admin-nav";
import { CardListState } from "../../components/card-list-state";
import { useCursorPages } from "../../components/cursor-pages";
import { PageHeading } from "../../components/page-heading";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Select } from "../../components/ui/select";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { queries, useQuery } from "../../lib/data";
import { EVENT_NOUNS, EVENT_TYPES, typeFilterOf } from "../../lib/event-types";
import { formatClock, formatDay } from "../../lib/format-time";
import { useDebounced } from "../../lib/use-debounced";
import { useDeviceLabel } from "../../lib/use-device-label";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useEventText } from "../../lib/use-event-text";
import list from "../../components/admin-list.module.css";
import button from "../../components/ui/button.module.css";
import styles from "./admin-audit-log-page.module.css";

/** Events per page. */
export const PAGE_SIZE = 50;

/** The filters, as the address keeps them (`/admin/audit-log?user=ada@example.com&type=user.*`). */
const FILTERS = ["user", "actor", "type", "organization", "ip", "from", "to"] as const;
type Filter = (typeof FILTERS)[number];
type Filters = Record<Filter, string>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function readFilters(params: URLSearchParams): Filters {
  const filters = Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? ""])) as Filters;
  filters.type = typeFilterOf(filters.type);
  return filters;
}

/** The start of a calendar day (YYYY-MM-DD) in the browser's time zone, as the service takes times; null if none. */
function startOfDay(day: string, plusDays = 0): string | null {
  if (!DAY.test(day)) return null;
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const start = new Date(year, month - 1, date + plusDays);
  return Number.isNaN(start.getTime()) ? null : start.toISOString();
}

/** An IP address with a break opportunity after each colon of an IPv6 one, so a narrow column wraps it there. */
function breakableAddress(address: string): ReactNode {
  const parts = address.split(":");
  return parts.map((part, index) => (
    <Fragment key={index}>
      {part}
      {index < parts.length - 1 ? (
        <>
          :<wbr />
        </>
      ) : null}
    </Fragment>
  ));
}

/**
 * Someone named in a filter: an address is looked up among the users (the log keeps ids, so an address finds the
 * user who has it now), anything else is taken as an id as it is. `missing`: nobody has that address.
 */
function useUserFilter(value: string): { id?: string; state: "none" | "loading" | "found" | "missing" } {
  const trimmed = value.trim();
  const byEmail = trimmed.includes("@");
  const found = useQuery(
    byEmail ? queries.adminUsers({ filterField: "email", filterValue: trimmed.toLowerCase(), filterOperator: "eq", limit: 1 }) : null,
  );
  if (!trimmed) return { state: "none" };
  if (!byEmail) return { id: trimmed, state: "found" };
  if (found.state === "loading") return { state: "loading" };
  const user = found.data?.users[0];
  return user ? { id: user.id, state: "found" } : { state: "missing" };
}

/** An organization named by its slug (looked up) or, when no organization has that slug, taken as its id. */
function useOrganizationFilter(value: string): { id?: string; state: "none" | "loading" | "found" } {
  const trimmed = value.trim();
  const found = useQuery(trimmed ? queries.adminOrganizations({ searchValue: trimmed, limit: 20 }) : null);
  if (!trimmed) return { state: "none" };
  if (found.state === "loading") return { state: "loading" };
  const bySlug = found.data?.organizations.find((organization) => organization.slug === trimmed.toLowerCase());
  return { id: bySlug?.id ?? trimmed, state: "found" };
}

/**
 * The administration console's audit log (/admin/audit-log): every security event, searched by the user it was
 * done to, who did it, its type, organization, IP address and days; newest first, 50 at a time with "Load more";
 * and the same search as a CSV file. The filters live in the address, so a search can be linked to (the user page
 * links to a user's events) and survives a reload.
 */
export function AdminAuditLogPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t("activity.admin.title"));
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const set = (name: Filter, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );

  // Typing pauses before the service is asked (the lookups of addresses and slugs too).
  const debounced = useDebounced(JSON.stringify(filters), 250);
  const settled = JSON.parse(debounced) as Filters;
  const typing = debounced !== JSON.stringify(filters);
  const user = useUserFilter(settled.user);
  const actor = useUserFilter(settled.actor);
  const organization = useOrganizationFilter(settled.organization);
  const from = startOfDay(settled.from);
  const to = startOfDay(settled.to, 1);
  const badRange = from !== null && to !== null && from >= to;

  const query: Omit<AdminListEventsQuery, "cursor"> = { limit: PAGE_SIZE };
  if (user.id) query.userId = user.id;
  if (actor.id) query.actorId = actor.id;
  if (organization.id) query.organizationId = organization.id;
  if (settled.type) query.type = settled.type;
  if (settled.ip.trim()) query.ip = settled.ip.trim();
  if (from) query.from = from;
  if (to) query.to = to;
  // Nothing to ask while a name is looked up, or when it names nobody: the list says why instead.
  const waiting = [user, actor, organization].some((filter) => filter.state === "loading");
  const impossible = user.state === "missing" || actor.state === "missing" || badRange;

  const text = useEventText();
  const deviceLabel = useDeviceLabel();
  const pages = useCursorPages<AdminAuditEvent>(
    (cursor) => queries.adminEvents(cursor ? { ...query, cursor } : query),
    JSON.stringify(query),
    (events) => events.map(row),
  );

  const { limit: _limit, ...exported } = query;
  const exportUrl = authClient.$url("/admin/export-events", { query: exported });
  const filtered = FILTERS.some((name) => filters[name] !== "");
  const noun = filters.type.split(".")[0] ?? "";
  const typeChoice = filters.type.endsWith(".*") ? "" : filters.type;

  const load = pages.first;
  const ready = !waiting && !impossible && load.state === "ready" ? load.data : null;

  // Plain functions, not components: a row keeps its state (an open "Data") while the page draws again.
  function row(event: AdminAuditEvent) {
    const details = text.details(event);
    return (
      <tr role="row" key={event.id}>
        <td role="cell">
          <span className={styles.eventLabel}>{text.label(event.type)}</span>
          {details.length > 0 ? (
            <ul className={styles.details}>
              {details.map((line, index) => (
                <li key={index}>{line}</li>
              ))}
            </ul>
          ) : null}
          {event.organizationId ? (
            <span className={styles.organization}>
              {t("activity.admin.inOrganization")}{" "}
              <Link to={`/admin/organizations/${encodeURIComponent(event.organizationId)}`}>{event.organizationId}</Link>
            </span>
          ) : null}
          <details className={styles.raw}>
            <summary>{t("activity.admin.rawData")}</summary>
            <pre>{JSON.stringify(event.data, null, 2)}</pre>
          </details>
        </td>
        <td role="cell">
          <span className={list.cellLabel} aria-hidden="true">
            {t("activity.admin.columnTime")}
          </span>
          <time className={styles.time} dateTime={event.createdAt}>
            <span>{formatDay(event.createdAt, i18n.language)}</span> <span>{formatClock(event.createdAt, i18n.language)}</span>
          </time>
        </td>
        <td role="cell">
          <span className={list.cellLabel} aria-hidden="true">
            {t("activity.admin.columnActor")}
          </span>
          {party(event.actorId, event.actor, t("activity.admin.noActor"))}
        </td>
        <td role="cell">
          <span className={list.cellLabel} aria-hidden="true">
            {t("activity.admin.columnUser")}
          </span>
          {party(event.userId, event.user, "—")}
        </td>
        <td role="cell">
          <span className={list.cellLabel} aria-hidden="true">
            {t("activity.admin.columnSource")}
          </span>
          <span className={styles.source}>
            {event.ipAddress ? <span className={styles.ip}>{breakableAddress(event.ipAddress)}</span> : null}
            {event.userAgent ? (
              <span className={list.secondary} title={event.userAgent}>
                {deviceLabel(event.userAgent)}
              </span>
            ) : null}
            {!event.ipAddress && !event.userAgent ? <span className={list.secondary}>—</span> : null}
          </span>
        </td>
      </tr>
    );
  }

  function party(id: string | null, who: AdminAuditEvent["actor"], none: string) {
    if (!id) return <span className={list.secondary}>{none}</span>;
    if (!who) {
      // The user is gone since: the log keeps their id.
      return (
        <span className={styles.party}>
          <span>{t("activity.admin.deletedUser")}</span>
          <span className={`${list.secondary} ${styles.id}`}>{id}</span>
        </span>
      );
    }
    return (
      <span className={styles.party}>
        <Link to={`/admin/users/${encodeURIComponent(who.id)}`}>{who.name}</Link>
        {/* A long address breaks before its "@" first. */}
        <span className={list.secondary}>
          {who.email.split("@").map((part, index) => (
            <Fragment key={index}>
              {index > 0 ? (
                <>
                  <wbr />@
                </>
              ) : null}
              {part}
            </Fragment>
          ))}
        </span>
      </span>
    );
  }

  const filterId = useId();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const active = FILTERS.filter((name) => filters[name] !== "").length;
  return (
    <div className={styles.page}>
      <AdminNav />
      <div className={styles.top}>
        <PageHeading lead={t("activity.admin.lead")}>{t("activity.admin.title")}</PageHeading>
        {/*
          The service answers the file as an attachment: the browser saves it and the page stays. While a filter is
          typed or looked up, or names nobody, the file would not be the search shown: the button waits.
        */}
        {waiting || impossible || typing ? (
          <Button variant="secondary" className={styles.export} disabled>
            {t("activity.admin.export")}
          </Button>
        ) : (
          <a className={`${button.button} ${button.secondary} ${button.md} ${button.link} ${styles.export}`} href={exportUrl} download>
            {t("activity.admin.export")}
          </a>
        )}
      </div>

      <Card flush>
        {/* On phones the filters fold away behind a button, so the log is not a screen below them. */}
        <div className={styles.filterBar}>
          <Button
            variant="secondary"
            size="sm"
            aria-expanded={filtersOpen}
            aria-controls={filterId}
            onClick={() => setFiltersOpen((open) => !open)}
          >
            {active > 0 ? t("activity.admin.filtersActive", { count: active }) : t("activity.admin.filters")}
          </Button>
        </div>
        <form
          id={filterId}
          className={`${list.controls} ${styles.filters} ${filtersOpen ? styles.open : ""}`}
          aria-label={t("activity.admin.filters")}
          role="search"
          onSubmit={(event) => event.preventDefault()}
        >
          <Select
            className={list.control}
            label={t("activity.admin.category")}
            options={[
              { value: "", label: t("activity.admin.allCategories") },
              ...EVENT_NOUNS.map((value) => ({ value: `${value}.*`, label: t(`activity.nouns.${value}`) })),
            ]}
            value={filters.type ? `${noun}.*` : ""}
            onChange={(value) => set("type", value)}
          />
          <Select
            className={list.control}
            label={t("activity.admin.type")}
            disabled={!filters.type}
            options={[
              { value: "", label: filters.type ? t("activity.admin.allOfCategory") : t("activity.admin.allTypes") },
              ...EVENT_TYPES.filter((type) => type.startsWith(`${noun}.`)).map((type) => ({ value: type, label: text.label(type) })),
            ]}
            value={typeChoice}
            onChange={(value) => set("type", value || `${noun}.*`)}
          />
          <TextField
            className={list.control}
            label={t("activity.admin.user")}
            placeholder={t("activity.admin.userHint")}
            value={filters.user}
            onChange={(event) => set("user", event.target.value)}
            error={user.state === "missing" && filters.user === settled.user ? t("activity.admin.noSuchUser") : undefined}
            autoComplete="off"
            spellCheck={false}
          />
          <TextField
            className={list.control}
            label={t("activity.admin.actor")}
            placeholder={t("activity.admin.userHint")}
            value={filters.actor}
            onChange={(event) => set("actor", event.target.value)}
            error={actor.state === "missing" && filters.actor === settled.actor ? t("activity.admin.noSuchUser") : undefined}
            autoComplete="off"
            spellCheck={false}
          />
          <TextField
            className={list.control}
            label={t("activity.admin.organization")}
            placeholder={t("activity.admin.organizationHint")}
            value={filters.organization}
            onChange={(event) => set("organization", event.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
          <TextField
            className={list.control}
            label={t("activity.admin.ip")}
            value={filters.ip}
            onChange={(event) => set("ip", event.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
          <TextField
            className={list.control}
            type="date"
            label={t("activity.admin.from")}
            value={filters.from}
            max={filters.to || undefined}
            onChange={(event) => set("from", event.target.value)}
          />
          <TextField
            className={list.control}
            type="date"
            label={t("activity.admin.to")}
            value={filters.to}
            min={filters.from || undefined}
            onChange={(event) => set("to", event.target.value)}
            error={badRange ? t("activity.admin.badRange") : undefined}
          />
          {filtered ? (
            <div className={styles.clear}>
              <Button variant="ghost" size="sm" onClick={() => setParams(new URLSearchParams(), { replace: true })}>
                {t("activity.admin.clear")}
              </Button>
            </div>
          ) : null}
        </form>

        {impossible ? (
          <div className={list.empty}>
            <p className={list.emptyTitle}>{t("activity.admin.empty")}</p>
            <p className={list.emptyText}>{badRange ? t("activity.admin.badRange") : t("activity.admin.noSuchUser")}</p>
          </div>
        ) : waiting || load.state !== "ready" ? (
          <div className={list.listState}>
            <CardListState
              state={waiting ? "loading" : load.state}
              error={load.error ?? undefined}
              loadingText={t("activity.admin.loading")}
              failedTitle={t("activity.admin.loadFailed")}
              onRetry={() => void load.reload()}
            />
          </div>
        ) : null}

        {ready && ready.events.length === 0 ? (
          <div className={list.empty}>
            <p className={list.emptyTitle}>{t("activity.admin.empty")}</p>
            <p className={list.emptyText}>{filtered ? t("activity.admin.emptyFiltered") : t("activity.admin.emptyHint")}</p>
          </div>
        ) : null}

        {ready && ready.events.length > 0 ? (
          <>
            {/* The roles are spelled out: on phones the rows are laid out as blocks, which would drop a table's own. */}
            <table role="table" className={`${list.table} ${styles.table}`} aria-label={t("activity.admin.listLabel")}>
              <thead role="rowgroup">
                <tr role="row">
                  <th role="columnheader" scope="col">
                    {t("activity.admin.columnEvent")}
                  </th>
                  <th role="columnheader" scope="col">
                    {t("activity.admin.columnTime")}
                  </th>
                  <th role="columnheader" scope="col">
                    {t("activity.admin.columnActor")}
                  </th>
                  <th role="columnheader" scope="col">
                    {t("activity.admin.columnUser")}
                  </th>
                  <th role="columnheader" scope="col">
                    {t("activity.admin.columnSource")}
                  </th>
                </tr>
              </thead>
              <tbody role="rowgroup">{pages.items}</tbody>
            </table>
            {pages.footer}
          </>
        ) : null}
      </Card>
    </div>
  );
}

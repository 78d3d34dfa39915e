import type { WebhookDelivery, WebhookEndpoint } from "@gatehouse/client";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import { AdminNav } from "../../components/admin-nav";
import { CardListState } from "../../components/card-list-state";
import { useCursorPages } from "../../components/cursor-pages";
import { PageHeading } from "../../components/page-heading";
import { Alert } from "../../components/ui/alert";
import { Badge, type BadgeProps } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { Select } from "../../components/ui/select";
import { errorMessage } from "../../lib/auth-errors";
import { mutations, queries, refresh, keys, useQuery } from "../../lib/data";
import { formatClock, formatDate, formatDateTime, formatDay } from "../../lib/format-time";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useEventText } from "../../lib/use-event-text";
import { useEventFilterText } from "./event-filter";
import { SecretReveal } from "./secret-reveal";
import { UrlText } from "./url-text";
import list from "../../components/admin-list.module.css";
import styles from "./admin-webhooks.module.css";

/** Deliveries per page. */
export const DELIVERY_PAGE = 25;

type Status = WebhookDelivery["status"];
type StatusFilter = "" | Status;

const BADGES: Record<Status, BadgeProps["variant"]> = {
  delivered: "success",
  pending: "warning",
  sending: "accent",
  failed: "danger",
};

type Notice = { variant: "success" | "error"; text: string } | null;

/**
 * One webhook endpoint (/admin/webhooks/:id): its settings (on or off, a new secret, deletion; read-only for the
 * configuration file's) and its delivery log, newest first, with each delivery's status, tries and last answer,
 * and a button to send one again.
 */
export function AdminWebhookPage() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const load = useQuery(queries.adminWebhookEndpoints());
  const endpoint = load.data?.endpoints.find((e) => e.id === id);
  useDocumentTitle(endpoint?.url ?? t("admin.webhooks.title"));

  const back = (
    <Link className={styles.back} to="/admin/webhooks">
      ← {t("admin.webhooks.endpoint.back")}
    </Link>
  );
  if (load.state !== "ready" || !endpoint) {
    return (
      <div className={styles.page}>
        <AdminNav />
        {back}
        {load.state === "ready" ? (
          <Alert variant="error">{t("serverErrors.WEBHOOK_ENDPOINT_NOT_FOUND")}</Alert>
        ) : (
          <CardListState
            state={load.state}
            error={load.error ?? undefined}
            loadingText={t("admin.webhooks.endpoint.loading")}
            failedTitle={t("admin.webhooks.loadFailed")}
            onRetry={() => void load.reload()}
          />
        )}
      </div>
    );
  }
  return (
    <div className={styles.page}>
      <AdminNav />
      {back}
      <PageHeading lead={endpoint.description ?? undefined}>
        <span className={styles.url}>
          <UrlText url={endpoint.url} />
        </span>
      </PageHeading>
      <SettingsCard endpoint={endpoint} />
      <DeliveriesCard endpoint={endpoint} />
    </div>
  );
}

function SettingsCard({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const filterText = useEventFilterText();
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<"toggle" | "rotate" | "delete" | null>(null);
  const [asking, setAsking] = useState<"rotate" | "delete" | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);

  async function toggle() {
    setBusy("toggle");
    setNotice(null);
    const { error } = await mutations.updateWebhookEndpoint({ endpointId: endpoint.id, enabled: !endpoint.enabled });
    setBusy(null);
    setNotice(
      error
        ? { variant: "error", text: errorMessage(t, error) }
        : { variant: "success", text: endpoint.enabled ? t("admin.webhooks.endpoint.turnedOff") : t("admin.webhooks.endpoint.turnedOn") },
    );
  }

  async function confirm() {
    setBusy(asking);
    setDialogError(null);
    setNotice(null);
    if (asking === "rotate") {
      const { data, error } = await mutations.rotateWebhookSecret({ endpointId: endpoint.id });
      setBusy(null);
      if (error) return setDialogError(errorMessage(t, error));
      setAsking(null);
      setSecret(data.secret);
    } else if (asking === "delete") {
      const { error } = await mutations.deleteWebhookEndpoint({ endpointId: endpoint.id });
      setBusy(null);
      if (error) return setDialogError(errorMessage(t, error));
      setAsking(null);
      void navigate("/admin/webhooks", { state: { deleted: { id: endpoint.id, url: endpoint.url } } });
    }
  }

  const events = filterText(endpoint.events);
  return (
    <Card
      title={t("admin.webhooks.endpoint.settings")}
      actions={
        endpoint.enabled ? <Badge variant="success">{t("admin.webhooks.on")}</Badge> : <Badge>{t("admin.webhooks.offBadge")}</Badge>
      }
      footer={
        endpoint.readOnly || secret ? undefined : (
          <div className={styles.buttons}>
            <Button variant="secondary" size="sm" loading={busy === "toggle"} onClick={() => void toggle()}>
              {endpoint.enabled ? t("admin.webhooks.endpoint.turnOff") : t("admin.webhooks.endpoint.turnOn")}
            </Button>
            <Button variant="secondary" size="sm" onClick={() => setAsking("rotate")}>
              {t("admin.webhooks.endpoint.rotate")}
            </Button>
            <Button variant="danger" size="sm" className={styles.push} onClick={() => setAsking("delete")}>
              {t("admin.webhooks.endpoint.delete")}
            </Button>
          </div>
        )
      }
    >
      <div className={styles.settings}>
        {notice ? (
          <Alert variant={notice.variant}>
            <span role={notice.variant === "success" ? "status" : undefined}>{notice.text}</span>
          </Alert>
        ) : null}
        {secret ? <SecretReveal secret={secret} url={endpoint.url} onDone={() => setSecret(null)} /> : null}
        {endpoint.readOnly ? <Alert variant="info">{t("admin.webhooks.endpoint.fromFileNote")}</Alert> : null}
        <dl className={styles.facts}>
          <div>
            <dt>{t("admin.webhooks.columnEvents")}</dt>
            <dd>
              <ul className={styles.eventList}>
                {events.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </dd>
          </div>
          <div>
            <dt>{t("admin.webhooks.endpoint.source")}</dt>
            <dd>
              {endpoint.readOnly
                ? t("admin.webhooks.fromFile")
                : endpoint.createdAt
                  ? t("admin.webhooks.endpoint.madeOn", { date: formatDate(endpoint.createdAt, i18n.language) })
                  : t("admin.webhooks.endpoint.madeHere")}
            </dd>
          </div>
        </dl>
      </div>
      <ConfirmDialog
        open={asking !== null}
        title={asking === "rotate" ? t("admin.webhooks.endpoint.rotateQuestion") : t("admin.webhooks.endpoint.deleteQuestion")}
        confirmLabel={asking === "rotate" ? t("admin.webhooks.endpoint.rotateConfirm") : t("admin.webhooks.endpoint.delete")}
        cancelLabel={t("admin.webhooks.create.cancel")}
        variant={asking === "rotate" ? "primary" : "destructive"}
        loading={busy === "rotate" || busy === "delete"}
        loadingText={asking === "rotate" ? t("admin.webhooks.endpoint.rotating") : t("admin.webhooks.endpoint.deleting")}
        message={dialogError ? <Alert variant="error">{dialogError}</Alert> : undefined}
        onConfirm={() => void confirm()}
        onClose={() => {
          setAsking(null);
          setDialogError(null);
        }}
      >
        {asking === "rotate" ? t("admin.webhooks.endpoint.rotateText") : t("admin.webhooks.endpoint.deleteText", { url: endpoint.url })}
      </ConfirmDialog>
    </Card>
  );
}

function DeliveriesCard({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t, i18n } = useTranslation();
  const text = useEventText();
  const [status, setStatus] = useState<StatusFilter>("");
  const [notice, setNotice] = useState<Notice>(null);
  const [resending, setResending] = useState<string | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const query = { endpointId: endpoint.id, limit: DELIVERY_PAGE, ...(status ? { status } : {}) };
  const pages = useCursorPages<WebhookDelivery>(
    (cursor) => queries.adminWebhookDeliveries(cursor ? { ...query, cursor } : query),
    JSON.stringify(query),
    (deliveries) => deliveries.map(row),
  );
  const load = pages.first;

  async function resend(delivery: WebhookDelivery) {
    setResending(delivery.id);
    setNotice(null);
    const { error } = await mutations.resendWebhookDelivery({ deliveryId: delivery.id });
    setResending(null);
    setNotice(error ? { variant: "error", text: errorMessage(t, error) } : { variant: "success", text: t("admin.webhooks.deliveries.resent") });
  }

  async function reload() {
    setRefreshing(true);
    await refresh(`${keys.adminWebhooks}deliveries/`);
    setRefreshing(false);
  }

  function row(delivery: WebhookDelivery) {
    const answered = delivery.responseStatus !== null;
    return (
      <tr role="row" key={delivery.id}>
        <td role="cell">
          <span className={styles.eventLabel}>{text.label(delivery.eventType)}</span>
          <code className={`${list.secondary} ${styles.id}`}>{delivery.eventId}</code>
        </td>
        <td role="cell">
          <span className={list.cellLabel} aria-hidden="true">
            {t("admin.webhooks.deliveries.columnTime")}
          </span>
          <time className={styles.time} dateTime={delivery.createdAt} title={formatDateTime(delivery.createdAt, i18n.language)}>
            <span>{formatDay(delivery.createdAt, i18n.language)}</span> <span>{formatClock(delivery.createdAt, i18n.language)}</span>
          </time>
        </td>
        <td role="cell">
          <span className={list.cellLabel} aria-hidden="true">
            {t("admin.webhooks.deliveries.columnStatus")}
          </span>
          <span className={styles.status}>
            <Badge variant={BADGES[delivery.status]}>{t(`admin.webhooks.deliveries.${delivery.status}`)}</Badge>
            <span className={list.secondary}>{t("admin.webhooks.deliveries.tries", { count: delivery.attempts })}</span>
            {delivery.status === "pending" && delivery.nextAttemptAt ? (
              <span className={list.secondary}>
                {t("admin.webhooks.deliveries.nextTry", { time: formatClock(delivery.nextAttemptAt, i18n.language) })}
              </span>
            ) : null}
          </span>
        </td>
        <td role="cell">
          <span className={list.cellLabel} aria-hidden="true">
            {t("admin.webhooks.deliveries.columnAnswer")}
          </span>
          <span className={styles.answer}>
            {answered ? (
              <span className={styles.httpStatus}>{t("admin.webhooks.deliveries.httpStatus", { status: delivery.responseStatus ?? 0 })}</span>
            ) : delivery.attempts === 0 ? (
              <span className={list.secondary}>—</span>
            ) : (
              <span className={list.secondary}>{t("admin.webhooks.deliveries.noAnswer")}</span>
            )}
            {delivery.error && !(answered && delivery.error.startsWith("answered ")) ? <span className={styles.error}>{delivery.error}</span> : null}
            {delivery.responseBody ? (
              <details className={styles.raw}>
                <summary>{t("admin.webhooks.deliveries.body")}</summary>
                <pre>{delivery.responseBody}</pre>
              </details>
            ) : null}
          </span>
        </td>
        <td role="cell" className={styles.actionCell}>
          <Button
            variant="secondary"
            size="sm"
            disabled={delivery.status === "sending" || (resending !== null && resending !== delivery.id)}
            loading={resending === delivery.id}
            loadingText={t("admin.webhooks.deliveries.resending")}
            aria-label={`${t("admin.webhooks.deliveries.resend")}: ${text.label(delivery.eventType)}, ${formatDateTime(delivery.createdAt, i18n.language)}`}
            onClick={() => void resend(delivery)}
          >
            {t("admin.webhooks.deliveries.resend")}
          </Button>
        </td>
      </tr>
    );
  }

  const ready = load.state === "ready" ? load.data : null;
  return (
    <Card
      title={t("admin.webhooks.deliveries.title")}
      description={t("admin.webhooks.deliveries.description")}
      flush
      actions={
        <Button variant="secondary" size="sm" loading={refreshing} onClick={() => void reload()}>
          {t("admin.webhooks.deliveries.refresh")}
        </Button>
      }
    >
      <div className={list.controls}>
        <Select<StatusFilter>
          className={`${list.control} ${styles.statusFilter}`}
          label={t("admin.webhooks.deliveries.show")}
          options={[
            { value: "", label: t("admin.webhooks.deliveries.all") },
            { value: "delivered", label: t("admin.webhooks.deliveries.delivered") },
            { value: "pending", label: t("admin.webhooks.deliveries.pending") },
            { value: "failed", label: t("admin.webhooks.deliveries.failed") },
          ]}
          value={status}
          onChange={setStatus}
        />
      </div>
      {notice ? (
        <div className={styles.cardNotice}>
          <Alert variant={notice.variant}>
            <span role={notice.variant === "success" ? "status" : undefined}>{notice.text}</span>
          </Alert>
        </div>
      ) : null}
      {load.state !== "ready" ? (
        <div className={list.listState}>
          <CardListState
            state={load.state}
            error={load.error ?? undefined}
            loadingText={t("admin.webhooks.deliveries.loading")}
            failedTitle={t("admin.webhooks.deliveries.loadFailed")}
            onRetry={() => void load.reload()}
          />
        </div>
      ) : null}
      {ready && ready.events.length === 0 ? (
        <div className={list.empty}>
          <p className={list.emptyTitle}>{status ? t("admin.webhooks.deliveries.noneFiltered") : t("admin.webhooks.deliveries.none")}</p>
          {status ? null : <p className={list.emptyText}>{t("admin.webhooks.deliveries.noneHint")}</p>}
        </div>
      ) : null}
      {ready && ready.events.length > 0 ? (
        <>
          <table role="table" className={`${list.table} ${styles.deliveries}`} aria-label={t("admin.webhooks.deliveries.listLabel")}>
            <thead role="rowgroup">
              <tr role="row">
                <th role="columnheader" scope="col">
                  {t("admin.webhooks.deliveries.columnEvent")}
                </th>
                <th role="columnheader" scope="col">
                  {t("admin.webhooks.deliveries.columnTime")}
                </th>
                <th role="columnheader" scope="col">
                  {t("admin.webhooks.deliveries.columnStatus")}
                </th>
                <th role="columnheader" scope="col">
                  {t("admin.webhooks.deliveries.columnAnswer")}
                </th>
                <th role="columnheader" scope="col">
                  <span className="visually-hidden">{t("admin.webhooks.deliveries.columnActions")}</span>
                </th>
              </tr>
            </thead>
            <tbody role="rowgroup">{pages.items}</tbody>
          </table>
          {pages.footer}
        </>
      ) : null}
    </Card>
  );
}

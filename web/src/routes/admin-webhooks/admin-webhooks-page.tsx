import type { WebhookEndpoint } from "@gatehouse/client";
import { useRef, useState, type FormEvent } from "react";
import { Link, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { AdminNav } from "../../components/admin-nav";
import { CardListState } from "../../components/card-list-state";
import { PageHeading } from "../../components/page-heading";
import { Alert } from "../../components/ui/alert";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { TextField } from "../../components/ui/text-field";
import { errorMessage } from "../../lib/auth-errors";
import { mutations, queries, useQuery } from "../../lib/data";
import { useDocumentTitle } from "../../lib/use-document-title";
import { EVERY_EVENT, patternsOf, useEventFilterText, type EventChoice } from "./event-filter";
import { EventPicker } from "./event-picker";
import { SecretReveal } from "./secret-reveal";
import { UrlText } from "./url-text";
import list from "../../components/admin-list.module.css";
import styles from "./admin-webhooks.module.css";

/** Events named in a row of the list before "and N more". */
const SHOWN_EVENTS = 3;

/** Why a URL cannot be an endpoint's, before the service is asked (it checks again, and its private-address rule). */
export function urlProblem(value: string): "required" | "invalid" | null {
  const url = value.trim();
  if (!url) return "required";
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "invalid";
    if (parsed.username || parsed.password || url.includes("#")) return "invalid";
  } catch {
    return "invalid";
  }
  return null;
}

/**
 * The administration console's webhooks (/admin/webhooks): every endpoint, the configuration file's (read-only)
 * and those made here, with the events each gets and whether it is on; a form to add one, which shows its signing
 * secret once. Each endpoint's own page has its settings and delivery log.
 */
export function AdminWebhooksPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("admin.webhooks.title"));
  const load = useQuery(queries.adminWebhookEndpoints());
  const [adding, setAdding] = useState(false);
  const [made, setMade] = useState<{ endpoint: WebhookEndpoint; secret: string } | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const off = load.state === "failed" && load.error.status === 404;
  // An endpoint's page sends the user back here once it deleted the endpoint; until the list is read again, the
  // answer cached before still names it, so it is left out.
  const deleted = (useLocation().state as { deleted?: { id: string; url: string } } | null)?.deleted;

  return (
    <div className={styles.page}>
      <AdminNav />
      <div className={styles.top}>
        <PageHeading lead={t("admin.webhooks.lead")}>{t("admin.webhooks.title")}</PageHeading>
        {!adding && !made && !off ? (
          <Button ref={addButton} className={styles.topAction} onClick={() => setAdding(true)}>
            {t("admin.webhooks.add")}
          </Button>
        ) : null}
      </div>

      {deleted && !made && !adding ? (
        <Alert variant="success">
          <span role="status">{t("admin.webhooks.deleted", { url: deleted.url })}</span>
        </Alert>
      ) : null}

      {made ? (
        <Card title={t("admin.webhooks.created")} description={made.endpoint.url}>
          <SecretReveal secret={made.secret} url={made.endpoint.url} onDone={() => setMade(null)} />
        </Card>
      ) : null}

      {adding ? (
        <CreateEndpointCard
          onCancel={() => {
            setAdding(false);
            requestAnimationFrame(() => addButton.current?.focus());
          }}
          onMade={(result) => {
            setAdding(false);
            setMade(result);
          }}
        />
      ) : null}

      <Card flush>
        {off ? (
          <div className={list.empty}>
            <p className={list.emptyTitle}>{t("admin.webhooks.off")}</p>
            <p className={list.emptyText}>{t("admin.webhooks.offHint")}</p>
          </div>
        ) : load.state !== "ready" ? (
          <div className={list.listState}>
            <CardListState
              state={load.state}
              error={load.error ?? undefined}
              loadingText={t("admin.webhooks.loading")}
              failedTitle={t("admin.webhooks.loadFailed")}
              onRetry={() => void load.reload()}
            />
          </div>
        ) : load.data.endpoints.filter((e) => e.id !== deleted?.id).length === 0 ? (
          <div className={list.empty}>
            <p className={list.emptyTitle}>{t("admin.webhooks.none")}</p>
            <p className={list.emptyText}>{t("admin.webhooks.noneHint")}</p>
          </div>
        ) : (
          <EndpointTable endpoints={load.data.endpoints.filter((e) => e.id !== deleted?.id)} />
        )}
      </Card>
    </div>
  );
}

function EndpointTable({ endpoints }: { endpoints: WebhookEndpoint[] }) {
  const { t } = useTranslation();
  const filterText = useEventFilterText();
  return (
    // The roles are spelled out: on phones the rows are laid out as blocks, which would drop a table's own.
    <table role="table" className={list.table} aria-label={t("admin.webhooks.listLabel")}>
      <thead role="rowgroup">
        <tr role="row">
          <th role="columnheader" scope="col">
            {t("admin.webhooks.columnEndpoint")}
          </th>
          <th role="columnheader" scope="col">
            {t("admin.webhooks.columnEvents")}
          </th>
          <th role="columnheader" scope="col">
            {t("admin.webhooks.columnStatus")}
          </th>
        </tr>
      </thead>
      <tbody role="rowgroup">
        {endpoints.map((endpoint) => {
          const events = filterText(endpoint.events);
          const more = events.length - SHOWN_EVENTS;
          return (
            <tr role="row" key={endpoint.id}>
              <td role="cell">
                <Link className={`${list.primaryLink} ${styles.url}`} to={`/admin/webhooks/${encodeURIComponent(endpoint.id)}`}>
                  <UrlText url={endpoint.url} />
                </Link>
                {endpoint.description ? <span className={list.secondary}>{endpoint.description}</span> : null}
              </td>
              <td role="cell">
                <span className={list.cellLabel} aria-hidden="true">
                  {t("admin.webhooks.columnEvents")}
                </span>
                <span>
                  {events.slice(0, SHOWN_EVENTS).join(", ")}
                  {more > 0 ? ` ${t("admin.webhooks.andMore", { count: more })}` : null}
                </span>
              </td>
              <td role="cell">
                <span className={list.cellLabel} aria-hidden="true">
                  {t("admin.webhooks.columnStatus")}
                </span>
                <span className={styles.badges}>
                  {endpoint.enabled ? <Badge variant="success">{t("admin.webhooks.on")}</Badge> : <Badge>{t("admin.webhooks.offBadge")}</Badge>}
                  {endpoint.readOnly ? <Badge variant="accent">{t("admin.webhooks.fromFile")}</Badge> : null}
                </span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

interface CreateEndpointCardProps {
  onCancel(): void;
  onMade(result: { endpoint: WebhookEndpoint; secret: string }): void;
}

/** The new endpoint's URL, description and events; sent to the service, which answers its secret once. */
function CreateEndpointCard({ onCancel, onMade }: CreateEndpointCardProps) {
  const { t } = useTranslation();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<EventChoice>(EVERY_EVENT);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<{ field: "url" | "form"; text: string } | null>(null);
  const urlRef = useRef<HTMLInputElement>(null);

  const problem = urlProblem(url);
  const patterns = patternsOf(events);
  const noneChosen = patterns !== null && patterns.length === 0;
  const urlError = tried && problem ? t(problem === "required" ? "admin.webhooks.create.urlRequired" : "admin.webhooks.create.urlInvalid") : undefined;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    setServerError(null);
    if (problem || noneChosen) {
      if (problem) urlRef.current?.focus();
      return;
    }
    setBusy(true);
    const { data, error } = await mutations.createWebhookEndpoint({
      url: url.trim(),
      events: patterns,
      description: description.trim() || null,
    });
    setBusy(false);
    if (error) {
      const onUrl = error.code === "WEBHOOK_URL_POINTS_TO_A_PRIVATE_ADDRESS" || (error.issues ?? []).some((issue) => issue.path === "body.url");
      setServerError({
        field: onUrl ? "url" : "form",
        text: error.code === "VALIDATION_ERROR" && onUrl ? t("admin.webhooks.create.urlInvalid") : errorMessage(t, error),
      });
      if (onUrl) urlRef.current?.focus();
      return;
    }
    onMade(data);
  }

  return (
    <Card title={t("admin.webhooks.create.title")} description={t("admin.webhooks.create.description")}>
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        {serverError?.field === "form" ? <Alert variant="error">{serverError.text}</Alert> : null}
        <TextField
          ref={urlRef}
          label={t("admin.webhooks.create.url")}
          hint={t("admin.webhooks.create.urlHint")}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          required
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          error={serverError?.field === "url" ? serverError.text : urlError}
        />
        <TextField
          label={t("admin.webhooks.create.descriptionLabel")}
          labelSuffix={t("admin.webhooks.create.optional")}
          hint={t("admin.webhooks.create.descriptionHint")}
          maxLength={200}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <EventPicker value={events} onChange={setEvents} error={tried && noneChosen ? t("admin.webhooks.create.chooseOne") : undefined} />
        <div className={styles.buttons}>
          <Button type="submit" loading={busy} loadingText={t("admin.webhooks.create.submitting")}>
            {t("admin.webhooks.create.submit")}
          </Button>
          <Button variant="ghost" onClick={onCancel} disabled={busy}>
            {t("admin.webhooks.create.cancel")}
          </Button>
        </div>
      </form>
    </Card>
  );
}

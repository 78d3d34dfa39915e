import type { OidcClient } from "@gatehouse/client";
import { useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { AdminNav } from "../../components/admin-nav";
import { CardListState } from "../../components/card-list-state";
import { PageHeading } from "../../components/page-heading";
import { Alert } from "../../components/ui/alert";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { mutations, queries, useQuery } from "../../lib/data";
import { formatDate } from "../../lib/format-time";
import { useDocumentTitle } from "../../lib/use-document-title";
import { ClientForm } from "./client-form";
import { createBody, newDraft } from "./client-draft";
import { providerIsOff } from "./provider-off";
import { SecretReveal } from "./secret-reveal";
import list from "../../components/admin-list.module.css";
import styles from "./admin-applications.module.css";

/**
 * The administration console's applications (/admin/applications): every client of the OpenID Provider, the
 * configuration file's (read-only) and those added here or by dynamic registration, with its type, whether users
 * are asked for their consent, and when it was added; a form to add one, which shows its secret once. Each client's
 * own page has its settings. With no OpenID Provider the page says so.
 */
export function AdminApplicationsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("admin.applications.title"));
  const load = useQuery(queries.adminOauthClients());
  const [adding, setAdding] = useState(false);
  const [made, setMade] = useState<{ client: OidcClient; secret: string | null } | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const off = load.state === "failed" && providerIsOff(load.error);
  // A client's page sends the user back here once it deleted the client; until the list is read again, the answer
  // cached before still names it, so it is left out.
  const deleted = (useLocation().state as { deleted?: { clientId: string; name: string } } | null)?.deleted;
  const clients = load.data?.clients.filter((client) => client.clientId !== deleted?.clientId) ?? [];

  return (
    <div className={styles.page}>
      <AdminNav />
      <div className={styles.top}>
        <PageHeading lead={t("admin.applications.lead")}>{t("admin.applications.title")}</PageHeading>
        {!adding && !made && !off ? (
          <Button ref={addButton} className={styles.topAction} onClick={() => setAdding(true)}>
            {t("admin.applications.add")}
          </Button>
        ) : null}
      </div>

      {deleted && !made && !adding ? (
        <Alert variant="success">
          <span role="status">{t("admin.applications.deleted", { app: deleted.name })}</span>
        </Alert>
      ) : null}

      {made ? (
        <Card title={t("admin.applications.created")} description={made.client.name}>
          <SecretReveal app={made.client.name} clientId={made.client.clientId} secret={made.secret} onDone={() => setMade(null)} />
        </Card>
      ) : null}

      {adding ? (
        <Card title={t("admin.applications.create.title")} description={t("admin.applications.create.description")}>
          <ClientForm
            mode="create"
            initial={newDraft()}
            send={async (draft) => {
              const { data, error } = await mutations.createOauthClient(createBody(draft));
              if (error) return error;
              setAdding(false);
              setMade({ client: data.client, secret: data.clientSecret });
              return null;
            }}
            onCancel={() => {
              setAdding(false);
              requestAnimationFrame(() => addButton.current?.focus());
            }}
          />
        </Card>
      ) : null}

      <Card flush>
        {off ? (
          <div className={list.empty}>
            <p className={list.emptyTitle}>{t("admin.applications.off")}</p>
            <p className={list.emptyText}>{t("admin.applications.offHint")}</p>
          </div>
        ) : load.state !== "ready" ? (
          <div className={list.listState}>
            <CardListState
              state={load.state}
              error={load.error ?? undefined}
              loadingText={t("admin.applications.loading")}
              failedTitle={t("admin.applications.loadFailed")}
              onRetry={() => void load.reload()}
            />
          </div>
        ) : clients.length === 0 ? (
          <div className={list.empty}>
            <p className={list.emptyTitle}>{t("admin.applications.none")}</p>
            <p className={list.emptyText}>{t("admin.applications.noneHint")}</p>
          </div>
        ) : (
          <ClientTable clients={clients} />
        )}
      </Card>
    </div>
  );
}

function ClientTable({ clients }: { clients: OidcClient[] }) {
  const { t, i18n } = useTranslation();
  return (
    // The roles are spelled out: on phones the rows are laid out as blocks, which would drop a table's own.
    <table role="table" className={list.table} aria-label={t("admin.applications.listLabel")}>
      <thead role="rowgroup">
        <tr role="row">
          <th role="columnheader" scope="col">
            {t("admin.applications.columnApplication")}
          </th>
          <th role="columnheader" scope="col">
            {t("admin.applications.columnType")}
          </th>
          <th role="columnheader" scope="col">
            {t("admin.applications.columnConsent")}
          </th>
          <th role="columnheader" scope="col">
            {t("admin.applications.columnAdded")}
          </th>
        </tr>
      </thead>
      <tbody role="rowgroup">
        {clients.map((client) => (
          <tr role="row" key={client.clientId}>
            <td role="cell">
              <span className={styles.nameCell}>
                <Link className={`${list.primaryLink} ${styles.breakable}`} to={`/admin/applications/${encodeURIComponent(client.clientId)}`}>
                  {client.name}
                </Link>
                <code className={`${list.secondary} ${styles.mono}`}>{client.clientId}</code>
                {client.disabled ? <Badge>{t("admin.applications.offBadge")}</Badge> : null}
              </span>
            </td>
            <td role="cell">
              <span className={list.cellLabel} aria-hidden="true">
                {t("admin.applications.columnType")}
              </span>
              <span>{t(`admin.applications.type_${client.type}`)}</span>
            </td>
            <td role="cell">
              <span className={list.cellLabel} aria-hidden="true">
                {t("admin.applications.columnConsent")}
              </span>
              {client.type === "machine" ? (
                <span className={styles.muted}>{t("admin.applications.noUsers")}</span>
              ) : client.skipConsent ? (
                <Badge variant="accent">{t("admin.applications.firstParty")}</Badge>
              ) : (
                <span>{t("admin.applications.asksConsent")}</span>
              )}
            </td>
            <td role="cell">
              <span className={list.cellLabel} aria-hidden="true">
                {t("admin.applications.columnAdded")}
              </span>
              {client.source === "config" ? (
                <Badge variant="accent">{t("admin.applications.fromFile")}</Badge>
              ) : (
                <span>
                  {formatDate(client.createdAt, i18n.language)}
                  {client.source === "registration" ? <span className={list.secondary}>{t("admin.applications.registered")}</span> : null}
                </span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

import type { OidcClient } from "@gatehouse/client";
import { useRef, useState, type ReactNode } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import { AdminNav } from "../../components/admin-nav";
import { CardListState } from "../../components/card-list-state";
import { PageHeading } from "../../components/page-heading";
import { Alert } from "../../components/ui/alert";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { errorMessage } from "../../lib/auth-errors";
import { mutations, queries, useQuery } from "../../lib/data";
import { formatDate } from "../../lib/format-time";
import { useDocumentTitle } from "../../lib/use-document-title";
import { scopeText } from "../oauth-consent/scope-text";
import { ClientForm } from "./client-form";
import { draftOf, updateBody } from "./client-draft";
import { providerIsOff } from "./provider-off";
import { SecretReveal } from "./secret-reveal";
import styles from "./admin-applications.module.css";

type Notice = { variant: "success" | "error"; text: string } | null;

/**
 * One client of the OpenID Provider (/admin/applications/:clientId): every setting, and for a client made here (not
 * the configuration file's) a form to change them, turning it off or on, a new secret (after a question, shown once)
 * and deletion (after a question), which ends its grants and tokens.
 */
export function AdminApplicationPage() {
  const { t } = useTranslation();
  const { clientId = "" } = useParams();
  const load = useQuery(queries.adminOauthClient(clientId));
  const client = load.data;
  useDocumentTitle(client?.name ?? t("admin.applications.title"));

  const back = (
    <Link className={styles.back} to="/admin/applications">
      ← {t("admin.applications.client.back")}
    </Link>
  );
  if (load.state !== "ready" || !client) {
    return (
      <div className={styles.page}>
        <AdminNav />
        {back}
        {load.state === "failed" && providerIsOff(load.error) ? (
          <Alert variant="info">{t("admin.applications.off")}</Alert>
        ) : load.state === "failed" && load.error.code === "OIDC_CLIENT_NOT_FOUND" ? (
          <Alert variant="error">{errorMessage(t, load.error)}</Alert>
        ) : (
          <CardListState
            state={load.state}
            error={load.error ?? undefined}
            loadingText={t("admin.applications.client.loading")}
            failedTitle={t("admin.applications.loadFailed")}
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
      <PageHeading lead={t(`admin.applications.type_${client.type}`)}>
        <span className={styles.breakable}>{client.name}</span>
      </PageHeading>
      <SettingsCard client={client} />
    </div>
  );
}

function SettingsCard({ client }: { client: OidcClient }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [notice, setNotice] = useState<Notice>(null);
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState<"toggle" | "rotate" | "delete" | null>(null);
  const [asking, setAsking] = useState<"rotate" | "delete" | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const readOnly = client.source === "config";

  async function toggle() {
    setBusy("toggle");
    setNotice(null);
    const { error } = await mutations.updateOauthClient({ clientId: client.clientId, disabled: !client.disabled });
    setBusy(null);
    setNotice(
      error
        ? { variant: "error", text: errorMessage(t, error) }
        : { variant: "success", text: client.disabled ? t("admin.applications.client.turnedOn") : t("admin.applications.client.turnedOff") },
    );
  }

  async function confirm() {
    setBusy(asking);
    setDialogError(null);
    setNotice(null);
    if (asking === "rotate") {
      const { data, error } = await mutations.rotateOauthClientSecret({ clientId: client.clientId });
      setBusy(null);
      if (error) return setDialogError(errorMessage(t, error));
      setAsking(null);
      setSecret(data.clientSecret);
    } else if (asking === "delete") {
      const { error } = await mutations.deleteOauthClient({ clientId: client.clientId });
      setBusy(null);
      if (error) return setDialogError(errorMessage(t, error));
      setAsking(null);
      void navigate("/admin/applications", { state: { deleted: { clientId: client.clientId, name: client.name } } });
    }
  }

  const stopEditing = () => {
    setEditing(false);
    requestAnimationFrame(() => editButton.current?.focus());
  };

  if (editing) {
    return (
      <Card title={t("admin.applications.client.editTitle")} description={t("admin.applications.client.typeFixed", { type: t(`admin.applications.type_${client.type}`) })}>
        <ClientForm
          mode="edit"
          initial={draftOf(client)}
          send={async (draft) => {
            const body = updateBody(client, draft);
            if (body) {
              const { error } = await mutations.updateOauthClient(body);
              if (error) return error;
            }
            setNotice({ variant: "success", text: body ? t("admin.applications.client.saved") : t("admin.applications.client.noChanges") });
            stopEditing();
            return null;
          }}
          onCancel={stopEditing}
        />
      </Card>
    );
  }

  return (
    <Card
      title={t("admin.applications.client.settings")}
      actions={client.disabled ? <Badge>{t("admin.applications.offBadge")}</Badge> : <Badge variant="success">{t("admin.applications.on")}</Badge>}
      footer={
        readOnly || secret ? undefined : (
          <div className={styles.buttons}>
            <Button ref={editButton} variant="secondary" size="sm" onClick={() => setEditing(true)}>
              {t("admin.applications.client.edit")}
            </Button>
            <Button variant="secondary" size="sm" loading={busy === "toggle"} onClick={() => void toggle()}>
              {client.disabled ? t("admin.applications.client.turnOn") : t("admin.applications.client.turnOff")}
            </Button>
            {client.type !== "public" ? (
              <Button variant="secondary" size="sm" onClick={() => setAsking("rotate")}>
                {t("admin.applications.client.rotate")}
              </Button>
            ) : null}
            <Button variant="danger" size="sm" className={styles.push} onClick={() => setAsking("delete")}>
              {t("admin.applications.client.delete")}
            </Button>
          </div>
        )
      }
    >
      <div className={styles.settings}>
        {notice ? (
          <Alert variant={notice.variant} focusable>
            <span role={notice.variant === "success" ? "status" : undefined}>{notice.text}</span>
          </Alert>
        ) : null}
        {secret ? <SecretReveal app={client.name} clientId={client.clientId} secret={secret} onDone={() => setSecret(null)} /> : null}
        {readOnly ? <Alert variant="info">{t("admin.applications.client.fromFileNote")}</Alert> : null}
        <ClientFacts client={client} />
      </div>
      <ConfirmDialog
        open={asking !== null}
        title={
          asking === "rotate" ? t("admin.applications.client.rotateQuestion") : t("admin.applications.client.deleteQuestion", { app: client.name })
        }
        confirmLabel={asking === "rotate" ? t("admin.applications.client.rotateConfirm") : t("admin.applications.client.delete")}
        cancelLabel={t("common.cancel")}
        variant={asking === "rotate" ? "primary" : "destructive"}
        loading={busy === "rotate" || busy === "delete"}
        loadingText={asking === "rotate" ? t("admin.applications.client.rotating") : t("admin.applications.client.deleting")}
        message={dialogError ? <Alert variant="error">{dialogError}</Alert> : undefined}
        onConfirm={() => void confirm()}
        onClose={() => {
          setAsking(null);
          setDialogError(null);
        }}
      >
        {asking === "rotate" ? t("admin.applications.client.rotateText") : t("admin.applications.client.deleteText")}
      </ConfirmDialog>
    </Card>
  );
}

/** Every setting of a client, name above value; lists of URIs take a whole row. */
function ClientFacts({ client }: { client: OidcClient }) {
  const { t, i18n } = useTranslation();
  const users = client.type !== "machine";
  const none = <span className={styles.muted}>{t("admin.applications.client.none")}</span>;
  const uris = (items: string[]) =>
    items.length === 0 ? (
      none
    ) : (
      <ul className={styles.plainList}>
        {items.map((item) => (
          <li key={item} className={styles.mono}>
            {item}
          </li>
        ))}
      </ul>
    );
  const fact = (label: string, value: ReactNode, wide = false) => (
    <div className={wide ? styles.wide : undefined}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
  const links = (
    [
      ["logoUri", client.logoUri],
      ["clientUri", client.clientUri],
      ["policyUri", client.policyUri],
      ["tosUri", client.tosUri],
    ] as const
  ).filter(([, url]) => url);

  return (
    <dl className={styles.facts}>
      {fact(t("admin.applications.client.clientId"), <code className={styles.mono}>{client.clientId}</code>)}
      {fact(
        t("admin.applications.client.secret"),
        client.hasSecret
          ? client.secretCreatedAt
            ? t("admin.applications.client.secretSince", { date: formatDate(client.secretCreatedAt, i18n.language) })
            : t("admin.applications.client.secretSet")
          : t("admin.applications.client.noSecret"),
      )}
      {users
        ? fact(
            t("admin.applications.columnConsent"),
            client.skipConsent ? <Badge variant="accent">{t("admin.applications.firstParty")}</Badge> : t("admin.applications.asksConsent"),
          )
        : null}
      {fact(
        t("admin.applications.client.source"),
        client.source === "config"
          ? t("admin.applications.fromFile")
          : client.source === "registration"
            ? t("admin.applications.client.registeredOn", { date: formatDate(client.createdAt, i18n.language) })
            : t("admin.applications.client.madeOn", { date: formatDate(client.createdAt, i18n.language) }),
      )}
      {users ? fact(t("admin.applications.form.redirectURLs"), uris(client.redirectURLs), true) : null}
      {users && client.postLogoutRedirectURLs.length > 0 ? fact(t("admin.applications.form.logoutURLs"), uris(client.postLogoutRedirectURLs), true) : null}
      {fact(
        t("admin.applications.form.scopes"),
        client.scopes.length === 0 ? (
          none
        ) : (
          <ul className={styles.plainList}>
            {client.scopes.map((scope) => (
              <li key={scope}>
                <code className={styles.mono}>{scope}</code>
                {users ? <span className={styles.scopeWords}> · {scopeText(t, scope)}</span> : null}
              </li>
            ))}
          </ul>
        ),
        true,
      )}
      {fact(
        t("admin.applications.client.grants"),
        <ul className={styles.plainList}>
          {client.grantTypes.map((grant) => (
            <li key={grant}>{t(`admin.applications.client.grant_${grant}`)}</li>
          ))}
        </ul>,
      )}
      {fact(
        t("admin.applications.form.accessTokenFormat"),
        client.accessTokenFormat === "jwt" ? t("admin.applications.form.formatJwt") : t("admin.applications.form.formatOpaque"),
      )}
      {client.audience.length > 0 ? fact(t("admin.applications.form.audience"), uris(client.audience)) : null}
      {users ? fact(t("admin.applications.form.signingAlg"), client.signingAlg) : null}
      {users
        ? fact(
            t("admin.applications.form.consentPage"),
            links.length === 0 ? (
              none
            ) : (
              <ul className={styles.plainList}>
                {links.map(([field, url]) => (
                  <li key={field}>
                    <span className={styles.scopeWords}>{t(`admin.applications.form.${field}`)}: </span>
                    <a className={styles.breakable} href={url ?? undefined} rel="noreferrer noopener" target="_blank">
                      {url}
                    </a>
                  </li>
                ))}
              </ul>
            ),
            true,
          )
        : null}
    </dl>
  );
}

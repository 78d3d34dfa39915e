import type { OidcGrant } from "@gatehouse/client";
import { useState } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { AppMark } from "../../components/app-mark";
import { CardListState } from "../../components/card-list-state";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { errorMessage } from "../../lib/auth-errors";
import { mutations, queries, useQuery } from "../../lib/data";
import { formatDate } from "../../lib/format-time";
import { scopeText } from "../oauth-consent/scope-text";
import styles from "./applications-card.module.css";

type Notice = { variant: "success" | "error"; text: string } | null;

/**
 * Connected applications (#16), as an administrator sees them on a user's page: each application the user allowed
 * through the OpenID Provider, what it may see or do (in the consent page's words) and since when, and Disconnect
 * (after a question), which revokes the grant and every token issued under it (POST /admin/oauth2/revoke-user-grant).
 * Not shown when the service has no OpenID Provider (its routes answer 404) or the administrator may not read
 * grants (403: the admin access control's oidcGrant resource).
 */
export function ApplicationsCard({ user }: { user: { id: string; name: string } }) {
  const { t, i18n } = useTranslation();
  const load = useQuery(queries.adminUserGrants(user.id));
  const [confirming, setConfirming] = useState<OidcGrant | null>(null);
  const [busy, setBusy] = useState(false);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);

  if (load.state === "failed" && (load.error.status === 403 || (load.error.status === 404 && load.error.code === "NOT_FOUND"))) return null;
  const appName = (grant: OidcGrant) => grant.clientName || grant.clientId;

  async function revoke(grant: OidcGrant) {
    setBusy(true);
    setDialogError(null);
    setNotice(null);
    const { error } = await mutations.revokeUserOauthGrant({ userId: user.id, clientId: grant.clientId });
    setBusy(false);
    if (error && error.code !== "GRANT_NOT_FOUND") {
      setDialogError(errorMessage(t, error));
      return;
    }
    setConfirming(null);
    setNotice({ variant: "success", text: t("admin.user.apps.revoked", { app: appName(grant), name: user.name }) });
  }

  const grants = load.data?.grants;
  return (
    <Card title={t("admin.user.apps.heading")} description={t("admin.user.apps.description")} flush>
      {notice ? (
        <div className={styles.notice}>
          <Alert variant={notice.variant} focusable>
            <span role="status">{notice.text}</span>
          </Alert>
        </div>
      ) : null}
      {!grants ? (
        <CardListState
          state={load.state === "failed" ? "failed" : "loading"}
          error={load.error ?? undefined}
          loadingText={t("admin.user.apps.loading")}
          failedTitle={t("admin.user.apps.failed")}
          onRetry={() => void load.reload()}
        />
      ) : grants.length === 0 ? (
        <p className={styles.empty}>{t("admin.user.apps.none")}</p>
      ) : (
        <ul className={styles.list} aria-label={t("admin.user.apps.listLabel")}>
          {grants.map((grant) => {
            const name = appName(grant);
            return (
              <li key={grant.clientId} className={styles.row}>
                <AppMark name={name} logoUri={grant.logoUri} />
                <div className={styles.text}>
                  <Link className={styles.name} to={`/admin/applications/${encodeURIComponent(grant.clientId)}`}>
                    {name}
                  </Link>
                  <ul className={styles.scopes} aria-label={t("admin.user.apps.scopesLabel", { app: name })}>
                    {grant.scopes.map((scope) => (
                      <li key={scope}>{scopeText(t, scope)}</li>
                    ))}
                  </ul>
                  <p className={styles.detail}>{t("oauthApps.since", { date: formatDate(grant.createdAt, i18n.language) })}</p>
                </div>
                <Button
                  variant="danger"
                  size="sm"
                  className={styles.action}
                  aria-label={t("admin.user.apps.revokeTitle", { app: name, name: user.name })}
                  onClick={() => {
                    setDialogError(null);
                    setConfirming(grant);
                  }}
                >
                  {t("oauthApps.revoke")}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? t("admin.user.apps.revokeTitle", { app: appName(confirming), name: user.name }) : ""}
        confirmLabel={t("oauthApps.revoke")}
        cancelLabel={t("common.cancel")}
        loading={busy}
        loadingText={t("oauthApps.revoking")}
        message={dialogError ? <Alert variant="error">{dialogError}</Alert> : undefined}
        onConfirm={() => {
          if (confirming) void revoke(confirming);
        }}
        onClose={() => setConfirming(null)}
      >
        {confirming ? t("admin.user.apps.revokeBody", { app: appName(confirming), name: user.name }) : null}
      </ConfirmDialog>
    </Card>
  );
}

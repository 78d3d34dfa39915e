import type { AuthError, OidcGrant } from "@gatehouse/client";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppMark } from "../../components/app-mark";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { authClient } from "../../lib/auth-client";
import { errorMessage } from "../../lib/auth-errors";
import { formatDate } from "../../lib/format-time";
import { scopeText } from "../oauth-consent/scope-text";
import list from "../../components/card-list.module.css";
import styles from "./connected-apps-card.module.css";

type Read = { state: "loading" } | { state: "ready"; grants: OidcGrant[] } | { state: "failed"; error: AuthError | null } | { state: "off" };
type Notice = { variant: "success" | "error"; text: string } | null;

/**
 * Connected applications (#16): each application the user allowed through the OpenID Provider, what it may see or
 * do, and since when. Disconnecting one revokes its grant: every token issued under it stops working at once and
 * the application asks again next time. Not shown when the service has no OpenID Provider (the route answers 404).
 */
export function ConnectedAppsCard({ id }: { id?: string }) {
  const { t, i18n } = useTranslation();
  const [read, setRead] = useState<Read>({ state: "loading" });
  const [confirming, setConfirming] = useState<OidcGrant | null>(null);
  const [busy, setBusy] = useState(false);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const noticeRef = useRef<HTMLDivElement>(null);

  const load = useCallback(async () => {
    const { data, error } = await authClient.oauth2.listGrants();
    if (data) setRead({ state: "ready", grants: data.grants });
    else if (error?.status === 404 && error.code !== "GRANT_NOT_FOUND") setRead({ state: "off" });
    else setRead({ state: "failed", error });
  }, []);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  async function revoke(grant: OidcGrant) {
    setBusy(true);
    setDialogError(null);
    const { error } = await authClient.oauth2.revokeGrant({ clientId: grant.clientId });
    setBusy(false);
    if (error && error.code !== "GRANT_NOT_FOUND") {
      setDialogError(errorMessage(t, error));
      return;
    }
    setConfirming(null);
    setNotice({ variant: "success", text: t("oauthApps.revoked", { app: grant.clientName || grant.clientId }) });
    await load();
  }

  if (read.state === "off") return null;
  const appName = (grant: OidcGrant) => grant.clientName || grant.clientId;

  return (
    <Card id={id} title={t("oauthApps.appsTitle")} description={t("oauthApps.appsLead")} flush>
      {notice ? (
        <div className={list.notice}>
          <Alert ref={noticeRef} variant={notice.variant} focusable>
            {notice.text}
          </Alert>
        </div>
      ) : null}
      {read.state === "failed" ? (
        <div className={list.notice}>
          <Alert variant="error">{read.error ? errorMessage(t, read.error) : t("common.genericError")}</Alert>
        </div>
      ) : null}
      {read.state === "ready" && read.grants.length === 0 ? <p className={styles.empty}>{t("oauthApps.appsEmpty")}</p> : null}
      {read.state === "ready" && read.grants.length > 0 ? (
        <ul className={list.list} aria-label={t("oauthApps.appsTitle")}>
          {read.grants.map((grant) => {
            const name = appName(grant);
            return (
              <li key={grant.clientId} className={list.row}>
                <AppMark name={name} logoUri={grant.logoUri} />
                <div className={styles.text}>
                  <p className={styles.name}>{name}</p>
                  <p className={styles.detail}>{grant.scopes.map((scope) => scopeText(t, scope)).join(" · ")}</p>
                  <p className={styles.detail}>{t("oauthApps.since", { date: formatDate(grant.createdAt, i18n.language) })}</p>
                </div>
                <Button
                  variant="danger"
                  size="sm"
                  aria-label={t("oauthApps.revokeTitle", { app: name })}
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
      ) : null}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? t("oauthApps.revokeTitle", { app: appName(confirming) }) : ""}
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
        {confirming ? t("oauthApps.revokeBody", { app: appName(confirming) }) : null}
      </ConfirmDialog>
    </Card>
  );
}

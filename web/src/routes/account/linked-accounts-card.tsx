import type { LinkedAccount } from "@gatehouse/client";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { CardListState } from "../../components/card-list-state";
import { ProviderLabel, ProviderMark } from "../../components/provider-mark";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { authClient } from "../../lib/auth-client";
import { errorMessage } from "../../lib/auth-errors";
import { mutations, queries, useQuery } from "../../lib/data";
import { formatDate } from "../../lib/format-time";
import { useAdministrator } from "../../lib/is-admin";
import { useErrorSentence } from "../../lib/use-error-sentence";
import { useFeatures } from "../../lib/use-features";
import list from "../../components/card-list.module.css";
import styles from "./linked-accounts-card.module.css";

type Notice = { variant: "success" | "error"; text: string } | null;

export interface LinkedAccountsCardProps {
  id?: string;
}

/**
 * The ways this user signs in: their password and each connected provider account. A provider account can be
 * disconnected unless it is the last way in (the service refuses that too), and each configured provider not
 * yet connected can be connected: a round trip through the provider that comes back to
 * /account?linked=ID, or /account?linking=ID&error=CODE when it failed.
 *
 * Without social providers there is nothing to connect and the list would show only "Password", which the
 * password card already covers: users then see no card (unless they still hold an account of a provider since
 * removed, which they may want to disconnect), administrators see it with a note that social sign-in is not set up.
 */
export function LinkedAccountsCard({ id }: LinkedAccountsCardProps) {
  const { t, i18n } = useTranslation();
  const linked = useQuery(queries.accounts());
  const features = useFeatures();
  // Whether the console is open to them, as the service decides; until it answers, they are shown what users see.
  const administrator = useAdministrator().administrator === true;
  const [params] = useSearchParams();
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);

  const providers = features?.providers ?? [];
  const nameOf = (providerId: string) =>
    providerId === "credential" ? t("account.linked.password") : (providers.find((p) => p.id === providerId)?.name ?? providerId);

  const returnedError = (params.get("error") ?? "").slice(0, 100);
  const returnedFrom = params.get("linking") ?? params.get("linked");
  const returnedSentence = useErrorSentence(returnedError);

  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  async function disconnect(account: LinkedAccount) {
    setBusy(account.id);
    setNotice(null);
    const { error } = await mutations.unlinkAccount({ accountId: account.id });
    setBusy(null);
    setNotice(
      error
        ? { variant: "error", text: errorMessage(t, error) }
        : { variant: "success", text: t("account.linked.disconnected", { provider: nameOf(account.providerId) }) },
    );
  }

  async function connect(providerId: string) {
    setBusy(providerId);
    setNotice(null);
    const { data, error } = await authClient.linkSocial({
      provider: providerId,
      callbackURL: `/account?linked=${encodeURIComponent(providerId)}#connected-accounts`,
      errorCallbackURL: `/account?linking=${encodeURIComponent(providerId)}`,
      disableRedirect: true,
    });
    if (error || !data?.url) {
      setBusy(null);
      setNotice({ variant: "error", text: error ? errorMessage(t, error) : t("social.failed") });
      return;
    }
    window.location.assign(data.url);
  }

  // The password first, then providers in the order they were connected.
  const accounts =
    linked.state === "ready"
      ? [...linked.data].sort(
          (a, b) =>
            Number(b.providerId === "credential") - Number(a.providerId === "credential") ||
            Date.parse(a.createdAt) - Date.parse(b.createdAt),
        )
      : [];
  const connectedIds = new Set(accounts.map((a) => a.providerId));
  const connectable = providers.filter((p) => !connectedIds.has(p.id));
  const onlyWayIn = accounts.length === 1;

  // Shown once GET /features has answered (read once per page load); a failed read shows the card.
  if (features === undefined) return null;
  const noProviders = features !== null && features.providers.length === 0;
  const onlyPassword = accounts.every((account) => account.providerId === "credential");
  if (noProviders && !administrator && (linked.state !== "ready" || onlyPassword)) return null;

  return (
    <Card id={id} title={t("account.linked.heading")} description={t("account.linked.description")} flush>
      {noProviders && administrator ? (
        <div className={list.notice}>
          <Alert variant="info" title={t("account.linked.notSetUpTitle")}>
            {t("account.linked.notSetUp")}
          </Alert>
        </div>
      ) : null}
      {returnedFrom && returnedError ? (
        <div className={list.notice}>
          <Alert variant="error" title={t("account.linked.connectFailed", { provider: nameOf(returnedFrom) })}>
            {returnedSentence}
          </Alert>
        </div>
      ) : null}
      {returnedFrom && !returnedError && params.has("linked") ? (
        <div className={list.notice}>
          <Alert variant="success">{t("account.linked.connected", { provider: nameOf(returnedFrom) })}</Alert>
        </div>
      ) : null}
      {notice ? (
        <div className={list.notice}>
          <Alert ref={noticeRef} variant={notice.variant} focusable>
            {notice.text}
          </Alert>
        </div>
      ) : null}

      <CardListState
        state={linked.state}
        error={linked.error ?? undefined}
        loadingText={t("account.linked.loading")}
        failedTitle={t("account.linked.loadFailed")}
        onRetry={() => void linked.reload()}
      />

      {linked.state === "ready" ? (
        <ul className={list.list} aria-label={t("account.linked.listLabel")}>
          {accounts.map((account) => {
            const name = nameOf(account.providerId);
            const isPassword = account.providerId === "credential";
            return (
              <li key={account.id} className={list.row}>
                <ProviderMark id={account.providerId} name={name} size="md" />
                <div className={styles.text}>
                  <p className={styles.name}>{name}</p>
                  <p className={styles.detail}>
                    {isPassword
                      ? t("account.linked.passwordDetail")
                      : t("account.linked.connectedOn", { date: formatDate(account.createdAt, i18n.language) })}
                  </p>
                  {onlyWayIn && !isPassword ? <p className={styles.detail}>{t("account.linked.onlyWayIn")}</p> : null}
                </div>
                {!isPassword && !onlyWayIn ? (
                  <Button
                    variant="danger"
                    size="sm"
                    loading={busy === account.id}
                    loadingText={t("account.linked.disconnecting")}
                    disabled={busy !== null && busy !== account.id}
                    aria-label={t("account.linked.disconnectLabel", { provider: name })}
                    onClick={() => void disconnect(account)}
                  >
                    {t("account.linked.disconnect")}
                  </Button>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}

      {linked.state === "ready" && connectable.length > 0 ? (
        <div className={styles.connect}>
          <h3 className={styles.connectHeading}>{t("account.linked.connectHeading")}</h3>
          <div className={styles.connectButtons}>
            {connectable.map((provider) => (
              <Button
                key={provider.id}
                variant="secondary"
                size="sm"
                loading={busy === provider.id}
                loadingText={t("social.opening", { provider: provider.name })}
                disabled={busy !== null && busy !== provider.id}
                onClick={() => void connect(provider.id)}
              >
                <ProviderLabel id={provider.id} name={provider.name}>
                  {t("account.linked.connect", { provider: provider.name })}
                </ProviderLabel>
              </Button>
            ))}
          </div>
        </div>
      ) : null}
    </Card>
  );
}

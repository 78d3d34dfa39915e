import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import type { AuthError, Oauth2GetInteractionData } from "@gatehouse/client";
import { AuthLayout } from "../../components/auth-layout";
import { LoadingScreen } from "../../components/loading-screen";
import { PageHeading } from "../../components/page-heading";
import { Alert } from "../../components/ui/alert";
import { Avatar } from "../../components/ui/avatar";
import { Button } from "../../components/ui/button";
import { authClient } from "../../lib/auth-client";
import { errorMessage } from "../../lib/auth-errors";
import { useDocumentTitle } from "../../lib/use-document-title";
import styles from "./oauth-consent-page.module.css";
import { scopeText } from "./scope-text";

type Read = { state: "loading" } | { state: "ready"; interaction: Oauth2GetInteractionData } | { state: "failed"; error: AuthError | null };

/**
 * The OpenID Provider's consent page (/oauth/consent?uid=, README.md "OpenID Provider"): the provider sends the
 * signed-in user here when an application asks for scopes they have not allowed it yet. It shows the application,
 * the account and what the application asks for in plain words; Allow or Deny answers the provider, which sends the
 * browser back to the application (a full navigation to the URL the service answers).
 */
export function OauthConsentPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const uid = params.get("uid") ?? "";
  useDocumentTitle(t("oauthApps.consentTitle"));
  const [read, setRead] = useState<Read>({ state: "loading" });
  const [busy, setBusy] = useState<"allow" | "deny" | null>(null);
  const [answerError, setAnswerError] = useState<AuthError | null>(null);

  useEffect(() => {
    if (!uid) return;
    let live = true;
    void authClient.oauth2.getInteraction({ uid }).then(({ data, error }) => {
      if (!live) return;
      setRead(data ? { state: "ready", interaction: data } : { state: "failed", error });
    });
    return () => {
      live = false;
    };
  }, [uid]);

  async function answer(accept: boolean) {
    setBusy(accept ? "allow" : "deny");
    setAnswerError(null);
    // The answer is `{ redirect: true, url }`: the client itself sends the browser on to it (one navigation; a
    // second one would find the request used up).
    const { data, error } = await authClient.oauth2.consent({ uid, accept });
    if (data?.url) return;
    setBusy(null);
    setAnswerError(error);
  }

  if (!uid) {
    return (
      <AuthLayout>
        <PageHeading>{t("oauthApps.consentTitle")}</PageHeading>
        <Alert variant="error">{t("oauthApps.missingRequest")}</Alert>
      </AuthLayout>
    );
  }
  if (read.state === "loading") return <LoadingScreen />;
  if (read.state === "failed") {
    return (
      <AuthLayout>
        <PageHeading>{t("oauthApps.consentTitle")}</PageHeading>
        <Alert variant="error">{read.error ? errorMessage(t, read.error) : t("oauthApps.missingRequest")}</Alert>
      </AuthLayout>
    );
  }

  const { client, user, scopes, newScopes, redirectOrigin } = read.interaction;
  const app = client.name || client.clientId;
  const asked = newScopes.length > 0 ? newScopes : scopes.map((scope) => scope.scope);
  const allowed = scopes.filter((scope) => scope.granted && !asked.includes(scope.scope)).map((scope) => scope.scope);

  return (
    <AuthLayout>
      <div className={styles.app}>
        {client.logoUri ? <img className={styles.logo} src={client.logoUri} alt="" /> : null}
        <div>
          <PageHeading>{t("oauthApps.consentHeading", { app })}</PageHeading>
        </div>
      </div>
      {client.clientUri ? (
        <p className={styles.muted}>
          <a href={client.clientUri} rel="noreferrer noopener" target="_blank" className={styles.origin}>
            {client.clientUri}
          </a>
        </p>
      ) : null}
      <div className={styles.user}>
        <Avatar name={user.name || user.email} image={user.image} />
        <div className={styles.userText}>
          <span className={styles.muted}>{t("oauthApps.signedInAs")}</span>
          <strong>{user.name}</strong>
          {user.name !== user.email ? <span className={styles.muted}>{user.email}</span> : null}
        </div>
      </div>
      {answerError ? (
        <Alert variant="error" focusable>
          {errorMessage(t, answerError)}
        </Alert>
      ) : null}
      <p>{t("oauthApps.asks", { app })}</p>
      <ul className={styles.scopes} aria-label={t("oauthApps.asks", { app })}>
        {asked.map((scope) => (
          <li key={scope}>{scopeText(t, scope)}</li>
        ))}
      </ul>
      {allowed.length > 0 ? (
        <>
          <p className={styles.muted}>{t("oauthApps.alreadyAllowed")}</p>
          <ul className={`${styles.scopes} ${styles.muted}`}>
            {allowed.map((scope) => (
              <li key={scope}>{scopeText(t, scope)}</li>
            ))}
          </ul>
        </>
      ) : null}
      {redirectOrigin ? (
        <p className={styles.muted}>
          {t("oauthApps.goesBackTo", { origin: redirectOrigin })}
        </p>
      ) : null}
      {client.policyUri || client.tosUri ? (
        <p className={styles.links}>
          {client.policyUri ? (
            <a href={client.policyUri} rel="noreferrer noopener" target="_blank">
              {t("oauthApps.policy")}
            </a>
          ) : null}
          {client.tosUri ? (
            <a href={client.tosUri} rel="noreferrer noopener" target="_blank">
              {t("oauthApps.terms")}
            </a>
          ) : null}
        </p>
      ) : null}
      <div className={styles.buttons}>
        <Button fullWidth loading={busy === "allow"} loadingText={t("oauthApps.allowing")} disabled={busy !== null} onClick={() => void answer(true)}>
          {t("oauthApps.allow")}
        </Button>
        <Button
          fullWidth
          variant="secondary"
          loading={busy === "deny"}
          loadingText={t("oauthApps.denying")}
          disabled={busy !== null}
          onClick={() => void answer(false)}
        >
          {t("oauthApps.deny")}
        </Button>
      </div>
    </AuthLayout>
  );
}

import { useState } from "react";
import { useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { authClient } from "../lib/auth-client";
import { lastUsedMethod } from "../lib/last-used-method";
import { LastUsedBadge } from "./last-used-badge";
import { errorMessage } from "../lib/auth-errors";
import { useErrorSentence } from "../lib/use-error-sentence";
import { useFeatures } from "../lib/use-features";
import { Alert } from "./ui/alert";
import { Button } from "./ui/button";
import { ProviderLabel } from "./provider-mark";
import styles from "./social-sign-in.module.css";

export interface SocialSignInProps {
  /** On the sign-up page a provider may create the account even where implicit sign-up is off. */
  mode: "signIn" | "signUp";
  /** The app path to land on after signing in (checked again by the service). */
  returnTo: string;
  /** Off where the buttons follow others under an "or" rule of their own (the sign-in page). On by default. */
  divider?: boolean;
}

/**
 * A button per configured social provider (GET /features), under an "or" rule. A click asks the service for
 * the provider's address and goes there; the provider sends the browser back to the service, which lands it
 * on `returnTo`, or on this same page with `?error=CODE` (shown by <SocialSignInError>).
 */
export function SocialSignIn({ mode, returnTo, divider = true }: SocialSignInProps) {
  const { t } = useTranslation();
  const features = useFeatures();
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [lastUsed] = useState(lastUsedMethod);
  const providers = features?.providers ?? [];
  if (providers.length === 0) return null;

  async function start(provider: string) {
    setPending(provider);
    setError(null);
    const here = mode === "signUp" ? "/sign-up" : "/sign-in";
    const { data, error: failure } = await authClient.signIn.social({
      provider,
      callbackURL: returnTo,
      errorCallbackURL: here,
      ...(mode === "signUp" ? { requestSignUp: true } : {}),
      disableRedirect: true,
    });
    // A redirect sign-in always answers the provider's URL (the ID-token answers are for applications).
    if (failure || !("url" in data) || !data.url) {
      setPending(null);
      setError(failure ? errorMessage(t, failure) : t("social.failed"));
      return;
    }
    // Leaving the app: the button keeps its "opening" state until the provider's page replaces this one.
    window.location.assign(data.url);
  }

  return (
    <div className={styles.social}>
      {divider ? (
        <p className={styles.divider}>
          <span>{t("social.or")}</span>
        </p>
      ) : null}
      {error ? (
        <Alert variant="error" focusable>
          {error}
        </Alert>
      ) : null}
      <ul className={styles.list} aria-label={t("social.listLabel")}>
        {providers.map(({ id, name }) => (
          <li key={id}>
            {mode === "signIn" && lastUsed === id ? <LastUsedBadge /> : null}
            <Button
              variant="secondary"
              fullWidth
              loading={pending === id}
              loadingText={t("social.opening", { provider: name })}
              disabled={pending !== null && pending !== id}
              onClick={() => void start(id)}
            >
              <ProviderLabel id={id} name={name}>
                {t("social.continueWith", { provider: name })}
              </ProviderLabel>
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The error a provider flow came back with (`?error=CODE` on the sign-in or sign-up page), as a sentence. */
export function SocialSignInError() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const code = (params.get("error") ?? "").trim().slice(0, 100);
  const sentence = useErrorSentence(code);
  if (!code) return null;
  return (
    <Alert variant="error" title={t("social.failedTitle")}>
      {sentence}
    </Alert>
  );
}

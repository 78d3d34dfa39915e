import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import styles from "./admin-applications.module.css";

export interface SecretRevealProps {
  /** The application's name, as the warning says it. */
  app: string;
  clientId: string;
  /** The client secret, shown this once; null for a public client, which has none. */
  secret: string | null;
  onDone(): void;
}

/**
 * A client's credentials as the service answered them once: its client ID and secret (kept by the service as a
 * hash, never answered again), to copy, and a button to say it is saved, which hides it for good. The warning takes
 * focus: it is what to read first. A public client has no secret; its client ID is all the application needs.
 */
export function SecretReveal({ app, clientId, secret, onDone }: SecretRevealProps) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const warning = useRef<HTMLDivElement>(null);

  useEffect(() => {
    warning.current?.focus();
  }, []);

  async function copy() {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <div className={styles.secret}>
      {secret ? (
        <Alert ref={warning} variant="warning" focusable title={t("admin.applications.secret.title")}>
          {t("admin.applications.secret.shownOnce", { app })}
        </Alert>
      ) : (
        <Alert ref={warning} variant="info" focusable>
          {t("admin.applications.secret.noSecret")}
        </Alert>
      )}
      <dl className={styles.secretFacts}>
        <div>
          <dt>{t("admin.applications.client.clientId")}</dt>
          <dd>
            <code className={styles.mono}>{clientId}</code>
          </dd>
        </div>
        {secret ? (
          <div>
            <dt>{t("admin.applications.secret.label")}</dt>
            <dd>
              <p className={styles.secretValue}>
                <code aria-label={t("admin.applications.secret.label")}>{secret}</code>
              </p>
            </dd>
          </div>
        ) : null}
      </dl>
      <div className={styles.buttons}>
        {secret ? (
          <Button variant="secondary" size="sm" onClick={() => void copy()}>
            {copied ? t("admin.applications.secret.copied") : t("admin.applications.secret.copy")}
          </Button>
        ) : null}
        <Button size="sm" onClick={onDone}>
          {secret ? t("admin.applications.secret.done") : t("admin.applications.secret.close")}
        </Button>
      </div>
      <p className="visually-hidden" role="status">
        {copied ? t("admin.applications.secret.copied") : ""}
      </p>
    </div>
  );
}

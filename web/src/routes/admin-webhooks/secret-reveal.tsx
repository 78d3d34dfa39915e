import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import styles from "./admin-webhooks.module.css";

export interface SecretRevealProps {
  secret: string;
  /** The receiver that will use it. */
  url: string;
  onDone(): void;
}

/**
 * An endpoint's signing secret, shown this once (the service keeps it sealed and never answers it again): to copy,
 * and a button to say it is saved, which hides it for good. The warning takes focus: it is what to read first.
 */
export function SecretReveal({ secret, url, onDone }: SecretRevealProps) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const warning = useRef<HTMLDivElement>(null);

  useEffect(() => {
    warning.current?.focus();
  }, []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <div className={styles.secret}>
      <Alert ref={warning} variant="warning" focusable title={t("admin.webhooks.secret.title")}>
        {t("admin.webhooks.secret.shownOnce", { url })}
      </Alert>
      <p className={styles.secretValue}>
        <code aria-label={t("admin.webhooks.secret.label")}>{secret}</code>
      </p>
      <div className={styles.buttons}>
        <Button variant="secondary" size="sm" onClick={() => void copy()}>
          {copied ? t("admin.webhooks.secret.copied") : t("admin.webhooks.secret.copy")}
        </Button>
        <Button size="sm" onClick={onDone}>
          {t("admin.webhooks.secret.done")}
        </Button>
      </div>
      <p className="visually-hidden" role="status">
        {copied ? t("admin.webhooks.secret.copied") : ""}
      </p>
    </div>
  );
}

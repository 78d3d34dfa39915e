import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCurrentSession } from "../../components/current-session";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import styles from "./security-page.module.css";

export interface BackupCodesProps {
  codes: string[];
  onDone(): void;
}

/**
 * New backup codes, shown this once (the service keeps only their hashes): to copy, to download as a text file, and
 * a button to say they are saved, which hides them for good.
 */
export function BackupCodes({ codes, onDone }: BackupCodesProps) {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const [copied, setCopied] = useState(false);
  const warning = useRef<HTMLDivElement>(null);

  // They replace the step that made them: the warning is what to read first.
  useEffect(() => {
    warning.current?.focus();
  }, []);

  const text = [t("security.backupCodes.fileHeading", { email: user.email, site: window.location.host }), "", ...codes, ""].join("\n");

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = `${window.location.hostname}-backup-codes.txt`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1_000);
  }

  return (
    <div className={styles.step}>
      <Alert ref={warning} variant="warning" focusable>
        {t("security.backupCodes.shownOnce")}
      </Alert>
      <ul className={styles.codes} aria-label={t("security.backupCodes.listLabel")}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className={styles.buttons}>
        <Button variant="secondary" size="sm" onClick={() => void copy()}>
          {copied ? t("security.copied") : t("security.backupCodes.copy")}
        </Button>
        <Button variant="secondary" size="sm" onClick={download}>
          {t("security.backupCodes.download")}
        </Button>
        <Button size="sm" className={styles.push} onClick={onDone}>
          {t("security.backupCodes.done")}
        </Button>
      </div>
      <p className="visually-hidden" role="status">
        {copied ? t("security.copied") : ""}
      </p>
    </div>
  );
}

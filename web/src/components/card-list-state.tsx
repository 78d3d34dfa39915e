import type { AuthError } from "@gatehouse/client";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../lib/auth-errors";
import { Alert } from "./ui/alert";
import { Button } from "./ui/button";
import { Spinner } from "./ui/spinner";
import styles from "./card-list.module.css";

export interface CardListStateProps {
  state: "loading" | "failed" | "ready";
  error?: AuthError | undefined;
  loadingText: string;
  failedTitle: string;
  onRetry: () => void;
}

/** What a listing card shows before its list: a spinner while it loads, or why it failed with a retry button. */
export function CardListState({ state, error, loadingText, failedTitle, onRetry }: CardListStateProps) {
  const { t } = useTranslation();
  if (state === "loading") {
    return (
      <div className={styles.state}>
        <Spinner size="sm" />
        <span role="status">{loadingText}</span>
      </div>
    );
  }
  if (state === "failed") {
    return (
      <div className={styles.notice}>
        <Alert variant="error" title={failedTitle}>
          <p>{error ? errorMessage(t, error) : t("common.genericError")}</p>
          <Button variant="secondary" size="sm" className={styles.retry} onClick={onRetry}>
            {t("common.tryAgain")}
          </Button>
        </Alert>
      </div>
    );
  }
  return null;
}

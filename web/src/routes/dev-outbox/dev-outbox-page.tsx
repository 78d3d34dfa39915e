import type { OutboxMail } from "@gatehouse/client";
import { useTranslation } from "react-i18next";
import { Brand } from "../../components/brand";
import { LanguageSwitcher } from "../../components/language-switcher";
import { LoadingScreen } from "../../components/loading-screen";
import { PageHeading } from "../../components/page-heading";
import { Button } from "../../components/ui/button";
import { queries, useQuery } from "../../lib/data";
import { useDocumentTitle } from "../../lib/use-document-title";
import { NotFoundPage } from "../not-found/not-found-page";
import { OutboxMailCard } from "./outbox-mail-card";
import styles from "./dev-outbox-page.module.css";

/**
 * Development only: the mail the service kept instead of sending (no SMTP server configured). The service
 * answers GET /dev/outbox only then, and 404 in production or with a real mailer, where this page is a 404 too.
 */
export function DevOutboxPage() {
  const outbox = useQuery(queries.devOutbox());
  if (outbox.state === "loading") return <LoadingScreen />;
  if (outbox.state === "failed") return <NotFoundPage />;
  return <Outbox mails={outbox.data} refreshing={outbox.refreshing} onRefresh={() => void outbox.reload()} />;
}

function Outbox({ mails, refreshing, onRefresh }: { mails: OutboxMail[]; refreshing: boolean; onRefresh(): void }) {
  const { t } = useTranslation();
  useDocumentTitle(t("devOutbox.title"));
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <Brand compact />
        <LanguageSwitcher compact />
      </header>
      <main className={styles.main}>
        <div className={styles.top}>
          <PageHeading lead={t("devOutbox.lead")}>{t("devOutbox.heading")}</PageHeading>
          <Button variant="secondary" size="sm" loading={refreshing} loadingText={t("devOutbox.refreshing")} onClick={onRefresh}>
            {t("devOutbox.refresh")}
          </Button>
        </div>
        {mails.length === 0 ? (
          <p className={styles.empty}>{t("devOutbox.empty")}</p>
        ) : (
          <ol className={styles.list} aria-label={t("devOutbox.listLabel")}>
            {mails.map((mail) => (
              <li key={mail.id}>
                <OutboxMailCard mail={mail} />
              </li>
            ))}
          </ol>
        )}
      </main>
    </div>
  );
}

import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { Brand } from "./brand";
import { ImpersonationBanner } from "./impersonation-banner";
import { LanguageSwitcher } from "./language-switcher";
import styles from "./auth-layout.module.css";

export interface AuthLayoutProps {
  children: ReactNode;
  /** A line under the card, such as "New here? Create an account". */
  footer?: ReactNode;
}

/** The centred, single-card layout of the signed-out pages (sign-in, sign-up, error, not found). */
export function AuthLayout({ children, footer }: AuthLayoutProps) {
  const { t } = useTranslation();
  return (
    <>
      <ImpersonationBanner />
      <div className={styles.page}>
        <header className={styles.header}>
          <Brand />
          <div className={styles.tools}>
            <LanguageSwitcher />
          </div>
        </header>
        <main className={styles.main}>
          <div className={styles.card}>{children}</div>
          {footer ? <p className={styles.footer}>{footer}</p> : null}
          {/* Development builds only: the outbox page, where mail goes when no mail server is configured. */}
          {import.meta.env.DEV ? (
            <p className={styles.footer}>
              <Link to="/dev/outbox">{t("devOutbox.title")}</Link>
            </p>
          ) : null}
        </main>
      </div>
    </>
  );
}

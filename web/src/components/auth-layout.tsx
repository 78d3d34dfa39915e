import type { ReactNode } from "react";
import { Brand } from "./brand";
import styles from "./auth-layout.module.css";

export interface AuthLayoutProps {
  children: ReactNode;
  /** A line under the card, such as "New here? Create an account". */
  footer?: ReactNode;
}

/** The centred, single-card layout of the signed-out pages (sign-in, sign-up, error, not found). */
export function AuthLayout({ children, footer }: AuthLayoutProps) {
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <Brand />
      </header>
      <main className={styles.main}>
        <div className={styles.card}>{children}</div>
        {footer ? <p className={styles.footer}>{footer}</p> : null}
      </main>
    </div>
  );
}

import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import styles from "./brand.module.css";

export interface BrandProps {
  /** Hides the wordmark on narrow screens (the mark stays, and the link keeps its name). */
  compact?: boolean;
}

/** The Gatehouse mark and name, linking home. */
export function Brand({ compact = false }: BrandProps) {
  const { t } = useTranslation();
  return (
    <Link to="/" className={`${styles.brand} ${compact ? styles.compact : ""}`} aria-label={t("app.name")}>
      <svg className={styles.mark} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="currentColor" />
        <path d="M9.5 24.5V14.5a6.5 6.5 0 0 1 13 0v10" fill="none" stroke="#fff" strokeWidth="2.25" strokeLinecap="round" />
        <circle cx="16" cy="15.25" r="2.1" fill="#fff" />
        <path d="M16 17v4" stroke="#fff" strokeWidth="2.25" strokeLinecap="round" />
      </svg>
      <span className={styles.name}>{t("app.name")}</span>
    </Link>
  );
}

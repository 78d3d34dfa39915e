import { useTranslation } from "react-i18next";
import styles from "./last-used-badge.module.css";

/** Marks the sign-in method this browser used last (lib/last-used-method.ts); shown just before its button. */
export function LastUsedBadge() {
  const { t } = useTranslation();
  return <p className={styles.badge}>{t("signIn.lastUsed")}</p>;
}

import { useTranslation } from "react-i18next";
import { Spinner } from "./ui/spinner";
import styles from "./loading-screen.module.css";

/** Shown while the session is first read, instead of flashing a page the visitor may not be allowed to see. */
export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <div className={styles.screen}>
      <Spinner size="lg" label={t("app.loading")} />
    </div>
  );
}

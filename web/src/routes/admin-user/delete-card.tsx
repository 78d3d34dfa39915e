import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import type { UserCardProps } from "./user-actions";
import styles from "./admin-user-page.module.css";

/** Deletes the user for good, after asking. */
export function DeleteCard({ user, busy, onDelete }: Omit<UserCardProps, "act"> & { onDelete(): void }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  return (
    <Card title={t("admin.user.deleteHeading")} description={t("admin.user.deleteDescription")}>
      {confirming ? (
        <div className={styles.stack}>
          <Alert variant="error">{t("admin.user.confirmDelete", { email: user.email })}</Alert>
          <div className={styles.row}>
            <Button variant="destructive" loading={busy === "delete"} loadingText={t("admin.user.deleting")} onClick={onDelete}>
              {t("admin.user.confirmDeleteButton")}
            </Button>
            <Button variant="ghost" onClick={() => setConfirming(false)} disabled={busy === "delete"}>
              {t("admin.create.cancel")}
            </Button>
          </div>
        </div>
      ) : (
        <Button variant="danger" disabled={busy !== null} onClick={() => setConfirming(true)}>
          {t("admin.user.delete")}
        </Button>
      )}
    </Card>
  );
}

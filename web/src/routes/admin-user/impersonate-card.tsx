import { useTranslation } from "react-i18next";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import type { UserCardProps } from "./user-actions";
import styles from "./admin-user-page.module.css";

/**
 * Acting as the user. The service says whether it would accept (`impersonable`: not an administrator unless the
 * service allows that, no ban in force), so the button shows only then; otherwise the card says why not.
 */
export function ImpersonateCard({ user, busy, onImpersonate }: Omit<UserCardProps, "act"> & { onImpersonate(): void }) {
  const { t } = useTranslation();
  if (user.impersonable) {
    return (
      <Card
        title={t("admin.user.impersonateHeading")}
        description={t("admin.user.impersonateDescription")}
        actions={
          <Button
            variant="secondary"
            loading={busy === "impersonate"}
            loadingText={t("admin.user.impersonating")}
            disabled={busy !== null}
            onClick={onImpersonate}
          >
            {t("admin.user.impersonate")}
          </Button>
        }
      />
    );
  }
  const reason = user.administrator
    ? t("admin.user.cannotImpersonateAdmin")
    : user.banned
      ? t("admin.user.cannotImpersonateBanned")
      : t("admin.user.cannotImpersonate");
  return (
    <Card title={t("admin.user.impersonateHeading")} description={t("admin.user.impersonateDescription")}>
      <p className={styles.muted}>{reason}</p>
    </Card>
  );
}

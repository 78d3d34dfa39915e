import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { authClient } from "../../lib/auth-client";
import { isAdmin } from "../../lib/is-admin";
import type { UserCardProps } from "./user-actions";
import styles from "./admin-user-page.module.css";

/** The user's site role: user or administrator. */
export function RoleCard({ user, busy, act }: UserCardProps) {
  const { t } = useTranslation();
  const [role, setRole] = useState(isAdmin(user) ? "admin" : "user");
  return (
    <Card title={t("admin.user.roleHeading")} description={t("admin.user.roleDescription")}>
      <div className={styles.row}>
        <select className={styles.select} aria-label={t("admin.user.roleHeading")} value={role} onChange={(e) => setRole(e.target.value)}>
          <option value="user">{t("admin.roleUser")}</option>
          <option value="admin">{t("admin.roleAdmin")}</option>
        </select>
        <Button
          variant="secondary"
          loading={busy === "role"}
          loadingText={t("admin.user.savingRole")}
          disabled={busy !== null}
          onClick={() => void act("role", () => authClient.admin.setRole({ userId: user.id, role }), t("admin.user.roleSaved"))}
        >
          {t("admin.user.saveRole")}
        </Button>
      </div>
    </Card>
  );
}

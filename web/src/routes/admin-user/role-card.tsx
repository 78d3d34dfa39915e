import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Select } from "../../components/ui/select";
import { mutations } from "../../lib/data";
import { roleChoices, useSiteRoles } from "../../lib/site-roles";
import type { UserCardProps } from "./user-actions";
import styles from "./admin-user-page.module.css";

/** The user's site role, among the roles the service accepts (GET /admin/list-roles). */
export function RoleCard({ user, busy, act }: UserCardProps) {
  const { t } = useTranslation();
  const roles = useSiteRoles();
  // A user without a stored role has the default role.
  const current = user.role?.trim() || roles?.defaultRole || "user";
  const [chosen, setChosen] = useState<string | null>(null);
  const role = chosen ?? current;
  return (
    <Card title={t("admin.user.roleHeading")} description={t("admin.user.roleDescription")}>
      <div className={styles.row}>
        <Select
          className={styles.select}
          label={t("admin.user.roleHeading")}
          hideLabel
          options={roleChoices(t, roles, current)}
          value={role}
          onChange={setChosen}
        />
        <Button
          variant="secondary"
          loading={busy === "role"}
          loadingText={t("admin.user.savingRole")}
          disabled={busy !== null}
          onClick={() => void act("role", () => mutations.setRole({ userId: user.id, role }), t("admin.user.roleSaved"))}
        >
          {t("admin.user.saveRole")}
        </Button>
      </div>
    </Card>
  );
}

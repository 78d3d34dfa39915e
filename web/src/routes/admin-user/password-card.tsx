import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { PasswordField } from "../../components/ui/password-field";
import { authClient } from "../../lib/auth-client";
import { usePasswordBounds } from "../../lib/use-password-bounds";
import type { UserCardProps } from "./user-actions";
import styles from "./admin-user-page.module.css";

/** Sets a new password for the user (creating their password sign-in when they had none). */
export function PasswordCard({ user, busy, act }: UserCardProps) {
  const { t } = useTranslation();
  const [newPassword, setNewPassword] = useState("");
  const bounds = usePasswordBounds();

  function setPassword(event: FormEvent) {
    event.preventDefault();
    void act("password", () => authClient.admin.setUserPassword({ userId: user.id, newPassword }), t("admin.user.passwordSet")).then(
      (done) => {
        if (done) setNewPassword("");
      },
    );
  }

  return (
    <Card title={t("admin.user.passwordHeading")} description={t("admin.user.passwordDescription")}>
      <Form onSubmit={setPassword} className={styles.stack}>
        <PasswordField
          label={t("admin.user.newPassword")}
          revealLabel={t("common.showPassword")}
          hint={t("account.password.newHint", { min: bounds.minLength })}
          minLength={bounds.minLength}
          maxLength={bounds.maxLength}
          autoComplete="new-password"
          value={newPassword}
          onChange={(e) => setNewPassword(e.target.value)}
          required
        />
        <div>
          <Button type="submit" variant="secondary" loading={busy === "password"} loadingText={t("admin.user.settingPassword")} disabled={busy !== null}>
            {t("admin.user.setPassword")}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

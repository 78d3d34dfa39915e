import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import type { UserCardProps } from "./user-actions";
import styles from "./admin-user-page.module.css";

/** Sets a new password for the user (creating their password sign-in when they had none). */
export function PasswordCard({ user, busy, act }: UserCardProps) {
  const { t } = useTranslation();
  const [newPassword, setNewPassword] = useState("");

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
        <TextField
          label={t("admin.user.newPassword")}
          type="password"
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

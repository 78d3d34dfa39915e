import { useTranslation } from "react-i18next";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { PasswordField } from "../../components/ui/password-field";
import { mutations } from "../../lib/data";
import { useForm } from "../../lib/use-form";
import { usePasswordBounds } from "../../lib/use-password-bounds";
import type { UserCardProps } from "./user-actions";
import styles from "./admin-user-page.module.css";

/** Sets a new password for the user (creating their password sign-in when they had none). */
export function PasswordCard({ user, busy, act }: UserCardProps) {
  const { t } = useTranslation();
  const form = useForm({ newPassword: "" });
  const bounds = usePasswordBounds();

  const setPassword = form.onSubmit(async ({ newPassword }) => {
    const done = await act("password", () => mutations.setUserPassword({ userId: user.id, newPassword }), t("admin.user.passwordSet"));
    if (done) form.reset();
  });

  return (
    <Card title={t("admin.user.passwordHeading")} description={t("admin.user.passwordDescription")}>
      <Form ref={form.ref} onSubmit={setPassword} className={styles.stack}>
        <PasswordField
          label={t("admin.user.newPassword")}
          revealLabel={t("common.showPassword")}
          hint={t("account.password.newHint", { min: bounds.minLength })}
          minLength={bounds.minLength}
          maxLength={bounds.maxLength}
          autoComplete="new-password"
          required
          {...form.field("newPassword")}
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

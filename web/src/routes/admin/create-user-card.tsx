import type { User } from "@gatehouse/client";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { PasswordField } from "../../components/ui/password-field";
import { Select } from "../../components/ui/select";
import { TextField } from "../../components/ui/text-field";
import { mutations } from "../../lib/data";
import { roleChoices, useSiteRoles } from "../../lib/site-roles";
import { useForm } from "../../lib/use-form";
import { usePasswordBounds } from "../../lib/use-password-bounds";
import styles from "./create-user-card.module.css";

export interface CreateUserCardProps {
  onCreated(user: User): void;
  onCancel(): void;
}

/** Creates an account for someone else: name, address, an optional password and the role. */
export function CreateUserCard({ onCreated, onCancel }: CreateUserCardProps) {
  const { t } = useTranslation();
  const form = useForm({ name: "", email: "", password: "" });
  const bounds = usePasswordBounds();
  const roles = useSiteRoles();
  // The service's default role until another is chosen.
  const [chosen, setChosen] = useState<string | null>(null);
  const role = chosen ?? roles?.defaultRole ?? "user";

  // The service's refusal is said at the top of the form, which takes focus.
  const submit = form.onSubmit(async ({ name, email, password }) => {
    const { data, error } = await mutations.createUser({
      name: name.trim(),
      email: email.trim(),
      role,
      ...(password ? { password } : {}),
    });
    if (error) return error;
    onCreated(data.user);
  });

  return (
    <Card title={t("admin.create.heading")} description={t("admin.create.description")}>
      <Form ref={form.ref} onSubmit={submit} className={styles.form}>
        {form.error ? (
          <Alert variant="error" focusable>
            {form.error}
          </Alert>
        ) : null}
        <TextField label={t("admin.create.name")} required autoComplete="off" {...form.field("name")} />
        <TextField label={t("admin.create.email")} type="email" required autoComplete="off" {...form.field("email")} />
        <PasswordField
          label={t("admin.create.password")}
          hint={t("admin.create.passwordHint")}
          revealLabel={t("common.showPassword")}
          minLength={bounds.minLength}
          maxLength={bounds.maxLength}
          autoComplete="new-password"
          {...form.field("password")}
        />
        <Select label={t("admin.columnRole")} options={roleChoices(t, roles, role)} value={role} onChange={setChosen} />
        <div className={styles.actions}>
          <Button type="submit" loading={form.submitting} loadingText={t("admin.create.submitting")}>
            {t("admin.create.submit")}
          </Button>
          <Button type="button" variant="ghost" onClick={onCancel} disabled={form.submitting}>
            {t("admin.create.cancel")}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

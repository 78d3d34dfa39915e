import type { User } from "@gatehouse/client";
import { useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { PasswordField } from "../../components/ui/password-field";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { errorMessage } from "../../lib/auth-errors";
import { roleChoices, useSiteRoles } from "../../lib/site-roles";
import { usePasswordBounds } from "../../lib/use-password-bounds";
import styles from "./create-user-card.module.css";

export interface CreateUserCardProps {
  onCreated(user: User): void;
  onCancel(): void;
}

/** Creates an account for someone else: name, address, an optional password and the role. */
export function CreateUserCard({ onCreated, onCancel }: CreateUserCardProps) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const bounds = usePasswordBounds();
  const roles = useSiteRoles();
  // The service's default role until another is chosen.
  const [chosen, setChosen] = useState<string | null>(null);
  const role = chosen ?? roles?.defaultRole ?? "user";
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const alertRef = useRef<HTMLDivElement>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    const { data, error } = await authClient.admin.createUser({
      name: name.trim(),
      email: email.trim(),
      role,
      ...(password ? { password } : {}),
    });
    setBusy(false);
    if (error) {
      setFailure(errorMessage(t, error));
      requestAnimationFrame(() => alertRef.current?.focus());
      return;
    }
    onCreated(data.user);
  }

  return (
    <Card title={t("admin.create.heading")} description={t("admin.create.description")}>
      <Form onSubmit={(event) => void submit(event)} className={styles.form}>
        {failure ? (
          <Alert ref={alertRef} variant="error" focusable>
            {failure}
          </Alert>
        ) : null}
        <TextField label={t("admin.create.name")} value={name} onChange={(e) => setName(e.target.value)} required autoComplete="off" />
        <TextField
          label={t("admin.create.email")}
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
          autoComplete="off"
        />
        <PasswordField
          label={t("admin.create.password")}
          hint={t("admin.create.passwordHint")}
          revealLabel={t("common.showPassword")}
          minLength={bounds.minLength}
          maxLength={bounds.maxLength}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="new-password"
        />
        <label className={styles.control}>
          <span className={styles.label}>{t("admin.columnRole")}</span>
          <select className={styles.select} value={role} onChange={(e) => setChosen(e.target.value)}>
            {roleChoices(t, roles, role).map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
        <div className={styles.actions}>
          <Button type="submit" loading={busy} loadingText={t("admin.create.submitting")}>
            {t("admin.create.submit")}
          </Button>
          <Button type="button" variant="ghost" onClick={onCancel} disabled={busy}>
            {t("admin.create.cancel")}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

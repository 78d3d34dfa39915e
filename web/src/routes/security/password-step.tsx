import type { AuthError } from "@gatehouse/client";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Form } from "../../components/ui/form";
import { PasswordField } from "../../components/ui/password-field";
import { useForm } from "../../lib/use-form";
import styles from "./security-page.module.css";

export interface PasswordStepProps {
  /** What the password is for, above the field. */
  lead: string;
  submitLabel: string;
  submittingLabel: string;
  /** The button's look: `danger` for turning something off. */
  variant?: "primary" | "danger";
  /**
   * Whether to ask for it: a user without a password (signed up through a provider) proves a fresh session instead,
   * which the service checks; they only confirm.
   */
  hasPassword: boolean;
  /** Sends the change; answers the service's refusal, or null once it went through. */
  onSubmit(password: string | undefined): Promise<AuthError | null>;
  onCancel(): void;
}

/** The step-up in front of a change to the user's factors: their password (README.md, "Second factors"). */
export function PasswordStep(props: PasswordStepProps) {
  const { lead, submitLabel, submittingLabel, variant = "primary", hasPassword, onSubmit, onCancel } = props;
  const { t } = useTranslation();
  const form = useForm(
    { password: "" },
    {
      validate: ({ password }) => (hasPassword && !password ? { password: t("security.passwordRequired") } : {}),
      placement: { codes: { INVALID_PASSWORD: "password" }, messages: { INVALID_PASSWORD: t("security.wrongPassword") } },
    },
  );
  // The step opens on a click that asked for it: the field (or the button) is where the user goes next.
  const field = useRef<HTMLInputElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    (field.current ?? confirm.current)?.focus();
  }, []);
  const send = form.onSubmit(({ password }) => onSubmit(hasPassword ? password : undefined));

  return (
    <Form ref={form.ref} onSubmit={send} className={styles.step}>
      <p className={styles.stepLead}>{lead}</p>
      {form.error ? (
        <Alert variant="error" focusable>
          {form.error}
        </Alert>
      ) : null}
      {hasPassword ? (
        <PasswordField
          label={t("security.password")}
          revealLabel={t("common.showPassword")}
          name="current-password"
          autoComplete="current-password"
          ref={field}
          required
          {...form.field("password")}
        />
      ) : null}
      <div className={styles.buttons}>
        <Button
          ref={confirm}
          type="submit"
          variant={variant === "danger" ? "destructive" : "primary"}
          loading={form.submitting}
          loadingText={submittingLabel}
        >
          {submitLabel}
        </Button>
        <Button variant="secondary" disabled={form.submitting} onClick={onCancel}>
          {t("common.cancel")}
        </Button>
      </div>
    </Form>
  );
}

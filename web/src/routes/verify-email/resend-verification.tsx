import { useId, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { placeError } from "../../lib/auth-errors";
import { useFocusFirstError } from "../../lib/use-focus-first-error";
import { looksLikeEmail } from "../../lib/validation";
import styles from "./resend-verification.module.css";

export interface ResendVerificationProps {
  /** The signed-in user's address; null for a visitor, who is asked for it. */
  signedInEmail: string | null;
}

/** "Send a new link": to the signed-in user's own address, or to the address a visitor types. */
export function ResendVerification({ signedInEmail }: ResendVerificationProps) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const headingId = useId();
  const [email, setEmail] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstError(formRef, attempt);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const address = signedInEmail ?? email.trim();
    if (!signedInEmail) {
      const invalid = !address ? t("validation.emailRequired") : looksLikeEmail(address) ? null : t("validation.emailInvalid");
      if (invalid) {
        setFieldError(invalid);
        setAttempt((n) => n + 1);
        return;
      }
    }
    setSending(true);
    setFieldError(null);
    setFormError(null);
    setSentTo(null);
    const { error } = await authClient.sendVerificationEmail({ email: address });
    setSending(false);
    if (error) {
      const placed = placeError(t, error, { codes: { INVALID_EMAIL: "email" }, requestFields: { email: "email" } });
      setFieldError(signedInEmail ? null : (placed.fields.email ?? null));
      setFormError(signedInEmail ? (placed.form ?? placed.fields.email ?? null) : placed.form);
      setAttempt((n) => n + 1);
      return;
    }
    setSentTo(address);
  }

  return (
    <Form ref={formRef} className={styles.box} onSubmit={(event) => void onSubmit(event)} aria-labelledby={headingId}>
      <div className={styles.intro}>
        <h2 id={headingId} className={styles.heading}>
          {t("verifyEmail.resendHeading")}
        </h2>
        <p className={styles.lead}>
          {signedInEmail ? t("verifyEmail.resendTo", { email: signedInEmail }) : t("verifyEmail.resendLead")}
        </p>
      </div>
      {formError ? (
        <Alert variant="error" focusable>
          {formError}
        </Alert>
      ) : null}
      {sentTo ? (
        <Alert variant="success">
          {signedInEmail ? t("verifyEmail.resentSignedIn", { email: sentTo }) : t("verifyEmail.resent", { email: sentTo })}
        </Alert>
      ) : null}
      {signedInEmail ? null : (
        <TextField
          label={t("verifyEmail.email")}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          required
          value={email}
          error={fieldError ?? undefined}
          onChange={(event) => {
            setEmail(event.target.value);
            setFieldError(null);
          }}
        />
      )}
      <Button type="submit" fullWidth loading={sending} loadingText={t("verifyEmail.resending")}>
        {t("verifyEmail.resend")}
      </Button>
    </Form>
  );
}

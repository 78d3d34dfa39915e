import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { placeError } from "../../lib/auth-errors";
import { useForm } from "../../lib/use-form";
import { looksLikeEmail } from "../../lib/validation";
import styles from "./resend-verification.module.css";

export interface ResendVerificationProps {
  /** The signed-in user's address; null for a visitor, who is asked for it. */
  signedInEmail: string | null;
}

/** "Send a new link": to the signed-in user's own address, or to the address a visitor types. */
export function ResendVerification({ signedInEmail }: ResendVerificationProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const placement = { codes: { INVALID_EMAIL: "email" }, requestFields: { email: "email" } } as const;
  // The notice is the address a new link went to.
  const form = useForm<{ email: string }, string>(
    { email: "" },
    {
      validate: ({ email }) => {
        if (signedInEmail) return {};
        if (!email.trim()) return { email: t("validation.emailRequired") };
        return looksLikeEmail(email.trim()) ? {} : { email: t("validation.emailInvalid") };
      },
      placement,
    },
  );

  const onSubmit = form.onSubmit(async ({ email }) => {
    const address = signedInEmail ?? email.trim();
    const { error } = await authClient.sendVerificationEmail({ email: address });
    if (!error) return form.succeed(address);
    // The signed-in user's address is not a field here: what is wrong with it is said at the top.
    if (!signedInEmail) return error;
    const placed = placeError(t, error, placement);
    form.fail({}, placed.form ?? placed.fields.email ?? null);
  });
  const sentTo = form.notice;

  return (
    <Form ref={form.ref} className={styles.box} onSubmit={onSubmit} aria-labelledby={headingId}>
      <div className={styles.intro}>
        <h2 id={headingId} className={styles.heading}>
          {t("verifyEmail.resendHeading")}
        </h2>
        <p className={styles.lead}>
          {signedInEmail ? t("verifyEmail.resendTo", { email: signedInEmail }) : t("verifyEmail.resendLead")}
        </p>
      </div>
      {form.error ? (
        <Alert variant="error" focusable>
          {form.error}
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
          {...form.field("email")}
        />
      )}
      <Button type="submit" fullWidth loading={form.submitting} loadingText={t("verifyEmail.resending")}>
        {t("verifyEmail.resend")}
      </Button>
    </Form>
  );
}

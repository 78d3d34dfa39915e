import { useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { AdminUserDetail } from "@gatehouse/client";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Checkbox } from "../../components/ui/checkbox";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { placeError } from "../../lib/auth-errors";
import { useFocusFirstError } from "../../lib/use-focus-first-error";
import { looksLikeEmail } from "../../lib/validation";
import styles from "./admin-user-page.module.css";

type Field = "name" | "email";
type Outcome = { kind: "saved" | "unchanged" } | { kind: "error"; message: string } | null;

interface Props {
  user: AdminUserDetail;
  /** Reads the user again after a change (the heading and badges follow). */
  onSaved(): Promise<void>;
}

/**
 * The user's name and email address, and whether the address is verified. A new address has proved nothing, so
 * the service stores it as unverified unless the same request says otherwise: changing the address clears the
 * box, and the administrator ticks it again only when they know the address is theirs.
 */
export function ProfileCard({ user, onSaved }: Props) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [verified, setVerified] = useState(user.emailVerified);
  // Once the administrator sets the box themselves, a change of address no longer sets it for them.
  const [verifiedTouched, setVerifiedTouched] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [saving, setSaving] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useFocusFirstError(formRef, attempt);

  const sameAddress = (value: string) => value.trim().toLowerCase() === user.email;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const found: Partial<Record<Field, string>> = {};
    if (!name.trim()) found.name = t("admin.user.profile.nameRequired");
    if (!email.trim()) found.email = t("admin.user.profile.emailRequired");
    else if (!looksLikeEmail(email)) found.email = t("validation.emailInvalid");
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setOutcome(null);
      setAttempt((n) => n + 1);
      return;
    }

    const data: { name?: string; email?: string; emailVerified?: boolean } = {};
    if (name.trim() !== user.name) data.name = name.trim();
    if (!sameAddress(email)) data.email = email.trim();
    // Sent with a new address always, so what the box shows is what is stored.
    if (data.email !== undefined || verified !== user.emailVerified) data.emailVerified = verified;
    if (Object.keys(data).length === 0) return setOutcome({ kind: "unchanged" });

    setSaving(true);
    setOutcome(null);
    const { data: updated, error } = await authClient.admin.updateUser({ userId: user.id, data });
    if (error) {
      setSaving(false);
      const placed = placeError(t, error, {
        codes: { USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "email", INVALID_EMAIL: "email" },
        messages: { USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: t("admin.user.profile.emailTaken") },
      });
      setErrors(placed.fields);
      setOutcome(placed.form === null ? null : { kind: "error", message: placed.form });
      setAttempt((n) => n + 1);
      return;
    }
    setName(updated.name);
    setEmail(updated.email);
    setVerified(updated.emailVerified);
    setVerifiedTouched(false);
    await onSaved();
    setSaving(false);
    setOutcome({ kind: "saved" });
  }

  return (
    <Form ref={formRef} onSubmit={(event) => void onSubmit(event)}>
      <Card
        title={t("admin.user.profile.heading")}
        description={t("admin.user.profile.description")}
        footer={
          <>
            {/* Always present, so the change of text is announced. */}
            <p className={outcome?.kind === "saved" ? styles.saved : styles.note} role="status">
              {outcome?.kind === "saved" ? t("admin.user.profile.saved") : null}
              {outcome?.kind === "unchanged" ? t("admin.user.profile.noChanges") : null}
            </p>
            <Button type="submit" loading={saving} loadingText={t("admin.user.profile.saving")}>
              {t("admin.user.profile.save")}
            </Button>
          </>
        }
      >
        <div className={styles.stack}>
          {outcome?.kind === "error" ? (
            <Alert variant="error" focusable>
              {outcome.message}
            </Alert>
          ) : null}
          <TextField
            label={t("admin.user.profile.name")}
            name="name"
            autoComplete="off"
            required
            value={name}
            error={errors.name}
            onChange={(event) => {
              setName(event.target.value);
              setErrors(({ name: _cleared, ...rest }) => rest);
              setOutcome(null);
            }}
          />
          <TextField
            label={t("admin.user.profile.email")}
            name="email"
            type="email"
            autoComplete="off"
            spellCheck={false}
            required
            value={email}
            error={errors.email}
            onChange={(event) => {
              const value = event.target.value;
              setEmail(value);
              if (!verifiedTouched) setVerified(sameAddress(value) ? user.emailVerified : false);
              setErrors(({ email: _cleared, ...rest }) => rest);
              setOutcome(null);
            }}
          />
          <Checkbox
            label={t("admin.user.profile.verified")}
            hint={t("admin.user.profile.verifiedHint")}
            checked={verified}
            onChange={(event) => {
              setVerified(event.target.checked);
              setVerifiedTouched(true);
              setOutcome(null);
            }}
          />
        </div>
      </Card>
    </Form>
  );
}

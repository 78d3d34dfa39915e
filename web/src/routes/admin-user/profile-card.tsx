import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { AdminUserDetail } from "@gatehouse/client";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Checkbox } from "../../components/ui/checkbox";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { mutations } from "../../lib/data";
import { useForm } from "../../lib/use-form";
import { looksLikeEmail } from "../../lib/validation";
import styles from "./admin-user-page.module.css";

interface Props {
  user: AdminUserDetail;
}

/**
 * The user's name and email address, and whether the address is verified. A new address has proved nothing, so
 * the service stores it as unverified unless the same request says otherwise: changing the address clears the
 * box, and the administrator ticks it again only when they know the address is theirs.
 */
export function ProfileCard({ user }: Props) {
  const { t } = useTranslation();
  const form = useForm<{ name: string; email: string; verified: boolean }, "saved" | "unchanged">(
    () => ({ name: user.name, email: user.email, verified: user.emailVerified }),
    {
      validate: ({ name, email }) => {
        const found: { name?: string; email?: string } = {};
        if (!name.trim()) found.name = t("admin.user.profile.nameRequired");
        if (!email.trim()) found.email = t("admin.user.profile.emailRequired");
        else if (!looksLikeEmail(email)) found.email = t("validation.emailInvalid");
        return found;
      },
      placement: {
        codes: { USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "email", INVALID_EMAIL: "email" },
        messages: { USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: t("admin.user.profile.emailTaken") },
      },
    },
  );
  const { verified } = form.values;
  // Once the administrator sets the box themselves, a change of address no longer sets it for them.
  const [verifiedTouched, setVerifiedTouched] = useState(false);

  const sameAddress = (value: string) => value.trim().toLowerCase() === user.email;

  // Saving reads the user again (lib/data.ts), so the heading and badges follow.
  const onSubmit = form.onSubmit(async ({ name, email, verified }) => {
    const data: { name?: string; email?: string; emailVerified?: boolean } = {};
    if (name.trim() !== user.name) data.name = name.trim();
    if (!sameAddress(email)) data.email = email.trim();
    // Sent with a new address always, so what the box shows is what is stored.
    if (data.email !== undefined || verified !== user.emailVerified) data.emailVerified = verified;
    if (Object.keys(data).length === 0) return form.succeed("unchanged");
    const { data: updated, error } = await mutations.adminUpdateUser({ userId: user.id, data });
    if (error) return error;
    form.reset({ name: updated.name, email: updated.email, verified: updated.emailVerified });
    setVerifiedTouched(false);
    form.succeed("saved");
  });

  return (
    <Form ref={form.ref} onSubmit={onSubmit}>
      <Card
        title={t("admin.user.profile.heading")}
        description={t("admin.user.profile.description")}
        footer={
          <>
            {/* Always present, so the change of text is announced. */}
            <p className={form.notice === "saved" ? styles.saved : styles.note} role="status">
              {form.notice === "saved" ? t("admin.user.profile.saved") : null}
              {form.notice === "unchanged" ? t("admin.user.profile.noChanges") : null}
            </p>
            <Button type="submit" loading={form.submitting} loadingText={t("admin.user.profile.saving")}>
              {t("admin.user.profile.save")}
            </Button>
          </>
        }
      >
        <div className={styles.stack}>
          {form.error ? (
            <Alert variant="error" focusable>
              {form.error}
            </Alert>
          ) : null}
          <TextField
            label={t("admin.user.profile.name")}
            name="name"
            autoComplete="off"
            required
            {...form.field("name")}
          />
          <TextField
            label={t("admin.user.profile.email")}
            name="email"
            type="email"
            autoComplete="off"
            spellCheck={false}
            required
            {...form.field("email")}
            onChange={(event) => {
              const value = event.target.value;
              form.set("email", value);
              if (!verifiedTouched) form.set("verified", sameAddress(value) ? user.emailVerified : false);
            }}
          />
          <Checkbox
            label={t("admin.user.profile.verified")}
            hint={t("admin.user.profile.verifiedHint")}
            checked={verified}
            onChange={(event) => {
              form.set("verified", event.target.checked);
              setVerifiedTouched(true);
            }}
          />
        </div>
      </Card>
    </Form>
  );
}

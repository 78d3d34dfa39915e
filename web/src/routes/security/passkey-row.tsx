import type { Passkey } from "@gatehouse/client";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/ui/button";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { mutations } from "../../lib/data";
import { formatDate, formatDateTime } from "../../lib/format-time";
import { useForm } from "../../lib/use-form";
import list from "../../components/card-list.module.css";
import styles from "./security-page.module.css";

const KEY_ICON = "M7.5 8.25a3.75 3.75 0 1 1 0 7.5 3.75 3.75 0 0 1 0-7.5ZM11.25 12h9.5M17.5 12v3M20.75 12v2.25";

export interface PasskeyRowProps {
  passkey: Passkey;
  /** Its name, or the word for an unnamed one. */
  name: string;
  onRenamed(name: string): void;
  onDelete(): void;
}

/** One passkey: its name, when it was added and whether it syncs; renamed in place, deleted after a question. */
export function PasskeyRow({ passkey, name, onRenamed, onDelete }: PasskeyRowProps) {
  const { t, i18n } = useTranslation();
  const [renaming, setRenaming] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const wasRenaming = useRef(false);
  const form = useForm(
    { name: passkey.name ?? "" },
    {
      validate: ({ name: value }) => (value.trim() ? {} : { name: t("security.passkeys.nameRequired") }),
      placement: { requestFields: { name: "name" } },
    },
  );

  // Into the field as the form opens; back to the button that opened it as it closes.
  useEffect(() => {
    if (renaming) field.current?.focus();
    else if (wasRenaming.current) renameButton.current?.focus();
    wasRenaming.current = renaming;
  }, [renaming]);

  const onSubmit = form.onSubmit(async ({ name: value }) => {
    const { error } = await mutations.renamePasskey({ id: passkey.id, name: value.trim() });
    if (error) return error;
    setRenaming(false);
    onRenamed(value.trim());
    return null;
  });

  const synced = passkey.backedUp || passkey.deviceType === "multiDevice";

  return (
    <li className={`${list.row} ${styles.passkey}`}>
      <span className={styles.icon} aria-hidden="true">
        <svg viewBox="0 0 24 24" focusable="false">
          <path d={KEY_ICON} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </span>
      {renaming ? (
        <Form ref={form.ref} onSubmit={onSubmit} className={styles.rename}>
          {form.error ? <p className={styles.renameError}>{form.error}</p> : null}
          <TextField ref={field} label={t("security.passkeys.name")} name="passkey-name" maxLength={256} required {...form.field("name")} />
          <div className={styles.buttons}>
            <Button type="submit" size="sm" loading={form.submitting} loadingText={t("security.passkeys.saving")}>
              {t("security.passkeys.save")}
            </Button>
            <Button
              variant="secondary"
              size="sm"
              disabled={form.submitting}
              onClick={() => {
                form.reset({ name: passkey.name ?? "" });
                setRenaming(false);
              }}
            >
              {t("common.cancel")}
            </Button>
          </div>
        </Form>
      ) : (
        <>
          <div className={styles.details}>
            <p className={styles.name}>{name}</p>
            <p className={styles.meta}>
              <time dateTime={passkey.createdAt} title={formatDateTime(passkey.createdAt, i18n.language)}>
                {t("security.passkeys.addedOn", { date: formatDate(passkey.createdAt, i18n.language) })}
              </time>
              <span>{synced ? t("security.passkeys.synced") : t("security.passkeys.singleDevice")}</span>
            </p>
          </div>
          <div className={styles.rowActions}>
            <Button
              ref={renameButton}
              variant="secondary"
              size="sm"
              aria-label={t("security.passkeys.renameLabel", { name })}
              onClick={() => setRenaming(true)}
            >
              {t("security.passkeys.rename")}
            </Button>
            <Button variant="danger" size="sm" aria-label={t("security.passkeys.deleteLabel", { name })} onClick={onDelete}>
              {t("security.passkeys.delete")}
            </Button>
          </div>
        </>
      )}
    </li>
  );
}

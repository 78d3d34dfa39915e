import type { Passkey } from "@gatehouse/client";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CardListState } from "../../components/card-list-state";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { PasswordField } from "../../components/ui/password-field";
import { errorMessage } from "../../lib/auth-errors";
import { mutations, queries, useQuery } from "../../lib/data";
import { passkeyErrorMessage, PASSKEY_BROWSER_ERRORS, passkeysSupported } from "../../lib/passkeys";
import { useDeviceLabel } from "../../lib/use-device-label";
import { PasskeyRow } from "./passkey-row";
import list from "../../components/card-list.module.css";
import styles from "./security-page.module.css";

type Notice = { variant: "success" | "error"; text: string } | null;

/** Refusals of a delete that a password would settle (README.md, "Passkeys": step-up). */
const NEEDS_PASSWORD = new Set(["PASSWORD_REQUIRED_TO_DELETE_THIS_PASSKEY", "SESSION_IS_NOT_FRESH", "SESSION_NOT_FRESH"]);

export interface PasskeysCardProps {
  /** Whether the user has a password to confirm a delete with; null while unknown. */
  hasPassword: boolean | null;
}

/**
 * The user's passkeys (README.md, "Passkeys"): adding one on this device (named after it; renamed at will),
 * renaming and deleting. Deleting a passkey this session did not make, from a session that did not sign in with
 * one, asks for the password.
 */
export function PasskeysCard({ hasPassword }: PasskeysCardProps) {
  const { t } = useTranslation();
  const deviceLabel = useDeviceLabel();
  const load = useQuery(queries.passkeys());
  const [notice, setNotice] = useState<Notice>(null);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Passkey | null>(null);
  const [password, setPassword] = useState<string | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const noticeRef = useRef<HTMLDivElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const asking = password !== null;
  const supported = passkeysSupported();

  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  // The step-up field appears in the open dialog: the cursor goes there.
  useEffect(() => {
    if (asking) passwordRef.current?.focus();
  }, [asking]);

  const nameOf = (passkey: Passkey) => passkey.name || t("security.passkeys.unnamed");

  async function add() {
    setAdding(true);
    setNotice(null);
    const { error } = await mutations.addPasskey(deviceLabel(navigator.userAgent));
    setAdding(false);
    if (error?.code === PASSKEY_BROWSER_ERRORS.aborted) return;
    setNotice(error ? { variant: "error", text: passkeyErrorMessage(t, error) } : { variant: "success", text: t("security.passkeys.added") });
  }

  function askDelete(passkey: Passkey) {
    setNotice(null);
    setDialogError(null);
    setPassword(null);
    setDeleting(passkey);
  }

  async function confirmDelete() {
    if (!deleting) return;
    if (password !== null && !password) {
      setDialogError(t("security.passwordRequired"));
      return;
    }
    setBusy(true);
    setDialogError(null);
    const { error } = await mutations.deletePasskey({ id: deleting.id, ...(password ? { password } : {}) });
    setBusy(false);
    if (error && NEEDS_PASSWORD.has(error.code) && password === null && hasPassword !== false) {
      // Step-up: the same dialog asks for the password.
      setPassword("");
      return;
    }
    if (error) {
      setDialogError(error.code === "INVALID_PASSWORD" ? t("security.wrongPassword") : errorMessage(t, error));
      return;
    }
    const name = nameOf(deleting);
    setDeleting(null);
    setNotice({ variant: "success", text: t("security.passkeys.deleted", { name }) });
  }

  const passkeys = load.state === "ready" ? load.data : [];

  return (
    <Card
      id="passkeys"
      title={t("security.passkeys.heading")}
      description={t("security.passkeys.description")}
      actions={
        supported ? (
          <Button size="sm" loading={adding} loadingText={t("security.passkeys.adding")} onClick={() => void add()}>
            {t("security.passkeys.add")}
          </Button>
        ) : null
      }
      flush
    >
      {!supported ? (
        <div className={list.notice}>
          <Alert variant="info">{t("security.passkeys.unsupported")}</Alert>
        </div>
      ) : null}
      {notice ? (
        <div className={list.notice}>
          <Alert ref={noticeRef} variant={notice.variant} focusable>
            {notice.text}
          </Alert>
        </div>
      ) : null}

      <CardListState
        state={load.state}
        error={load.error ?? undefined}
        loadingText={t("security.passkeys.loading")}
        failedTitle={t("security.passkeys.loadFailed")}
        onRetry={() => void load.reload()}
      />

      {load.state === "ready" && passkeys.length === 0 ? (
        <div className={styles.empty}>
          <p className={styles.emptyTitle}>{t("security.passkeys.none")}</p>
          <p className={styles.muted}>{t("security.passkeys.noneHint")}</p>
        </div>
      ) : null}
      {load.state === "ready" && passkeys.length > 0 ? (
        <ul className={list.list} aria-label={t("security.passkeys.listLabel")}>
          {passkeys.map((passkey) => (
            <PasskeyRow
              key={passkey.id}
              passkey={passkey}
              name={nameOf(passkey)}
              onRenamed={(name) => setNotice({ variant: "success", text: t("security.passkeys.renamed", { name }) })}
              onDelete={() => askDelete(passkey)}
            />
          ))}
        </ul>
      ) : null}

      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? t("security.passkeys.deleteTitle", { name: nameOf(deleting) }) : ""}
        confirmLabel={t("security.passkeys.delete")}
        cancelLabel={t("common.cancel")}
        loading={busy}
        loadingText={t("security.passkeys.deleting")}
        message={
          <>
            {password !== null ? (
              // A form of its own, so that Enter in the password field deletes, as the dialog's button does.
              <form
                className={styles.dialogField}
                onSubmit={(event) => {
                  event.preventDefault();
                  if (!busy) void confirmDelete();
                }}
              >
                <p>{t("security.passkeys.deletePassword")}</p>
                <PasswordField
                  ref={passwordRef}
                  label={t("security.password")}
                  revealLabel={t("common.showPassword")}
                  name="current-password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                />
              </form>
            ) : null}
            {dialogError ? <Alert variant="error">{dialogError}</Alert> : null}
          </>
        }
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      >
        {t("security.passkeys.deleteText")}
      </ConfirmDialog>
    </Card>
  );
}

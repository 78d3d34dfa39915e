import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { FullOrganization } from "@gatehouse/client";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { errorMessage } from "../../lib/auth-errors";
import { formatDate } from "./format-date";
import { ROLES } from "./members-card";
import styles from "./organization-page.module.css";

interface Props {
  organization: FullOrganization;
  /** Only owners may invite owners. */
  owner: boolean;
  onChange(): Promise<void>;
}

/** Sending, resending and canceling invitations: owners and admins. */
export function InvitationsCard({ organization, owner, onChange }: Props) {
  const { t, i18n } = useTranslation();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<string>("member");
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const pending = organization.invitations.filter((invitation) => invitation.status === "pending");

  async function invite(address: string, inviteRole: string, resend: boolean, key: string) {
    setBusy(key);
    setError(null);
    setNotice(null);
    const result = await authClient.organization.inviteMember({
      email: address,
      role: inviteRole,
      organizationId: organization.id,
      resend,
    });
    setBusy(null);
    if (result.error) return setError(errorMessage(t, result.error));
    setNotice(t("organization.invitations.sent", { email: address }));
    if (!resend) setEmail("");
    await onChange();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!/^\S+@\S+\.\S+$/.test(email.trim())) return setError(t("validation.emailInvalid"));
    await invite(email.trim(), role, false, "send");
  }

  return (
    <Card title={t("organization.invitations.heading")} description={t("organization.invitations.description")} flush>
      <Form onSubmit={(event) => void onSubmit(event)} className={styles.inline}>
        <TextField
          className={styles.grow}
          label={t("organization.invitations.email")}
          name="email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <select
          className={styles.select}
          aria-label={t("organization.invitations.role")}
          value={role}
          onChange={(event) => setRole(event.target.value)}
        >
          {ROLES.filter((r) => owner || r !== "owner").map((r) => (
            <option key={r} value={r}>
              {t(`organization.roles.${r}`)}
            </option>
          ))}
        </select>
        <Button type="submit" loading={busy === "send"} loadingText={t("organization.invitations.sending")}>
          {t("organization.invitations.send")}
        </Button>
      </Form>
      {error || notice ? (
        <div className={styles.message}>
          {error ? (
            <Alert variant="error" focusable>
              {error}
            </Alert>
          ) : (
            <Alert variant="success">{notice}</Alert>
          )}
        </div>
      ) : null}
      {pending.length === 0 ? (
        <p className={styles.empty}>{t("organization.invitations.none")}</p>
      ) : (
        <ul className={styles.list}>
          {pending.map((invitation) => (
            <li key={invitation.id} className={styles.row}>
              <div className={styles.details}>
                <span className={styles.name}>{invitation.email}</span>
                <span className={styles.meta}>
                  {t("organization.invitations.meta", {
                    role: t(`organization.roles.${invitation.role as "member"}`, invitation.role),
                    date: formatDate(invitation.expiresAt, i18n.language),
                  })}
                </span>
              </div>
              <div className={styles.actions}>
                <Button
                  variant="secondary"
                  size="sm"
                  loading={busy === `resend-${invitation.id}`}
                  loadingText={t("organization.invitations.sending")}
                  onClick={() => void invite(invitation.email, invitation.role, true, `resend-${invitation.id}`)}
                >
                  {t("organization.invitations.resend")}
                </Button>
                <Button
                  variant="danger"
                  size="sm"
                  loading={busy === `cancel-${invitation.id}`}
                  loadingText={t("organization.invitations.canceling")}
                  onClick={() => {
                    setBusy(`cancel-${invitation.id}`);
                    void authClient.organization.cancelInvitation({ invitationId: invitation.id }).then(async (result) => {
                      setBusy(null);
                      if (result.error) setError(errorMessage(t, result.error));
                      await onChange();
                    });
                  }}
                >
                  {t("organization.invitations.cancel")}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { AuthError, FullOrganization, Invitation } from "@gatehouse/client";
import { ActionMessage, useActionReporter } from "../../components/action-message";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { Form } from "../../components/ui/form";
import { Select } from "../../components/ui/select";
import { TextField } from "../../components/ui/text-field";
import { errorMessage } from "../../lib/auth-errors";
import { mutations } from "../../lib/data";
import { useForm } from "../../lib/use-form";
import { formatDate } from "./format-date";
import { ROLES } from "./members-card";
import styles from "./organization-page.module.css";

interface Props {
  organization: FullOrganization;
  /** Only owners may invite owners. */
  owner: boolean;
}

/** Sending, resending and canceling invitations (canceling asks first): owners and admins. */
export function InvitationsCard({ organization, owner }: Props) {
  const { t, i18n } = useTranslation();
  const report = useActionReporter("invitations");
  const form = useForm(
    { email: "", role: "member" },
    { validate: ({ email }) => (/^\S+@\S+\.\S+$/.test(email.trim()) ? {} : { email: t("validation.emailInvalid") }) },
  );
  const [busy, setBusy] = useState<string | null>(null);
  const [canceling, setCanceling] = useState<Invitation | null>(null);
  const pending = organization.invitations.filter((invitation) => invitation.status === "pending");

  async function run(key: string, call: () => Promise<{ error: AuthError | null }>, success: string): Promise<boolean> {
    setBusy(key);
    report.start();
    const { error } = await call();
    setBusy(null);
    if (error) {
      report.fail(errorMessage(t, error));
      return false;
    }
    report.succeed(success);
    return true;
  }

  async function invite(address: string, inviteRole: string, resend: boolean, key: string) {
    return run(
      key,
      () => mutations.inviteMember({ email: address, role: inviteRole, organizationId: organization.id, resend }),
      t("organization.invitations.sent", { email: address }),
    );
  }

  const send = form.onSubmit(async ({ email, role }) => {
    if (await invite(email.trim(), role, false, "send")) form.reset({ email: "", role });
  });

  async function cancel(invitation: Invitation) {
    await run(
      `cancel-${invitation.id}`,
      () => mutations.cancelInvitation({ invitationId: invitation.id }),
      t("organization.invitations.canceled", { email: invitation.email }),
    );
    setCanceling(null);
  }

  return (
    <Card title={t("organization.invitations.heading")} description={t("organization.invitations.description")} flush>
      <Form
        ref={form.ref}
        className={styles.inline}
        onSubmit={(event) => {
          report.start();
          send(event);
        }}
      >
        <TextField
          className={styles.grow}
          label={t("organization.invitations.email")}
          name="email"
          type="email"
          autoComplete="off"
          {...form.field("email")}
        />
        <Select
          label={t("organization.invitations.role")}
          options={ROLES.filter((r) => owner || r !== "owner").map((r) => ({ value: r, label: t(`organization.roles.${r}`) }))}
          value={form.values.role}
          onChange={(role) => form.set("role", role)}
        />
        <Button type="submit" loading={busy === "send"} loadingText={t("organization.invitations.sending")}>
          {t("organization.invitations.send")}
        </Button>
      </Form>
      <ActionMessage scope="invitations" className={styles.message} />
      {pending.length === 0 ? (
        <p className={styles.empty}>{t("organization.invitations.none")}</p>
      ) : (
        <ul className={styles.list}>
          {pending.map((invitation) => (
            <li key={invitation.id} className={styles.row} data-invitation={invitation.email}>
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
                  disabled={busy !== null}
                  loading={busy === `resend-${invitation.id}`}
                  loadingText={t("organization.invitations.sending")}
                  aria-label={`${t("organization.invitations.resend")}: ${invitation.email}`}
                  onClick={() => void invite(invitation.email, invitation.role, true, `resend-${invitation.id}`)}
                >
                  {t("organization.invitations.resend")}
                </Button>
                <Button
                  variant="danger"
                  size="sm"
                  disabled={busy !== null}
                  aria-label={`${t("organization.invitations.cancel")}: ${invitation.email}`}
                  onClick={() => setCanceling(invitation)}
                >
                  {t("organization.invitations.cancel")}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={canceling !== null}
        title={t("organization.invitations.cancelTitle", { email: canceling?.email ?? "" })}
        confirmLabel={t("organization.invitations.cancelConfirm")}
        cancelLabel={t("organization.invitations.keep")}
        loading={canceling !== null && busy === `cancel-${canceling.id}`}
        loadingText={t("organization.invitations.canceling")}
        onConfirm={() => canceling && void cancel(canceling)}
        onClose={() => setCanceling(null)}
      >
        <p>{t("organization.invitations.cancelText")}</p>
      </ConfirmDialog>
    </Card>
  );
}

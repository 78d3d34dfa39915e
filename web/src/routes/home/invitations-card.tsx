import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { UserInvitation } from "@gatehouse/client";
import { ActionMessage, useActionReporter } from "../../components/action-message";
import { CardListState } from "../../components/card-list-state";
import { InvitationAnswerButtons } from "../../components/invitation-answer-buttons";
import { Card } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { errorMessage } from "../../lib/auth-errors";
import { formatDate } from "../../lib/format-time";
import { queries, useQuery } from "../../lib/data";
import { UNVERIFIED_FOR_INVITATIONS, useAnswerInvitation } from "../../lib/pending-invitations";
import styles from "./invitations-card.module.css";

/**
 * The user's pending invitations, each with accept and decline (declining asks first). Nothing shows when
 * there are none, nor while the address is unverified (the verification banner above asks for that first).
 */
export function InvitationsCard() {
  const { t, i18n } = useTranslation();
  const pending = useQuery(queries.invitations());
  const answer = useAnswerInvitation();
  const report = useActionReporter("invitations");
  const [busy, setBusy] = useState<string | null>(null);
  const [declining, setDeclining] = useState<UserInvitation | null>(null);

  if (pending.state === "loading") return null;
  if (pending.state === "failed" && pending.error.code === UNVERIFIED_FOR_INVITATIONS) return null;
  if (pending.state === "ready" && pending.data.length === 0) return <ActionMessage scope="invitations" />;

  async function accept(invitation: UserInvitation) {
    setBusy(`accept-${invitation.id}`);
    report.start();
    const error = await answer.accept(invitation);
    if (!error) return;
    setBusy(null);
    report.fail(errorMessage(t, error));
  }

  async function decline(invitation: UserInvitation) {
    setBusy(`reject-${invitation.id}`);
    report.start();
    const error = await answer.reject(invitation);
    setBusy(null);
    setDeclining(null);
    if (error) return report.fail(errorMessage(t, error));
    report.succeed(t("organization.invitation.rejected", { organization: invitation.organizationName }));
  }

  return (
    <Card title={t("organization.invitation.pendingHeading")} description={t("organization.invitation.pendingDescription")} flush>
      <ActionMessage scope="invitations" className={styles.message} />
      {pending.state === "failed" ? (
        <CardListState
          state="failed"
          error={pending.error}
          loadingText={t("app.loading")}
          failedTitle={t("organization.invitation.listFailed")}
          onRetry={() => void pending.reload()}
        />
      ) : (
        <ul className={styles.list}>
          {pending.data.map((invitation) => (
            <li key={invitation.id} className={styles.row} data-invitation={invitation.organizationName}>
              <div className={styles.details}>
                <span className={styles.name}>{invitation.organizationName}</span>
                <span className={styles.meta}>
                  {t("organization.invitation.pendingMeta", {
                    role: t(`organization.roles.${invitation.role as "member"}`, invitation.role),
                    date: formatDate(invitation.expiresAt, i18n.language),
                  })}
                </span>
              </div>
              <InvitationAnswerButtons
                invitation={invitation}
                busy={busy}
                onAccept={(chosen) => void accept(chosen)}
                onDecline={setDeclining}
                className={styles.actions}
              />
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={declining !== null}
        title={t("organization.invitation.rejectTitle", { organization: declining?.organizationName ?? "" })}
        confirmLabel={t("organization.invitation.rejectConfirm")}
        cancelLabel={t("common.cancel")}
        loading={declining !== null && busy === `reject-${declining.id}`}
        loadingText={t("organization.invitation.rejecting")}
        onConfirm={() => declining && void decline(declining)}
        onClose={() => setDeclining(null)}
      >
        <p>{t("organization.invitation.rejectText")}</p>
      </ConfirmDialog>
    </Card>
  );
}

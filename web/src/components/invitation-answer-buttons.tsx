import { useTranslation } from "react-i18next";
import type { UserInvitation } from "@gatehouse/client";
import { Button } from "./ui/button";

export interface InvitationAnswerButtonsProps {
  invitation: UserInvitation;
  /** The action running on the page (`accept-<id>`, `reject-<id>`, …), or null: every button waits while one runs. */
  busy: string | null;
  onAccept(invitation: UserInvitation): void;
  /** Declining asks first: this opens the caller's confirmation dialog. */
  onDecline(invitation: UserInvitation): void;
  className?: string | undefined;
}

/** Accept and decline for one pending invitation, named with its organization for screen readers. */
export function InvitationAnswerButtons({ invitation, busy, onAccept, onDecline, className }: InvitationAnswerButtonsProps) {
  const { t } = useTranslation();
  return (
    <span className={className}>
      <Button
        size="sm"
        disabled={busy !== null}
        loading={busy === `accept-${invitation.id}`}
        loadingText={t("organization.invitation.accepting")}
        aria-label={`${t("organization.invitation.accept")}: ${invitation.organizationName}`}
        onClick={() => onAccept(invitation)}
      >
        {t("organization.invitation.accept")}
      </Button>
      <Button
        size="sm"
        variant="secondary"
        disabled={busy !== null}
        aria-label={`${t("organization.invitation.reject")}: ${invitation.organizationName}`}
        onClick={() => onDecline(invitation)}
      >
        {t("organization.invitation.reject")}
      </Button>
    </span>
  );
}

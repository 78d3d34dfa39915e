import { useCallback, useEffect, useState } from "react";
import { useNavigate } from "react-router";
import type { AuthError, UserInvitation } from "@gatehouse/client";
import { authClient } from "./auth-client";
import { notifyOrganizationsChanged, useOrganizationsVersion } from "./organization-events";
import { organizationNotice } from "./organization-notice";

export type PendingInvitations =
  | { state: "loading" }
  | { state: "failed"; error: AuthError }
  | { state: "ready"; invitations: UserInvitation[] };

/** The code the service answers while the user's address is unverified (invitations are then hidden). */
export const UNVERIFIED_FOR_INVITATIONS = "EMAIL_VERIFICATION_REQUIRED_TO_VIEW_OR_LIST_INVITATIONS_FOR_THE_SESSION_EMAIL";

/**
 * The signed-in user's pending invitations, read again whenever organizations change (an answer given
 * elsewhere on the page, in the header or on the invitation page).
 */
export function usePendingInvitations(): PendingInvitations & { reload(): void } {
  const version = useOrganizationsVersion();
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<PendingInvitations>({ state: "loading" });

  useEffect(() => {
    let live = true;
    void authClient.organization.listUserInvitations().then(({ data, error }) => {
      if (!live) return;
      setResult(error ? { state: "failed", error } : { state: "ready", invitations: data });
    });
    return () => {
      live = false;
    };
  }, [version, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...result, reload };
}

/**
 * Accepting and declining an invitation: accepting joins the organization, makes it the active one and
 * opens its page, which says so; declining settles it. Both tell the header and lists to read again.
 */
export function useAnswerInvitation() {
  const navigate = useNavigate();
  return {
    async accept(invitation: { id: string; organizationName: string }): Promise<AuthError | null> {
      const { error } = await authClient.organization.acceptInvitation({ invitationId: invitation.id });
      if (error) return error;
      notifyOrganizationsChanged();
      void navigate("/organization", { state: organizationNotice("joined", invitation.organizationName) });
      return null;
    },
    async reject(invitation: { id: string }): Promise<AuthError | null> {
      const { error } = await authClient.organization.rejectInvitation({ invitationId: invitation.id });
      if (!error) notifyOrganizationsChanged();
      return error;
    },
  };
}

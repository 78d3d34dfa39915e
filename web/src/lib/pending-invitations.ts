import { useNavigate } from "react-router";
import type { AuthError } from "@gatehouse/client";
import { authClient } from "./auth-client";
import { mutations } from "./data";
import { organizationNotice } from "./organization-notice";

/** The code the service answers while the user's address is unverified (invitations are then hidden). */
export const UNVERIFIED_FOR_INVITATIONS = "EMAIL_VERIFICATION_REQUIRED_TO_VIEW_OR_LIST_INVITATIONS_FOR_THE_SESSION_EMAIL";

/**
 * Accepting and declining an invitation: accepting joins the organization, makes it the active one and
 * opens its page, which says so; declining settles it. An organization that requires two-step sign-in the user
 * has not set up is joined but not made active: the home page then says so, and why. The data layer reads again what either changed (the
 * invitations, the organizations, the session's active organization).
 */
export function useAnswerInvitation() {
  const navigate = useNavigate();
  return {
    async accept(invitation: { id: string; organizationName: string }): Promise<AuthError | null> {
      const { data, error } = await mutations.acceptInvitation({ invitationId: invitation.id });
      if (error) return error;
      // The session was read again by the mutation: the organization is active unless its policy refused it.
      const active = authClient.$session.get().data?.session.activeOrganizationId;
      const page = active === data.member.organizationId ? "/organization" : "/";
      void navigate(page, { state: organizationNotice("joined", invitation.organizationName) });
      return null;
    },
    async reject(invitation: { id: string }): Promise<AuthError | null> {
      const { error } = await mutations.rejectInvitation({ invitationId: invitation.id });
      return error;
    },
  };
}

/**
 * The organization error catalogue: SPEC.md section 8's messages where it gives one, API-NOTES.md 2.2's
 * otherwise. Each key is its message's code (http/errors.ts codeOf); every catalogue is listed in
 * http/error-catalogue.ts.
 */
export const ORG_MESSAGES = {
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION: "You are not allowed to create a new organization",
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS: "You have reached the maximum number of organizations",
  ORGANIZATION_ALREADY_EXISTS: "Organization already exists",
  SLUG_IS_TAKEN: "slug is taken",
  ORGANIZATION_SLUG_ALREADY_TAKEN: "Organization slug already taken",
  ORGANIZATION_NOT_FOUND: "Organization not found",
  ORGANIZATION_ID_IS_REQUIRED: "Organization ID is required",
  ORGANIZATION_DELETION_IS_DISABLED: "Organization deletion is disabled",
  USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION: "User is not a member of the organization",
  YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION: "You are not a member of this organization",
  NOT_ALLOWED_TO_UPDATE_OR_DELETE_THIS_ORGANIZATION: "not allowed to update or delete this organization",
  NO_ACTIVE_ORGANIZATION: "No active organization",
  EITHER_USERID_OR_SESSION_IS_REQUIRED: "Either userId or session is required",
  MEMBER_NOT_FOUND: "Member not found",
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: "User is already a member of this organization",
  ROLE_NOT_FOUND: "Role not found",
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER: "You cannot leave the organization as the only owner",
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER: "You cannot leave the organization without an owner",
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER: "You are not allowed to delete this member",
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER: "You are not allowed to update this member",
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_MEMBER: "You are not allowed to create a new member",
  ORGANIZATION_MEMBERSHIP_LIMIT_REACHED: "Organization membership limit reached",
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION: "You are not allowed to invite users to this organization",
  YOU_ARE_NOT_ALLOWED_TO_INVITE_A_USER_WITH_THIS_ROLE: "You are not allowed to invite a user with this role",
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: "User is already invited to this organization",
  INVITATION_LIMIT_REACHED: "Invitation limit reached",
  INVITATION_NOT_FOUND: "Invitation not found",
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION: "You are not the recipient of the invitation",
  EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION: "Email verification required before accepting or rejecting invitation",
  EMAIL_VERIFICATION_REQUIRED_TO_VIEW_OR_LIST_INVITATIONS_FOR_THE_SESSION_EMAIL: "Email verification required to view or list invitations for the session email",
  YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION: "You are not allowed to cancel this invitation",
  YOU_ARE_NOT_ALLOWED_TO_LIST_INVITATIONS_FOR_THIS_ORGANIZATION: "You are not allowed to list invitations for this organization",
  INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION: "Inviter is no longer a member of the organization",
  /** Our own: the inviter is still a member, but their role may no longer invite at the invitation's role. */
  INVITER_IS_NO_LONGER_ALLOWED_TO_INVITE_A_USER_WITH_THIS_ROLE: "Inviter is no longer allowed to invite a user with this role",
  FAILED_TO_RETRIEVE_INVITATION: "Failed to retrieve invitation",
  USER_EMAIL_CANNOT_BE_PASSED_FOR_CLIENT_SIDE_API_CALLS: "User email cannot be passed for client side API calls.",
  TEAM_NOT_FOUND: "Team not found",
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS: "You have reached the maximum number of teams",
  UNABLE_TO_REMOVE_LAST_TEAM: "Unable to remove last team",
  YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION: "You are not allowed to create teams in this organization",
  NOT_ALLOWED_TO_DELETE_TEAMS_OR_UPDATE_THIS_TEAM: "not allowed to delete teams or update this team",
  TEAM_MEMBER_LIMIT_REACHED: "Team member limit reached",
  USER_IS_NOT_A_MEMBER_OF_THE_TEAM: "User is not a member of the team",
  YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM: "You do not have an active team",
  YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER: "You are not allowed to remove a team member",
  /** has-permission's answers (`{ success: false, error }`, access-control.ts checkAccess). */
  YOU_ARE_NOT_ALLOWED_TO_ACCESS_RESOURCE: "You are not allowed to access resource",
  UNAUTHORIZED_TO_ACCESS_RESOURCE: "unauthorized to access resource",
  /** Ours (README "Organization policy and administrators"): the organization requires a second factor the caller lacks. */
  TWO_FACTOR_REQUIRED_BY_ORGANIZATION: "Two-factor required by organization",
  /** Ours: turning requireTwoFactor on needs a second factor of one's own (or one would lock oneself out). */
  YOU_MUST_ENABLE_TWO_FACTOR_BEFORE_REQUIRING_IT: "You must enable two-factor before requiring it",
} as const;

/** Codes sent with a message they are not derived from alone (see http/error-catalogue.ts). */
export const ORG_FIXED_CODES = {
  /** SPEC.md section 8 spells reject-invitation's refusal with an exclamation mark; same code. */
  INVITATION_NOT_FOUND: "Invitation not found!",
} as const;

/** Not errors: the `message` of a successful removal. */
export const ORG_SUCCESS_MESSAGES = {
  TEAM_REMOVED: "Team removed successfully.",
  TEAM_MEMBER_REMOVED: "Team member removed successfully.",
} as const;

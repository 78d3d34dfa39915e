/**
 * The shapes the server sends and accepts (API-NOTES.md section 2). Timestamps stay the ISO-8601 strings
 * that arrive on the wire: the client never turns them into Date objects, so what a call returns is
 * exactly what the server said and can be stored or sent on as JSON unchanged. Use `new Date(value)`
 * where a Date is needed.
 */
export type ISODateString = string;

/** The public user object every answer carries. */
export interface User {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  createdAt: ISODateString;
  updatedAt: ISODateString;
  username: string | null;
  displayUsername: string | null;
  role: string | null;
  banned: boolean | null;
  banReason: string | null;
  banExpires: ISODateString | null;
  /** The language the user's mail is written in ("de"), or null when never chosen. */
  lang: string | null;
}

export interface Session {
  id: string;
  token: string;
  userId: string;
  expiresAt: ISODateString;
  createdAt: ISODateString;
  updatedAt: ISODateString;
  ipAddress: string | null;
  userAgent: string | null;
  activeOrganizationId: string | null;
  activeTeamId: string | null;
  impersonatedBy: string | null;
}

/** What GET /get-session answers for a signed-in caller (it answers null otherwise). */
export interface SessionData {
  session: Session;
  user: User;
}

export interface SignUpEmailBody {
  name: string;
  email: string;
  password: string;
  image?: string | null;
  callbackURL?: string;
  rememberMe?: boolean;
  /** Optional: 3–30 letters, digits, "_" or "." by default (GET /features has the bounds); stored in lower case. */
  username?: string;
  /** How the username is shown; defaults to the username as typed. */
  displayUsername?: string;
}

export interface SignUpEmailData {
  /** Null when the server does not sign the new user in (auto sign-in off, or verification required). */
  token: string | null;
  user: User;
}

export interface SignInEmailBody {
  email: string;
  password: string;
  /** Where the browser goes after signing in; the answer then carries `url` and `redirect: true`. */
  callbackURL?: string;
  /** Defaults to true on the server. */
  rememberMe?: boolean;
}

export interface SignInEmailData {
  redirect: boolean;
  token: string;
  url?: string;
  user: User;
}

export interface SignInUsernameBody {
  /** Compared in lower case, so "Bob_01" signs in "bob_01". */
  username: string;
  password: string;
  /** Where the browser goes after signing in; the answer then carries `url` and `redirect: true`. */
  callbackURL?: string;
  /** Defaults to true on the server. */
  rememberMe?: boolean;
}

/** The same answer as a sign-in by email. */
export type SignInUsernameData = SignInEmailData;

export interface IsUsernameAvailableBody {
  username: string;
}

/** Whether nobody holds the username (compared in lower case); a username breaking the rules is a 422 instead. */
export interface IsUsernameAvailableData {
  available: boolean;
}

export interface GetSessionQuery {
  /** Read the session from the database, not from the signed cookie cache. */
  disableCookieCache?: boolean;
  /** Do not extend the session's expiry on this read. */
  disableRefresh?: boolean;
}

export interface SignOutData {
  success: boolean;
}

export interface RevokeSessionBody {
  token: string;
}

export interface StatusData {
  status: boolean;
}

export interface UpdateUserBody {
  name?: string;
  image?: string | null;
  /** The language of the user's mail: one of ru, uk, en, es, de, pl, fr, tr (or SPEC.md's numeric id). */
  lang?: string | number;
  /** A new username (stored in lower case); displayUsername then follows it as typed unless sent too. */
  username?: string;
  displayUsername?: string;
}

export interface SendVerificationEmailBody {
  /** The address to verify; when signed in it must be the user's own, unverified address. */
  email: string;
  /** Where the mailed link lands after verifying; "/verify-email" by default. */
  callbackURL?: string;
}

export interface VerifyEmailQuery {
  token: string;
  /** Redirect here instead of answering JSON (with `?error=…` on failure). */
  callbackURL?: string;
}

export interface VerifyEmailData {
  status: boolean;
  user: User;
  /**
   * True when the link proved an address someone else could have registered: the password set before the proof
   * was removed and every session ended; the owner chooses a new password by reset.
   */
  passwordRemoved?: boolean;
}

export interface ForgetPasswordBody {
  email: string;
  /** Where the mailed link lands, with `?token=…` or `?error=INVALID_TOKEN`; "/reset-password" by default. */
  redirectTo?: string;
}

export interface RequestPasswordResetData {
  status: boolean;
  message: string;
}

export interface ResetPasswordBody {
  newPassword: string;
  /** The token from the reset link; it may also be sent in the query string. */
  token?: string;
}

export interface ResetPasswordQuery {
  token?: string;
}

export interface ChangePasswordBody {
  currentPassword: string;
  newPassword: string;
  /** End every other session; the caller then gets a new session (and token). */
  revokeOtherSessions?: boolean;
}

export interface ChangePasswordData {
  /** The new session's token when other sessions were revoked, else null. */
  token: string | null;
  user: User;
}

export interface ChangeEmailBody {
  newEmail: string;
  /** Where the mailed link lands; the server's defaults are "/verify-email" and "/account?emailChanged=1". */
  callbackURL?: string;
}

export interface DeleteUserBody {
  /** Delete at once, proven by the password. */
  password?: string;
  /** Delete at once, proven by the token of a mailed deletion link. */
  token?: string;
  /** Where the mailed deletion link lands; "/account-deleted" by default. */
  callbackURL?: string;
}

export interface DeleteUserData {
  success: boolean;
  /** "User deleted", or "Verification email sent" when a confirmation link was mailed instead. */
  message: string;
}

export interface DeleteUserCallbackQuery {
  token: string;
  callbackURL?: string;
}

/** A message the development outbox kept (GET /dev/outbox; only without SMTP, never in production). */
export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Which message it is: "verification", "resetPassword", "changeEmail", "deleteAccount", … */
  kind: string;
  sentAt: ISODateString;
}

export interface OkData {
  ok: boolean;
}

/** GET /features: what the deployment has turned on. */
export interface FeaturesData {
  emailAndPassword: {
    enabled: boolean;
    signUp: boolean;
    minPasswordLength: number;
    maxPasswordLength: number;
    requireEmailVerification: boolean;
  };
  emailVerification: boolean;
  resetPassword: boolean;
  changeEmail: boolean;
  deleteUser: { enabled: boolean; byEmail: boolean };
  username: { minLength: number; maxLength: number };
  /** The ids of the configured social providers (built-in and generic OpenID Connect). */
  socialProviders: string[];
  /** The same providers with the names to show on their buttons. */
  providers: { id: string; name: string }[];
}

export interface SignInSocialBody {
  /** A built-in provider id ("google", "github", …) or a configured OpenID provider's id. */
  provider: string;
  callbackURL?: string;
  newUserCallbackURL?: string;
  errorCallbackURL?: string;
  /** Answer the provider URL without a Location header (a browser app navigates itself). */
  disableRedirect?: boolean;
  /** Sign in with an ID token the app already holds instead of a redirect. */
  idToken?: {
    token: string;
    nonce?: string;
    accessToken?: string;
    refreshToken?: string;
    /** Milliseconds since the epoch. */
    expiresAt?: number;
    /** Apple: the name and email a native app received on the first sign-in. */
    user?: { name?: { firstName?: string; lastName?: string }; email?: string };
  };
  scopes?: string[];
  requestSignUp?: boolean;
  loginHint?: string;
}

/** The provider's authorization URL, or (with an ID token) the new session's token and user. */
export type SignInSocialData = { url: string; redirect: boolean } | { redirect: false; token: string; url?: string; user: User };

export interface LinkSocialBody {
  provider: string;
  callbackURL?: string;
  errorCallbackURL?: string;
  disableRedirect?: boolean;
  scopes?: string[];
  idToken?: SignInSocialBody["idToken"];
}

export type LinkSocialData = { url: string; redirect: boolean } | { url: ""; status: true; redirect: false };

/** One of the user's accounts: "credential" (the password) or a provider's. Never its tokens. */
export interface LinkedAccount {
  id: string;
  providerId: string;
  /** The older name of providerId. */
  provider: string;
  /** The provider's id of the person (for "credential", the user id). */
  accountId: string;
  userId: string;
  createdAt: string;
  updatedAt: string;
  scopes: string[];
}

/** SPEC.md's form (providerId, with accountId when there are several) or the newer form (the account row's id). */
export type UnlinkAccountBody = { providerId: string; accountId?: string } | { accountId: string };

/** Which linked account a token route is about. */
export interface AccountSelection {
  providerId?: string;
  accountId?: string;
  /** Server-side callers only. */
  userId?: string;
}

export interface RefreshTokenData {
  accessToken: string | null;
  refreshToken: string | null;
  accessTokenExpiresAt: string | null;
  refreshTokenExpiresAt: string | null;
  scope: string | null;
  idToken: string | null;
  providerId: string;
  accountId: string;
}

export interface AccessTokenData {
  accessToken: string;
  accessTokenExpiresAt: string | null;
  scopes: string[];
  idToken: string | null;
}

export interface AccountInfoData {
  user: { id: string; name: string; email: string | null; image: string | null; emailVerified: boolean };
  /** The provider's profile as it answered. */
  data: Record<string, unknown>;
  account: { id: string; providerId: string; accountId: string };
}

/** An organization as every /organization route answers it. */
export interface Organization {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: ISODateString;
}

/** A membership; `role` is one role or several, comma-joined ("admin,member"). */
export interface Member {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  createdAt: ISODateString;
}

export interface MemberWithUser extends Member {
  user: { id: string; name: string; email: string; image: string | null };
}

export type InvitationStatus = "pending" | "accepted" | "rejected" | "canceled";

export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  /** Comma-joined team ids, or null. */
  teamId: string | null;
  status: InvitationStatus;
  expiresAt: ISODateString;
  createdAt: ISODateString;
  inviterId: string;
}

/** GET /organization/get-invitation: the invitation with what the invitee needs to decide. */
export interface InvitationDetails extends Invitation {
  organizationName: string;
  organizationSlug: string;
  inviterEmail: string;
}

/** GET /organization/list-user-invitations: a pending invitation sent to the signed-in user. */
export interface UserInvitation extends Invitation {
  organizationName: string;
  organizationSlug: string;
}

export interface Team {
  id: string;
  name: string;
  organizationId: string;
  createdAt: ISODateString;
  updatedAt: ISODateString | null;
}

export interface TeamMember {
  id: string;
  teamId: string;
  userId: string;
  createdAt: ISODateString;
}

export interface FullOrganization extends Organization {
  members: MemberWithUser[];
  invitations: Invitation[];
  teams: Team[];
}

export interface CreateOrganizationBody {
  name: string;
  slug: string;
  logo?: string;
  metadata?: Record<string, unknown>;
  keepCurrentActiveOrganization?: boolean;
}

export interface UpdateOrganizationBody {
  data: { name?: string; slug?: string; logo?: string | null; metadata?: Record<string, unknown> };
  organizationId?: string;
}

export interface OrganizationQuery {
  organizationId?: string;
  organizationSlug?: string;
  membersLimit?: number;
}

export interface SetActiveOrganizationBody {
  organizationId?: string | null;
  organizationSlug?: string;
}

export interface InviteMemberBody {
  email: string;
  role: string | string[];
  organizationId?: string;
  resend?: boolean;
  teamId?: string | string[];
}

export interface InvitationDecisionData {
  invitation: Invitation;
  member: Member | null;
}

export interface ListMembersQuery {
  limit?: number;
  offset?: number;
  sortBy?: string;
  sortDirection?: "asc" | "desc";
  filterField?: string;
  filterOperator?: string;
  filterValue?: string;
  organizationId?: string;
}

export interface HasPermissionBody {
  permissions: Record<string, string[]>;
  organizationId?: string;
}

/** GET /admin/list-users: search, filter, sort and page through every user (administrators only). */
export interface AdminListUsersQuery {
  searchValue?: string;
  searchField?: "email" | "name" | "username";
  searchOperator?: "contains" | "starts_with" | "ends_with";
  limit?: number;
  offset?: number;
  sortBy?: "createdAt" | "updatedAt" | "name" | "email" | "username" | "role";
  sortDirection?: "asc" | "desc";
  filterField?: string;
  filterValue?: string | string[];
  filterOperator?: "eq" | "ne" | "lt" | "lte" | "gt" | "gte" | "in" | "not_in" | "contains" | "starts_with" | "ends_with";
  /** true: only site administrators (the configured administrator roles or ids); false: only the others. */
  administrator?: boolean;
}

/** A row of GET /admin/list-users: the user, and whether the service counts them a site administrator. */
export interface AdminUserRow extends User {
  administrator: boolean;
}

export interface AdminListUsersData {
  users: AdminUserRow[];
  total: number;
  limit: number;
  offset: number;
}

export interface AdminGetUserQuery {
  id: string;
}

export interface AdminCreateUserBody {
  email: string;
  name: string;
  password?: string;
  role?: string | string[];
  data?: Record<string, unknown>;
}

export interface AdminUpdateUserBody {
  userId: string;
  data: Record<string, unknown>;
}

export interface AdminUserData {
  user: User;
}

/** GET /admin/get-user: the user, with what the service decides about them for the caller. */
export interface AdminUserDetail extends User {
  /** A site administrator (one of the configured administrator roles, or one of the administrator ids). */
  administrator: boolean;
  /** Whether impersonate-user would accept this user from the caller now (not an administrator, not banned). */
  impersonable: boolean;
}

/** GET /admin/list-roles: the site roles set-role and create-user accept. */
export interface AdminListRolesData {
  /** Each role, and whether holding it makes a user a site administrator. */
  roles: { name: string; administrator: boolean }[];
  /** The role a new user gets when none is named. */
  defaultRole: string;
}

/** POST /admin/has-permission: over HTTP it always answers for the caller's own roles. */
export interface AdminHasPermissionBody {
  permissions: Record<string, string[]>;
}

/** GET /admin/list-organizations: every organization, whoever its members are (administrators only). */
export interface AdminListOrganizationsQuery {
  /** Matched anywhere in the name or the slug, in any case. */
  searchValue?: string;
  limit?: number;
  offset?: number;
  sortBy?: "createdAt" | "name" | "slug";
  sortDirection?: "asc" | "desc";
}

export interface AdminOrganization extends Organization {
  memberCount: number;
}

export interface AdminListOrganizationsData {
  organizations: AdminOrganization[];
  total: number;
  limit: number;
  offset: number;
}

/** GET /admin/get-organization: one organization with its members (the first 1000, oldest first). */
export interface AdminOrganizationDetail extends AdminOrganization {
  members: MemberWithUser[];
}

export interface AdminUserIdBody {
  userId: string;
}

export interface AdminSetRoleBody {
  userId: string;
  /** One role or several (joined with commas on the server). */
  role: string | string[];
}

export interface AdminBanUserBody {
  userId: string;
  banReason?: string;
  /** Seconds until the ban lifts by itself; without it the configured default (or forever). */
  banExpiresIn?: number;
}

export interface AdminSetUserPasswordBody {
  userId: string;
  newPassword: string;
}

export interface AdminRevokeUserSessionBody {
  sessionToken: string;
}

export interface AdminSessionsData {
  sessions: Session[];
}

export interface AdminSuccessData {
  success: boolean;
}

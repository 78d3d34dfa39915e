/**
 * GENERATED FILE, DO NOT EDIT. The client's contract with the server, printed by server/src/contract/generate.ts from
 * the server's endpoint table (ENDPOINTS in server/src/routes.ts: each route's method, zod schemas and
 * `changesSession`) and its error catalogues (server/src/http/error-catalogue.ts).
 *
 * To change it, change the server and run `npm run contract`; server/test/contract.test.ts fails while this
 * file differs from what the generator prints.
 */
import { shape } from "./route-spec.js";

/** A timestamp as the server sends it: an ISO-8601 string (`new Date(value)` makes a Date of it). */
export type ISODateString = string;

// ---- Named shapes (zod schemas with .meta({ id })) -------------------------------------------------------------------

/** A security event with its actor's and user's name and address */
export interface AdminAuditEvent {
  /** Stable id (a webhook's webhook-id) */
  id: string;
  /** Increasing with each event: the order of the log */
  seq: number;
  /** noun.past_verb (README "Security events") */
  type: string;
  createdAt: ISODateString;
  ipAddress: string | null;
  userAgent: string | null;
  /** The type's payload (README "Security events"); never a secret */
  data: Record<string, unknown>;
  /** Who did it: the user, the administrator (also while impersonating), or null */
  actorId: string | null;
  /** The user it was done to */
  userId: string | null;
  organizationId: string | null;
  /** That user now; null when there is none or they no longer exist */
  actor: {
    id: string;
    email: string;
    name: string;
  } | null;
  /** That user now; null when there is none or they no longer exist */
  user: {
    id: string;
    email: string;
    name: string;
  } | null;
}

/** A security event of the audit log */
export interface AuditEvent {
  /** Stable id (a webhook's webhook-id) */
  id: string;
  /** Increasing with each event: the order of the log */
  seq: number;
  /** noun.past_verb (README "Security events") */
  type: string;
  createdAt: ISODateString;
  ipAddress: string | null;
  userAgent: string | null;
  /** The type's payload (README "Security events"); never a secret */
  data: Record<string, unknown>;
  /** Who did it: the user, the administrator (also while impersonating), or null */
  actorId: string | null;
  /** The user it was done to */
  userId: string | null;
  organizationId: string | null;
}

export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  /** Comma-joined team ids, or null */
  teamId: string | null;
  status: "pending" | "accepted" | "rejected" | "canceled";
  expiresAt: ISODateString;
  createdAt: ISODateString;
  inviterId: string;
}

export interface Member {
  id: string;
  organizationId: string;
  userId: string;
  /** One role or several, comma-joined ("admin,member") */
  role: string;
  createdAt: ISODateString;
}

export interface MemberWithUser {
  id: string;
  organizationId: string;
  userId: string;
  /** One role or several, comma-joined ("admin,member") */
  role: string;
  createdAt: ISODateString;
  user: {
    id: string;
    name: string;
    email: string;
    image: string | null;
  };
}

/** A client of the OpenID Provider, never with its secret */
export interface OidcClient {
  clientId: string;
  name: string;
  type: "web" | "public" | "machine";
  redirectURLs: string[];
  postLogoutRedirectURLs: string[];
  /** The scopes the client may ask for */
  scopes: string[];
  grantTypes: Array<"authorization_code" | "refresh_token" | "client_credentials">;
  /** First-party: consent is implied */
  skipConsent: boolean;
  accessTokenFormat: "opaque" | "jwt";
  /** The APIs (resource indicators) its JWT access tokens may be issued for */
  audience: string[];
  signingAlg: "RS256" | "ES256";
  logoUri: string | null;
  clientUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
  disabled: boolean;
  /** config: declared in the configuration file, read-only here */
  source: "admin" | "config" | "registration";
  hasSecret: boolean;
  secretCreatedAt: ISODateString | null;
  createdAt: ISODateString;
  updatedAt: ISODateString;
}

/** An application the user signed in to with this account, and what it may access */
export interface OidcGrant {
  clientId: string;
  clientName: string;
  logoUri: string | null;
  clientUri: string | null;
  /** Everything the user allowed the application */
  scopes: string[];
  /** When the user first allowed it */
  createdAt: ISODateString;
  /** The last authorization that renewed it */
  updatedAt: ISODateString;
}

/** An application's request waiting for the user's consent */
export interface OidcInteraction {
  uid: string;
  prompt: "consent";
  client: {
    clientId: string;
    name: string;
    logoUri: string | null;
    clientUri: string | null;
    policyUri: string | null;
    tosUri: string | null;
    firstParty: boolean;
  };
  /** Where the user goes back to: the origin of the redirect URI */
  redirectOrigin: string | null;
  scopes: Array<{
    scope: string;
    /** Allowed before */
    granted: boolean;
  }>;
  /** What this consent adds */
  newScopes: string[];
  /** Claims asked for by name (the claims parameter) */
  claims: string[];
  user: {
    id: string;
    name: string;
    email: string;
    image: string | null;
  };
}

/** The application an authorization waiting for the user is for */
export interface OidcInteractionClient {
  clientId: string;
  name: string;
  logoUri: string | null;
}

export interface Organization {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: ISODateString;
  /** Members without a second factor are refused the organization (set by owners and admins with update) */
  requireTwoFactor: boolean;
}

/** The signed-in user's second factors: kinds, dates and counts, never secrets */
export interface OwnFactors {
  /** Whether the user's sign-ins meet the second step */
  twoFactorEnabled: boolean;
  /** A confirmed authenticator app; null when none (one waiting for its first code is not one) */
  totp: {
    enabledAt: ISODateString | null;
  } | null;
  /** The email code as a second factor; null when not one */
  emailCode: {
    enabledAt: ISODateString;
  } | null;
  backupCodes: {
    remaining: number;
  };
  /** Browsers that skip the second step, the most recently used first */
  trustedDevices: Array<{
    id: string;
    userAgent: string | null;
    createdAt: ISODateString;
    lastUsedAt: ISODateString;
    expiresAt: ISODateString;
    current: boolean;
  }>;
}

/** A registered passkey (WebAuthn credential) of the user */
export interface Passkey {
  id: string;
  name: string | null;
  /** Standard base64 of the COSE public key */
  publicKey: string;
  userId: string;
  /** base64url */
  credentialID: string;
  counter: number;
  /** "singleDevice" or "multiDevice" */
  deviceType: string;
  backedUp: boolean;
  /** Comma-joined ("internal,hybrid"), "" when none */
  transports: string | null;
  createdAt: ISODateString;
  aaguid: string | null;
}

/** WebAuthn request options (PublicKeyCredentialRequestOptionsJSON) */
export interface PasskeyAuthenticationOptions {
  challenge: string;
  rpId?: string;
  timeout?: number;
  allowCredentials?: Array<{
    id: string;
    type: "public-key";
    transports?: string[];
  }>;
  userVerification?: string;
  extensions?: Record<string, unknown>;
}

/** WebAuthn creation options (PublicKeyCredentialCreationOptionsJSON) */
export interface PasskeyRegistrationOptions {
  challenge: string;
  rp: {
    name: string;
    id?: string;
  };
  user: {
    id: string;
    name: string;
    displayName: string;
  };
  pubKeyCredParams: Array<{
    alg: number;
    type: "public-key";
  }>;
  timeout?: number;
  attestation?: string;
  excludeCredentials?: Array<{
    id: string;
    type: "public-key";
    transports?: string[];
  }>;
  authenticatorSelection?: {
    authenticatorAttachment?: string;
    residentKey?: string;
    requireResidentKey?: boolean;
    userVerification?: string;
  };
  extensions?: Record<string, unknown>;
  hints?: string[];
}

/** A security event of the signed-in user's own account */
export interface SecurityEvent {
  /** Stable id (a webhook's webhook-id) */
  id: string;
  /** Increasing with each event: the order of the log */
  seq: number;
  /** noun.past_verb (README "Security events") */
  type: string;
  createdAt: ISODateString;
  ipAddress: string | null;
  userAgent: string | null;
  /** The type's payload (README "Security events"); never a secret */
  data: Record<string, unknown>;
  organizationId: string | null;
  /** self: the user did it; other: someone else (an administrator, an organization owner); none: nobody signed in */
  actor: "self" | "other" | "none";
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

/** A session and its user: what GET /get-session answers for a signed-in caller */
export interface SessionData {
  session: Session;
  user: User;
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

/** The user owes a second step: no session yet; the pending step's cookie is set (two-factor routes) */
export interface TwoFactorRedirect {
  twoFactorRedirect: true;
  twoFactorMethods: string[];
}

/** The public user object every answer carries: never a password or an account's token */
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
  banned: boolean;
  banReason: string | null;
  banExpires: ISODateString | null;
  /** The language the user's mail is written in ("de"), or null when never chosen */
  lang: string | null;
  /** The user has a second factor: their sign-ins meet the second step */
  twoFactorEnabled: boolean;
}

/** A user's sign-in factors, as an administrator sees them: kinds, dates and counts, never secrets */
export interface UserFactors {
  userId: string;
  /** user.twoFactorEnabled: whether the user meets a second step at sign-in */
  twoFactorEnabled: boolean;
  /** A confirmed authenticator app (TOTP); null when none */
  totp: {
    /** When the authenticator was confirmed (null: not recorded) */
    enabledAt: ISODateString | null;
  } | null;
  /** An authenticator waiting for its first code (not a factor yet) */
  totpPending: boolean;
  /** The email code as a second factor; null when not one */
  emailCode: {
    enabledAt: ISODateString;
  } | null;
  backupCodes: {
    remaining: number;
  };
  trustedDevices: {
    /** Browsers that skip the second step, unexpired */
    count: number;
  };
  /** The second step is locked after too many wrong codes until then */
  lockedUntil: ISODateString | null;
  passkeys: Array<{
    id: string;
    name: string | null;
    createdAt: ISODateString;
    /** "singleDevice" or "multiDevice" */
    deviceType: string;
    backedUp: boolean;
  }>;
}

/** One event's delivery to one endpoint, with its last try's answer */
export interface WebhookDelivery {
  id: string;
  endpointId: string;
  /** The event's id: the webhook-id header */
  eventId: string;
  eventSeq: number;
  eventType: string;
  /** pending: waiting for its next try; sending: a try is under way; delivered: answered 2xx; failed: the retry schedule is spent */
  status: "pending" | "sending" | "delivered" | "failed";
  /** Tries made since it was made or last sent again */
  attempts: number;
  /** When a pending delivery is tried next */
  nextAttemptAt: ISODateString | null;
  lastAttemptAt: ISODateString | null;
  /** The last try's HTTP status; null without an answer */
  responseStatus: number | null;
  /** The start of the last answer's body (1,000 characters at most) */
  responseBody: string | null;
  /** Why the last try failed */
  error: string | null;
  durationMs: number | null;
  createdAt: ISODateString;
  deliveredAt: ISODateString | null;
}

/** A webhook endpoint (never its secret) */
export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string | null;
  /** Event patterns: exact types, prefixes (user.*) or *; null: every type */
  events: string[] | null;
  enabled: boolean;
  /** config: declared in the configuration file (webhooks.endpoints), read-only here */
  source: "config" | "api";
  /** True for the configuration file's endpoints: they change in the file only */
  readOnly: boolean;
  createdAt: ISODateString | null;
  updatedAt: ISODateString | null;
}

// ---- Each route's body, query string and answer ----------------------------------------------------------------------

export interface AccountInfoQuery {
  providerId?: string;
  accountId?: string;
}

export interface AccountInfoData {
  user: {
    id: string;
    name: string;
    email: string | null;
    image: string | null;
    emailVerified: boolean;
  };
  data: Record<string, unknown>;
  account: {
    id: string;
    providerId: string;
    accountId: string;
  };
}

export interface AdminBanUserBody {
  userId: string;
  banReason?: string;
  banExpiresIn?: number;
}

export interface AdminBanUserData {
  user: User;
}

export interface AdminCreateUserBody {
  email: string;
  password?: string;
  name: string;
  role?: string | string[];
  data?: {
    name?: string;
    email?: string;
    emailVerified?: boolean;
    image?: string | null;
    username?: string;
    displayUsername?: string;
    role?: string | string[];
    banned?: boolean;
    banReason?: string | null;
    banExpires?: ISODateString | null;
    lang?: string | number;
  };
}

export interface AdminCreateUserData {
  user: User;
}

export interface AdminGetOrganizationQuery {
  id: string;
}

export interface AdminGetOrganizationData {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: ISODateString;
  /** Members without a second factor are refused the organization (set by owners and admins with update) */
  requireTwoFactor: boolean;
  memberCount: number;
  members: MemberWithUser[];
}

export interface AdminGetUserQuery {
  id: string;
}

export interface AdminGetUserData {
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
  banned: boolean;
  banReason: string | null;
  banExpires: ISODateString | null;
  /** The language the user's mail is written in ("de"), or null when never chosen */
  lang: string | null;
  /** The user has a second factor: their sign-ins meet the second step */
  twoFactorEnabled: boolean;
  /** Whether the user is a site administrator (admin.adminRoles or adminUserIds) */
  administrator: boolean;
  /** Whether impersonate-user would accept this user from the caller now */
  impersonable: boolean;
}

export interface AdminHasPermissionBody {
  userId?: string;
  role?: string;
  permissions?: Record<string, string[]>;
}

export interface AdminHasPermissionData {
  error: null;
  success: boolean;
}

export interface AdminImpersonateUserBody {
  userId: string;
}

export type AdminImpersonateUserData = SessionData;

export interface AdminListEventsQuery {
  /** The user the events were done to */
  userId?: string;
  /** Who did them (an administrator, while impersonating too) */
  actorId?: string;
  organizationId?: string;
  /** The client address, exactly */
  ip?: string;
  /** Event types, comma-separated: exact (user.banned), prefixes (user.*), or * */
  type?: string;
  /** From this time on (inclusive), ISO 8601 */
  from?: string;
  /** Before this time (exclusive), ISO 8601 */
  to?: string;
  /** Events per page (default 50, at most 200) */
  limit?: number | string;
  /** The previous page's nextCursor; absent: the newest events */
  cursor?: string;
}

export interface AdminListEventsData {
  events: AdminAuditEvent[];
  /** Pass as cursor for the next (older) page; null on the last one */
  nextCursor: string | null;
}

export interface AdminListOrganizationsQuery {
  searchValue?: string;
  limit?: number | string;
  offset?: number | string;
  sortBy?: "createdAt" | "name" | "slug";
  sortDirection?: "asc" | "desc";
}

export interface AdminListOrganizationsData {
  organizations: Array<{
    id: string;
    name: string;
    slug: string;
    logo: string | null;
    metadata: Record<string, unknown> | null;
    createdAt: ISODateString;
    /** Members without a second factor are refused the organization (set by owners and admins with update) */
    requireTwoFactor: boolean;
    memberCount: number;
  }>;
  total: number;
  limit: number;
  offset: number;
}

export interface AdminListRolesData {
  roles: Array<{
    name: string;
    administrator: boolean;
  }>;
  /** The role a new user gets when none is named (admin.defaultRole) */
  defaultRole: string;
}

export interface AdminListUserFactorsQuery {
  userId: string;
}

export type AdminListUserFactorsData = UserFactors;

export interface AdminListUserSessionsBody {
  userId: string;
}

export interface AdminListUserSessionsData {
  sessions: Session[];
}

export interface AdminListUsersQuery {
  searchValue?: string;
  searchField?: "email" | "name" | "username";
  searchOperator?: "contains" | "starts_with" | "ends_with";
  limit?: number | string;
  offset?: number | string;
  sortBy?: "createdAt" | "updatedAt" | "name" | "email" | "username" | "role";
  sortDirection?: "asc" | "desc";
  filterField?: "id" | "email" | "name" | "username" | "displayUsername" | "role" | "banned" | "emailVerified" | "createdAt" | "updatedAt";
  filterValue?: string | string[];
  filterOperator?: "eq" | "ne" | "lt" | "lte" | "gt" | "gte" | "in" | "not_in" | "contains" | "starts_with" | "ends_with";
  administrator?: boolean | "true" | "false";
}

export interface AdminListUsersData {
  users: Array<{
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
    banned: boolean;
    banReason: string | null;
    banExpires: ISODateString | null;
    /** The language the user's mail is written in ("de"), or null when never chosen */
    lang: string | null;
    /** The user has a second factor: their sign-ins meet the second step */
    twoFactorEnabled: boolean;
    /** Whether the user is a site administrator (admin.adminRoles or adminUserIds) */
    administrator: boolean;
  }>;
  total: number;
  limit: number;
  offset: number;
}

export interface AdminOauth2CreateClientBody {
  name: string;
  redirectURLs?: string[];
  postLogoutRedirectURLs?: string[];
  scopes?: string[];
  grantTypes?: Array<"authorization_code" | "refresh_token" | "client_credentials">;
  skipConsent?: boolean;
  accessTokenFormat?: "opaque" | "jwt";
  audience?: string[];
  signingAlg?: "RS256" | "ES256";
  logoUri?: string | null;
  clientUri?: string | null;
  policyUri?: string | null;
  tosUri?: string | null;
  type: "web" | "public" | "machine";
  clientId?: string;
}

export interface AdminOauth2CreateClientData {
  client: OidcClient;
  /** Shown this once; null for a public client */
  clientSecret: string | null;
}

export interface AdminOauth2DeleteClientBody {
  clientId: string;
}

export interface AdminOauth2DeleteClientData {
  success: boolean;
}

export interface AdminOauth2GetClientQuery {
  clientId: string;
}

export type AdminOauth2GetClientData = OidcClient;

export interface AdminOauth2ListClientsData {
  clients: OidcClient[];
}

export interface AdminOauth2ListUserGrantsQuery {
  userId: string;
}

export interface AdminOauth2ListUserGrantsData {
  grants: OidcGrant[];
}

export interface AdminOauth2RevokeUserGrantBody {
  userId: string;
  clientId: string;
}

export interface AdminOauth2RevokeUserGrantData {
  success: boolean;
}

export interface AdminOauth2RotateClientSecretBody {
  clientId: string;
}

export interface AdminOauth2RotateClientSecretData {
  client: OidcClient;
  /** Shown this once */
  clientSecret: string;
}

export interface AdminOauth2UpdateClientBody {
  clientId: string;
  name?: string;
  redirectURLs?: string[];
  postLogoutRedirectURLs?: string[];
  scopes?: string[];
  grantTypes?: Array<"authorization_code" | "refresh_token" | "client_credentials">;
  skipConsent?: boolean;
  accessTokenFormat?: "opaque" | "jwt";
  audience?: string[];
  signingAlg?: "RS256" | "ES256";
  logoUri?: string | null;
  clientUri?: string | null;
  policyUri?: string | null;
  tosUri?: string | null;
  disabled?: boolean;
}

export interface AdminOauth2UpdateClientData {
  client: OidcClient;
}

export interface AdminRemoveUserBody {
  userId: string;
}

export interface AdminRemoveUserData {
  success: boolean;
}

export interface AdminResetUserFactorsBody {
  userId: string;
  includePasskeys?: boolean;
}

export interface AdminResetUserFactorsData {
  success: boolean;
  removed: {
    totp: boolean;
    emailCode: boolean;
    backupCodes: number;
    trustedDevices: number;
    passkeys: number;
  };
}

export interface AdminRevokeUserSessionBody {
  sessionToken: string;
}

export interface AdminRevokeUserSessionData {
  success: boolean;
}

export interface AdminRevokeUserSessionsBody {
  userId: string;
}

export interface AdminRevokeUserSessionsData {
  success: boolean;
}

export interface AdminSetRoleBody {
  userId: string;
  role: string | string[];
}

export interface AdminSetRoleData {
  user: User;
}

export interface AdminSetUserPasswordBody {
  userId: string;
  newPassword: string;
}

export interface AdminSetUserPasswordData {
  status: boolean;
}

export type AdminStopImpersonatingData = SessionData;

export interface AdminUnbanUserBody {
  userId: string;
}

export interface AdminUnbanUserData {
  user: User;
}

export interface AdminUpdateUserBody {
  userId: string;
  data: {
    name?: string;
    email?: string;
    emailVerified?: boolean;
    image?: string | null;
    username?: string;
    displayUsername?: string;
    role?: string | string[];
    banned?: boolean;
    banReason?: string | null;
    banExpires?: ISODateString | null;
    lang?: string | number;
  };
}

export type AdminUpdateUserData = User;

export interface AdminWebhooksCreateEndpointBody {
  url: string;
  /** Exact types (user.banned), prefixes (user.*) or *; null or absent: every type */
  events?: string[] | null;
  /** Default true */
  enabled?: boolean;
  description?: string | null;
}

export interface AdminWebhooksCreateEndpointData {
  endpoint: WebhookEndpoint;
  /** whsec_…: shown this once; receivers verify signatures with it */
  secret: string;
}

export interface AdminWebhooksDeleteEndpointBody {
  endpointId: string;
}

export interface AdminWebhooksDeleteEndpointData {
  success: boolean;
}

export interface AdminWebhooksListDeliveriesQuery {
  endpointId: string;
  status?: "pending" | "sending" | "delivered" | "failed";
  /** Deliveries per page (default 50, at most 200) */
  limit?: number | string;
  /** The previous page's nextCursor; absent: the newest deliveries */
  cursor?: string;
}

export interface AdminWebhooksListDeliveriesData {
  deliveries: WebhookDelivery[];
  /** Pass as cursor for the next (older) page; null on the last one */
  nextCursor: string | null;
}

export interface AdminWebhooksListEndpointsData {
  endpoints: WebhookEndpoint[];
  /** Every event type an endpoint may ask for */
  eventTypes: string[];
}

export interface AdminWebhooksResendDeliveryBody {
  deliveryId: string;
}

export interface AdminWebhooksResendDeliveryData {
  delivery: WebhookDelivery;
}

export interface AdminWebhooksRotateEndpointSecretBody {
  endpointId: string;
}

export interface AdminWebhooksRotateEndpointSecretData {
  endpoint: WebhookEndpoint;
  /** whsec_…: shown this once */
  secret: string;
}

export interface AdminWebhooksUpdateEndpointBody {
  endpointId: string;
  url?: string;
  /** Exact types (user.banned), prefixes (user.*) or *; null or absent: every type */
  events?: string[] | null;
  /** Off: nothing is sent to it, and its waiting deliveries fail */
  enabled?: boolean;
  description?: string | null;
}

export interface AdminWebhooksUpdateEndpointData {
  endpoint: WebhookEndpoint;
}

export interface ChangeEmailBody {
  newEmail: string;
  callbackURL?: string;
}

export interface ChangeEmailData {
  status: boolean;
}

export interface ChangePasswordBody {
  newPassword: string;
  currentPassword: string;
  revokeOtherSessions?: boolean;
}

export interface ChangePasswordData {
  token: string | null;
  user: User;
}

export interface DeleteUserBody {
  callbackURL?: string;
  password?: string;
  token?: string;
}

export interface DeleteUserData {
  success: boolean;
  message: string;
}

export interface DeleteUserCallbackQuery {
  token: string;
  callbackURL?: string;
}

export interface DeleteUserCallbackData {
  success: boolean;
  message: string;
}

export type DevOutboxData = Array<{
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  kind: string;
  sentAt: string;
}>;

export interface EmailOtpChangeEmailBody {
  newEmail: string;
  otp: string;
}

export interface EmailOtpChangeEmailData {
  success: boolean;
}

export interface EmailOtpCheckVerificationOtpBody {
  email: string;
  type: "email-verification" | "sign-in" | "forget-password" | "change-email";
  otp: string;
}

export interface EmailOtpCheckVerificationOtpData {
  success: boolean;
}

export interface EmailOtpRequestEmailChangeBody {
  newEmail: string;
  otp?: string;
}

export interface EmailOtpRequestEmailChangeData {
  success: boolean;
}

export interface EmailOtpRequestPasswordResetBody {
  email: string;
}

export interface EmailOtpRequestPasswordResetData {
  success: boolean;
}

export interface EmailOtpResetPasswordBody {
  email: string;
  otp: string;
  password: string;
}

export interface EmailOtpResetPasswordData {
  success: boolean;
}

export interface EmailOtpSendVerificationOtpBody {
  email: string;
  type: "email-verification" | "sign-in" | "forget-password" | "change-email";
}

export interface EmailOtpSendVerificationOtpData {
  success: boolean;
}

export interface EmailOtpVerifyEmailBody {
  email: string;
  otp: string;
}

export type EmailOtpVerifyEmailData = {
  status: boolean;
  token: string | null;
  user: User;
} | TwoFactorRedirect;

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
  deleteUser: {
    enabled: boolean;
    byEmail: boolean;
  };
  username: {
    minLength: number;
    maxLength: number;
  };
  socialProviders: string[];
  providers: Array<{
    id: string;
    name: string;
  }>;
  magicLink: {
    enabled: boolean;
    signUp: boolean;
  };
  emailOTP: {
    enabled: boolean;
    signUp: boolean;
    otpLength: number;
    changeEmail: boolean;
  };
  passkey: {
    enabled: boolean;
  };
  twoFactor: {
    enabled: boolean;
  };
}

export interface ForgetPasswordBody {
  email: string;
  redirectTo?: string;
}

export interface ForgetPasswordData {
  status: boolean;
}

export interface ForgetPasswordEmailOtpBody {
  email: string;
}

export interface ForgetPasswordEmailOtpData {
  success: boolean;
}

export interface GetAccessTokenBody {
  providerId?: string;
  accountId?: string;
  userId?: string;
}

export interface GetAccessTokenData {
  accessToken: string;
  accessTokenExpiresAt: ISODateString | null;
  scopes: string[];
  idToken: string | null;
}

export interface GetSessionQuery {
  disableCookieCache?: boolean | "0" | "1" | "true" | "false" | "";
  disableRefresh?: boolean | "0" | "1" | "true" | "false" | "";
}

export type GetSessionData = SessionData | null;

export interface IsUsernameAvailableBody {
  username: string;
}

export interface IsUsernameAvailableData {
  available: boolean;
}

export interface LinkSocialBody {
  provider: string;
  callbackURL?: string;
  errorCallbackURL?: string;
  disableRedirect?: boolean;
  scopes?: string[];
  idToken?: {
    token: string;
    nonce?: string;
    accessToken?: string;
    refreshToken?: string;
    expiresAt?: number;
    user?: {
      name?: {
        firstName?: string;
        lastName?: string;
      };
      email?: string;
    };
  };
}

export type LinkSocialData = {
  url: string;
  redirect: boolean;
} | {
  url: "";
  status: true;
  redirect: false;
};

export type ListAccountsData = Array<{
  id: string;
  providerId: string;
  provider: string;
  accountId: string;
  userId: string;
  createdAt: ISODateString;
  updatedAt: ISODateString;
  scopes: string[];
}>;

export interface ListSecurityEventsQuery {
  /** Event types, comma-separated: exact (user.banned), prefixes (user.*), or * */
  type?: string;
  /** Events per page (default 50, at most 200) */
  limit?: number | string;
  /** The previous page's nextCursor; absent: the newest events */
  cursor?: string;
}

export interface ListSecurityEventsData {
  events: SecurityEvent[];
  /** Pass as cursor for the next (older) page; null on the last one */
  nextCursor: string | null;
}

export type ListSessionsData = Session[];

export interface MagicLinkVerifyQuery {
  token: string;
  callbackURL?: string;
  newUserCallbackURL?: string;
  errorCallbackURL?: string;
}

export type MagicLinkVerifyData = {
  token: string;
  user: User;
  session: Session;
} | TwoFactorRedirect;

export interface Oauth2ConsentBody {
  uid: string;
  accept: boolean;
  scopes?: string[];
}

export interface Oauth2ConsentData {
  redirect: true;
  url: string;
}

export interface Oauth2GetInteractionQuery {
  uid: string;
}

export type Oauth2GetInteractionData = OidcInteraction;

export interface Oauth2InteractionClientQuery {
  uid: string;
}

export type Oauth2InteractionClientData = OidcInteractionClient;

export interface Oauth2ListGrantsData {
  grants: OidcGrant[];
}

export interface Oauth2RevokeGrantBody {
  clientId: string;
}

export interface Oauth2RevokeGrantData {
  success: boolean;
}

export interface OkData {
  ok: true;
}

export interface OrganizationAcceptInvitationBody {
  invitationId: string;
}

export interface OrganizationAcceptInvitationData {
  invitation: Invitation;
  member: Member;
}

export interface OrganizationAddTeamMemberBody {
  teamId: string;
  userId: string;
  organizationId?: string;
}

export type OrganizationAddTeamMemberData = TeamMember;

export interface OrganizationCancelInvitationBody {
  invitationId: string;
}

export type OrganizationCancelInvitationData = Invitation;

export interface OrganizationCheckSlugBody {
  slug: string;
}

export interface OrganizationCheckSlugData {
  status: boolean;
}

export interface OrganizationCreateBody {
  name: string;
  slug: string;
  userId?: string;
  logo?: string | null;
  metadata?: Record<string, unknown>;
  keepCurrentActiveOrganization?: boolean;
}

export interface OrganizationCreateData {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: ISODateString;
  /** Members without a second factor are refused the organization (set by owners and admins with update) */
  requireTwoFactor: boolean;
  members: Member[];
}

export interface OrganizationCreateTeamBody {
  name: string;
  organizationId?: string;
}

export type OrganizationCreateTeamData = Team;

export interface OrganizationDeleteBody {
  organizationId: string;
}

export type OrganizationDeleteData = Organization;

export type OrganizationGetActiveMemberData = MemberWithUser;

export interface OrganizationGetActiveMemberRoleQuery {
  userId?: string;
  organizationId?: string;
  organizationSlug?: string;
}

export interface OrganizationGetActiveMemberRoleData {
  role: string;
}

export interface OrganizationGetFullOrganizationQuery {
  organizationId?: string;
  organizationSlug?: string;
  membersLimit?: number | string;
}

export type OrganizationGetFullOrganizationData = {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: ISODateString;
  /** Members without a second factor are refused the organization (set by owners and admins with update) */
  requireTwoFactor: boolean;
  members: MemberWithUser[];
  invitations: Invitation[];
  teams: Array<{
    id: string;
    name: string;
    organizationId: string;
    createdAt: ISODateString;
    updatedAt: ISODateString | null;
    memberCount: number;
  }>;
} | null;

export interface OrganizationGetInvitationQuery {
  id: string;
}

export interface OrganizationGetInvitationData {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  /** Comma-joined team ids, or null */
  teamId: string | null;
  status: "pending" | "accepted" | "rejected" | "canceled";
  expiresAt: ISODateString;
  createdAt: ISODateString;
  inviterId: string;
  organizationName: string;
  organizationSlug: string;
  inviterEmail: string;
}

export interface OrganizationGetOrganizationQuery {
  organizationId?: string;
  organizationSlug?: string;
}

export type OrganizationGetOrganizationData = Organization | null;

export interface OrganizationHasPermissionBody {
  organizationId?: string;
  permissions?: Record<string, string[]>;
  permission?: Record<string, string[]>;
}

export interface OrganizationHasPermissionData {
  error: string | null;
  success: boolean;
}

export interface OrganizationInviteMemberBody {
  email: string;
  role: string | string[];
  organizationId?: string;
  resend?: boolean;
  teamId?: string | string[];
}

export type OrganizationInviteMemberData = Invitation;

export interface OrganizationLeaveBody {
  organizationId: string;
}

export type OrganizationLeaveData = MemberWithUser;

export type OrganizationListData = Organization[];

export interface OrganizationListEventsQuery {
  /** Default: the session's active organization */
  organizationId?: string;
  /** Event types, comma-separated: exact (user.banned), prefixes (user.*), or * */
  type?: string;
  /** Events per page (default 50, at most 200) */
  limit?: number | string;
  /** The previous page's nextCursor; absent: the newest events */
  cursor?: string;
}

export interface OrganizationListEventsData {
  events: AuditEvent[];
  /** Pass as cursor for the next (older) page; null on the last one */
  nextCursor: string | null;
}

export interface OrganizationListInvitationsQuery {
  organizationId?: string;
}

export type OrganizationListInvitationsData = Invitation[];

export interface OrganizationListMembersQuery {
  limit?: number | string;
  offset?: number | string;
  sortBy?: "createdAt" | "role" | "name" | "email";
  sortDirection?: "asc" | "desc";
  filterField?: "role" | "userId" | "email";
  filterOperator?: "eq" | "ne" | "contains";
  filterValue?: string;
  organizationId?: string;
  organizationSlug?: string;
}

export interface OrganizationListMembersData {
  members: MemberWithUser[];
  total: number;
}

export interface OrganizationListTeamMembersQuery {
  teamId?: string;
}

export type OrganizationListTeamMembersData = TeamMember[];

export interface OrganizationListTeamsQuery {
  organizationId?: string;
}

export type OrganizationListTeamsData = Team[];

export interface OrganizationListUserInvitationsQuery {
  email?: string;
}

export type OrganizationListUserInvitationsData = Array<{
  id: string;
  organizationId: string;
  email: string;
  role: string;
  /** Comma-joined team ids, or null */
  teamId: string | null;
  status: "pending" | "accepted" | "rejected" | "canceled";
  expiresAt: ISODateString;
  createdAt: ISODateString;
  inviterId: string;
  organizationName: string;
  organizationSlug: string;
}>;

export interface OrganizationListUserTeamsQuery {
  userId?: string;
  organizationId?: string;
}

export type OrganizationListUserTeamsData = Team[];

export interface OrganizationRejectInvitationBody {
  invitationId: string;
}

export interface OrganizationRejectInvitationData {
  invitation: Invitation;
  member: null;
}

export interface OrganizationRemoveMemberBody {
  memberIdOrEmail: string;
  organizationId?: string;
}

export interface OrganizationRemoveMemberData {
  member: MemberWithUser;
}

export interface OrganizationRemoveTeamBody {
  teamId: string;
  organizationId?: string;
}

export interface OrganizationRemoveTeamData {
  message: string;
}

export interface OrganizationRemoveTeamMemberBody {
  teamId: string;
  userId: string;
  organizationId?: string;
}

export interface OrganizationRemoveTeamMemberData {
  message: string;
}

export interface OrganizationSetActiveBody {
  organizationId?: string | null;
  organizationSlug?: string;
}

export type OrganizationSetActiveData = Organization | null;

export interface OrganizationSetActiveTeamBody {
  teamId?: string | null;
}

export type OrganizationSetActiveTeamData = Team | null;

export interface OrganizationUpdateBody {
  data: {
    name?: string;
    slug?: string;
    logo?: string | null;
    metadata?: Record<string, unknown> | null;
    requireTwoFactor?: boolean;
  };
  organizationId?: string;
}

export type OrganizationUpdateData = Organization;

export interface OrganizationUpdateMemberRoleBody {
  role: string | string[];
  memberId: string;
  organizationId?: string;
}

export type OrganizationUpdateMemberRoleData = Member;

export interface OrganizationUpdateTeamBody {
  teamId: string;
  data: {
    name?: string;
  };
}

export type OrganizationUpdateTeamData = Team;

export interface PasskeyDeletePasskeyBody {
  id: string;
  password?: string;
}

export interface PasskeyDeletePasskeyData {
  status: boolean;
}

export type PasskeyGenerateAuthenticateOptionsData = PasskeyAuthenticationOptions;

export interface PasskeyGenerateRegisterOptionsQuery {
  authenticatorAttachment?: "platform" | "cross-platform";
  name?: string;
  context?: string;
}

export type PasskeyGenerateRegisterOptionsData = PasskeyRegistrationOptions;

export type PasskeyListUserPasskeysData = Passkey[];

export interface PasskeyUpdatePasskeyBody {
  id: string;
  name: string;
}

export interface PasskeyUpdatePasskeyData {
  passkey: Passkey;
}

export interface PasskeyVerifyAuthenticationBody {
  response: {
    id: string;
    rawId: string;
    type: "public-key";
    response: {
      clientDataJSON: string;
      authenticatorData: string;
      signature: string;
      userHandle?: string;
    };
    authenticatorAttachment?: string;
    clientExtensionResults?: Record<string, unknown>;
  };
}

export type PasskeyVerifyAuthenticationData = SessionData | TwoFactorRedirect;

export interface PasskeyVerifyRegistrationBody {
  response: {
    id: string;
    rawId: string;
    type: "public-key";
    response: {
      clientDataJSON: string;
      attestationObject: string;
      transports?: string[];
    };
    authenticatorAttachment?: string;
    clientExtensionResults?: Record<string, unknown>;
  };
  name?: string;
  createSession?: boolean;
}

export interface PasskeyVerifyRegistrationData {
  id: string;
  name: string | null;
  /** Standard base64 of the COSE public key */
  publicKey: string;
  userId: string;
  /** base64url */
  credentialID: string;
  counter: number;
  /** "singleDevice" or "multiDevice" */
  deviceType: string;
  backedUp: boolean;
  /** Comma-joined ("internal,hybrid"), "" when none */
  transports: string | null;
  createdAt: ISODateString;
  aaguid: string | null;
  session?: Session;
  user?: User;
}

export interface RefreshTokenBody {
  providerId?: string;
  accountId?: string;
  userId?: string;
}

export interface RefreshTokenData {
  accessToken: string | null;
  refreshToken: string | null;
  accessTokenExpiresAt: ISODateString | null;
  refreshTokenExpiresAt: ISODateString | null;
  scope: string | null;
  idToken: string | null;
  providerId: string;
  accountId: string;
}

export interface RequestPasswordResetBody {
  email: string;
  redirectTo?: string;
}

export interface RequestPasswordResetData {
  status: boolean;
  message: string;
}

export interface ResetPasswordBody {
  newPassword: string;
  token?: string;
}

export interface ResetPasswordQuery {
  token?: string;
}

export interface ResetPasswordData {
  status: boolean;
}

export interface RevokeOtherSessionsData {
  status: boolean;
}

export interface RevokeSessionBody {
  token: string;
}

export interface RevokeSessionData {
  status: boolean;
}

export interface RevokeSessionsData {
  status: boolean;
}

export interface SendVerificationEmailBody {
  email: string;
  callbackURL?: string;
}

export interface SendVerificationEmailData {
  status: boolean;
}

export interface SignInEmailBody {
  email: string;
  password: string;
  callbackURL?: string;
  rememberMe?: boolean;
}

export type SignInEmailData = {
  redirect: boolean;
  token: string;
  url?: string;
  user: User;
} | TwoFactorRedirect;

export interface SignInEmailOtpBody {
  email: string;
  otp: string;
  name?: string;
  image?: string | null;
  rememberMe?: boolean;
}

export type SignInEmailOtpData = {
  token: string;
  user: User;
} | TwoFactorRedirect;

export interface SignInMagicLinkBody {
  email: string;
  name?: string;
  callbackURL?: string;
  newUserCallbackURL?: string;
  errorCallbackURL?: string;
  metadata?: Record<string, unknown>;
}

export interface SignInMagicLinkData {
  status: boolean;
}

export interface SignInSocialBody {
  provider: string;
  callbackURL?: string;
  newUserCallbackURL?: string;
  errorCallbackURL?: string;
  disableRedirect?: boolean;
  idToken?: {
    token: string;
    nonce?: string;
    accessToken?: string;
    refreshToken?: string;
    expiresAt?: number;
    user?: {
      name?: {
        firstName?: string;
        lastName?: string;
      };
      email?: string;
    };
  };
  scopes?: string[];
  requestSignUp?: boolean;
  loginHint?: string;
}

export type SignInSocialData = {
  url: string;
  redirect: boolean;
} | {
  redirect: false;
  token: string;
  url?: string;
  user: User;
} | TwoFactorRedirect;

export interface SignInUsernameBody {
  username: string;
  password: string;
  callbackURL?: string;
  rememberMe?: boolean;
}

export type SignInUsernameData = {
  redirect: boolean;
  token: string;
  url?: string;
  user: User;
} | TwoFactorRedirect;

export interface SignOutData {
  success: boolean;
}

export interface SignUpEmailBody {
  name: string;
  email: string;
  password: string;
  image?: string | null;
  callbackURL?: string;
  rememberMe?: boolean;
  lang?: string | number;
  username?: string;
  displayUsername?: string;
}

export interface SignUpEmailData {
  token: string | null;
  user: User;
}

export interface TokenData {
  token: string;
}

export interface TwoFactorDisableBody {
  password?: string;
}

export interface TwoFactorDisableData {
  status: boolean;
}

export interface TwoFactorEnableBody {
  password?: string;
  method?: "totp" | "otp";
  issuer?: string;
}

export type TwoFactorEnableData = {
  method: "totp";
  totpURI: string;
  backupCodes: string[];
} | {
  method: "otp";
};

export interface TwoFactorForgetTrustedDevicesBody {
  id?: string;
}

export interface TwoFactorForgetTrustedDevicesData {
  status: boolean;
  removed: number;
}

export interface TwoFactorGenerateBackupCodesBody {
  password?: string;
}

export interface TwoFactorGenerateBackupCodesData {
  status: boolean;
  backupCodes: string[];
}

export type TwoFactorGetFactorsData = OwnFactors;

export interface TwoFactorGetTotpUriBody {
  password?: string;
}

export interface TwoFactorGetTotpUriData {
  totpURI: string;
}

export interface TwoFactorSendOtpBody {
  trustDevice?: boolean;
}

export interface TwoFactorSendOtpData {
  status: boolean;
}

export interface TwoFactorVerifyBackupCodeBody {
  code: string;
  disableSession?: boolean;
  trustDevice?: boolean;
}

export interface TwoFactorVerifyBackupCodeData {
  token?: string;
  user: User;
}

export interface TwoFactorVerifyOtpBody {
  code: string;
  trustDevice?: boolean;
}

export interface TwoFactorVerifyOtpData {
  token: string;
  user: User;
}

export interface TwoFactorVerifyTotpBody {
  code: string;
  trustDevice?: boolean;
}

export interface TwoFactorVerifyTotpData {
  token: string;
  user: User;
}

export interface UnlinkAccountBody {
  providerId?: string;
  accountId?: string;
}

export interface UnlinkAccountData {
  status: boolean;
}

export interface UpdateUserBody {
  name?: string;
  image?: string | null;
  lang?: string | number;
  username?: string;
  displayUsername?: string;
}

export interface UpdateUserData {
  status: boolean;
}

export interface VerifyEmailQuery {
  token: string;
  callbackURL?: string;
}

export type VerifyEmailData = {
  status: boolean;
  user: User;
  passwordRemoved?: boolean;
} | TwoFactorRedirect;

// ---- Each navigation route's query string ----------------------------------------------------------------------------

export interface AdminExportEventsQuery {
  /** The user the events were done to */
  userId?: string;
  /** Who did them (an administrator, while impersonating too) */
  actorId?: string;
  organizationId?: string;
  /** The client address, exactly */
  ip?: string;
  /** Event types, comma-separated: exact (user.banned), prefixes (user.*), or * */
  type?: string;
  /** From this time on (inclusive), ISO 8601 */
  from?: string;
  /** Before this time (exclusive), ISO 8601 */
  to?: string;
  /** Rows at most (default 10000, at most 100000) */
  limit?: number | string;
}

export interface CallbackByIdQuery {
  code?: string | string[];
  state?: string | string[];
  error?: string | string[];
  error_description?: string | string[];
  device_id?: string | string[];
  user?: string | string[];
  iss?: string | string[];
}

export interface ErrorQuery {
  error?: string | string[];
  error_description?: string | string[];
}

export interface ResetPasswordByTokenQuery {
  callbackURL?: string;
}

// ---- The route tables ------------------------------------------------------------------------------------------------

/**
 * Every route the client fetches, by path relative to the API base: its method, whether a successful call changes
 * the caller's session (the session store then fetches it again), and, as compile-time markers, its body, query
 * string and answer. A body marked `| void` may be left out.
 */
export const ROUTES = {
  "/account-info": { method: "GET", query: shape<AccountInfoQuery>(), data: shape<AccountInfoData>() },
  "/admin/ban-user": { method: "POST", body: shape<AdminBanUserBody>(), data: shape<AdminBanUserData>() },
  "/admin/create-user": { method: "POST", body: shape<AdminCreateUserBody>(), data: shape<AdminCreateUserData>() },
  "/admin/get-organization": { method: "GET", query: shape<AdminGetOrganizationQuery>(), data: shape<AdminGetOrganizationData>() },
  "/admin/get-user": { method: "GET", query: shape<AdminGetUserQuery>(), data: shape<AdminGetUserData>() },
  "/admin/has-permission": { method: "POST", body: shape<AdminHasPermissionBody>(), data: shape<AdminHasPermissionData>() },
  "/admin/impersonate-user": { method: "POST", changesSession: true, body: shape<AdminImpersonateUserBody>(), data: shape<AdminImpersonateUserData>() },
  "/admin/list-events": { method: "GET", query: shape<AdminListEventsQuery>(), data: shape<AdminListEventsData>() },
  "/admin/list-organizations": { method: "GET", query: shape<AdminListOrganizationsQuery>(), data: shape<AdminListOrganizationsData>() },
  "/admin/list-roles": { method: "GET", data: shape<AdminListRolesData>() },
  "/admin/list-user-factors": { method: "GET", query: shape<AdminListUserFactorsQuery>(), data: shape<AdminListUserFactorsData>() },
  "/admin/list-user-sessions": { method: "POST", body: shape<AdminListUserSessionsBody>(), data: shape<AdminListUserSessionsData>() },
  "/admin/list-users": { method: "GET", query: shape<AdminListUsersQuery>(), data: shape<AdminListUsersData>() },
  "/admin/oauth2/create-client": { method: "POST", body: shape<AdminOauth2CreateClientBody>(), data: shape<AdminOauth2CreateClientData>() },
  "/admin/oauth2/delete-client": { method: "POST", body: shape<AdminOauth2DeleteClientBody>(), data: shape<AdminOauth2DeleteClientData>() },
  "/admin/oauth2/get-client": { method: "GET", query: shape<AdminOauth2GetClientQuery>(), data: shape<AdminOauth2GetClientData>() },
  "/admin/oauth2/list-clients": { method: "GET", data: shape<AdminOauth2ListClientsData>() },
  "/admin/oauth2/list-user-grants": { method: "GET", query: shape<AdminOauth2ListUserGrantsQuery>(), data: shape<AdminOauth2ListUserGrantsData>() },
  "/admin/oauth2/revoke-user-grant": { method: "POST", body: shape<AdminOauth2RevokeUserGrantBody>(), data: shape<AdminOauth2RevokeUserGrantData>() },
  "/admin/oauth2/rotate-client-secret": { method: "POST", body: shape<AdminOauth2RotateClientSecretBody>(), data: shape<AdminOauth2RotateClientSecretData>() },
  "/admin/oauth2/update-client": { method: "POST", body: shape<AdminOauth2UpdateClientBody>(), data: shape<AdminOauth2UpdateClientData>() },
  "/admin/remove-user": { method: "POST", body: shape<AdminRemoveUserBody>(), data: shape<AdminRemoveUserData>() },
  "/admin/reset-user-factors": { method: "POST", body: shape<AdminResetUserFactorsBody>(), data: shape<AdminResetUserFactorsData>() },
  "/admin/revoke-user-session": { method: "POST", changesSession: true, body: shape<AdminRevokeUserSessionBody>(), data: shape<AdminRevokeUserSessionData>() },
  "/admin/revoke-user-sessions": { method: "POST", changesSession: true, body: shape<AdminRevokeUserSessionsBody>(), data: shape<AdminRevokeUserSessionsData>() },
  "/admin/set-role": { method: "POST", body: shape<AdminSetRoleBody>(), data: shape<AdminSetRoleData>() },
  "/admin/set-user-password": { method: "POST", body: shape<AdminSetUserPasswordBody>(), data: shape<AdminSetUserPasswordData>() },
  "/admin/stop-impersonating": { method: "POST", changesSession: true, data: shape<AdminStopImpersonatingData>() },
  "/admin/unban-user": { method: "POST", body: shape<AdminUnbanUserBody>(), data: shape<AdminUnbanUserData>() },
  "/admin/update-user": { method: "POST", body: shape<AdminUpdateUserBody>(), data: shape<AdminUpdateUserData>() },
  "/admin/webhooks/create-endpoint": { method: "POST", body: shape<AdminWebhooksCreateEndpointBody>(), data: shape<AdminWebhooksCreateEndpointData>() },
  "/admin/webhooks/delete-endpoint": { method: "POST", body: shape<AdminWebhooksDeleteEndpointBody>(), data: shape<AdminWebhooksDeleteEndpointData>() },
  "/admin/webhooks/list-deliveries": { method: "GET", query: shape<AdminWebhooksListDeliveriesQuery>(), data: shape<AdminWebhooksListDeliveriesData>() },
  "/admin/webhooks/list-endpoints": { method: "GET", data: shape<AdminWebhooksListEndpointsData>() },
  "/admin/webhooks/resend-delivery": { method: "POST", body: shape<AdminWebhooksResendDeliveryBody>(), data: shape<AdminWebhooksResendDeliveryData>() },
  "/admin/webhooks/rotate-endpoint-secret": { method: "POST", body: shape<AdminWebhooksRotateEndpointSecretBody>(), data: shape<AdminWebhooksRotateEndpointSecretData>() },
  "/admin/webhooks/update-endpoint": { method: "POST", body: shape<AdminWebhooksUpdateEndpointBody>(), data: shape<AdminWebhooksUpdateEndpointData>() },
  "/change-email": { method: "POST", changesSession: true, body: shape<ChangeEmailBody>(), data: shape<ChangeEmailData>() },
  "/change-password": { method: "POST", changesSession: true, body: shape<ChangePasswordBody>(), data: shape<ChangePasswordData>() },
  "/delete-user": { method: "POST", changesSession: true, body: shape<DeleteUserBody | void>(), data: shape<DeleteUserData>() },
  "/delete-user/callback": { method: "GET", changesSession: true, query: shape<DeleteUserCallbackQuery>(), data: shape<DeleteUserCallbackData>() },
  "/dev/outbox": { method: "GET", data: shape<DevOutboxData>() },
  "/email-otp/change-email": { method: "POST", changesSession: true, body: shape<EmailOtpChangeEmailBody>(), data: shape<EmailOtpChangeEmailData>() },
  "/email-otp/check-verification-otp": { method: "POST", body: shape<EmailOtpCheckVerificationOtpBody>(), data: shape<EmailOtpCheckVerificationOtpData>() },
  "/email-otp/request-email-change": { method: "POST", body: shape<EmailOtpRequestEmailChangeBody>(), data: shape<EmailOtpRequestEmailChangeData>() },
  "/email-otp/request-password-reset": { method: "POST", body: shape<EmailOtpRequestPasswordResetBody>(), data: shape<EmailOtpRequestPasswordResetData>() },
  "/email-otp/reset-password": { method: "POST", body: shape<EmailOtpResetPasswordBody>(), data: shape<EmailOtpResetPasswordData>() },
  "/email-otp/send-verification-otp": { method: "POST", body: shape<EmailOtpSendVerificationOtpBody>(), data: shape<EmailOtpSendVerificationOtpData>() },
  "/email-otp/verify-email": { method: "POST", changesSession: true, body: shape<EmailOtpVerifyEmailBody>(), data: shape<EmailOtpVerifyEmailData>() },
  "/features": { method: "GET", data: shape<FeaturesData>() },
  "/forget-password": { method: "POST", body: shape<ForgetPasswordBody>(), data: shape<ForgetPasswordData>() },
  "/forget-password/email-otp": { method: "POST", body: shape<ForgetPasswordEmailOtpBody>(), data: shape<ForgetPasswordEmailOtpData>() },
  "/get-access-token": { method: "POST", body: shape<GetAccessTokenBody>(), data: shape<GetAccessTokenData>() },
  "/get-session": { method: "GET", query: shape<GetSessionQuery>(), data: shape<GetSessionData>() },
  "/is-username-available": { method: "POST", body: shape<IsUsernameAvailableBody>(), data: shape<IsUsernameAvailableData>() },
  "/link-social": { method: "POST", body: shape<LinkSocialBody>(), data: shape<LinkSocialData>() },
  "/list-accounts": { method: "GET", data: shape<ListAccountsData>() },
  "/list-security-events": { method: "GET", query: shape<ListSecurityEventsQuery>(), data: shape<ListSecurityEventsData>() },
  "/list-sessions": { method: "GET", data: shape<ListSessionsData>() },
  "/magic-link/verify": { method: "GET", changesSession: true, query: shape<MagicLinkVerifyQuery>(), data: shape<MagicLinkVerifyData>() },
  "/oauth2/consent": { method: "POST", body: shape<Oauth2ConsentBody>(), data: shape<Oauth2ConsentData>() },
  "/oauth2/get-interaction": { method: "GET", query: shape<Oauth2GetInteractionQuery>(), data: shape<Oauth2GetInteractionData>() },
  "/oauth2/interaction-client": { method: "GET", query: shape<Oauth2InteractionClientQuery>(), data: shape<Oauth2InteractionClientData>() },
  "/oauth2/list-grants": { method: "GET", data: shape<Oauth2ListGrantsData>() },
  "/oauth2/revoke-grant": { method: "POST", body: shape<Oauth2RevokeGrantBody>(), data: shape<Oauth2RevokeGrantData>() },
  "/ok": { method: "GET", data: shape<OkData>() },
  "/organization/accept-invitation": { method: "POST", changesSession: true, body: shape<OrganizationAcceptInvitationBody>(), data: shape<OrganizationAcceptInvitationData>() },
  "/organization/add-team-member": { method: "POST", body: shape<OrganizationAddTeamMemberBody>(), data: shape<OrganizationAddTeamMemberData>() },
  "/organization/cancel-invitation": { method: "POST", body: shape<OrganizationCancelInvitationBody>(), data: shape<OrganizationCancelInvitationData>() },
  "/organization/check-slug": { method: "POST", body: shape<OrganizationCheckSlugBody>(), data: shape<OrganizationCheckSlugData>() },
  "/organization/create": { method: "POST", changesSession: true, body: shape<OrganizationCreateBody>(), data: shape<OrganizationCreateData>() },
  "/organization/create-team": { method: "POST", body: shape<OrganizationCreateTeamBody>(), data: shape<OrganizationCreateTeamData>() },
  "/organization/delete": { method: "POST", changesSession: true, body: shape<OrganizationDeleteBody>(), data: shape<OrganizationDeleteData>() },
  "/organization/get-active-member": { method: "GET", data: shape<OrganizationGetActiveMemberData>() },
  "/organization/get-active-member-role": { method: "GET", query: shape<OrganizationGetActiveMemberRoleQuery>(), data: shape<OrganizationGetActiveMemberRoleData>() },
  "/organization/get-full-organization": { method: "GET", query: shape<OrganizationGetFullOrganizationQuery>(), data: shape<OrganizationGetFullOrganizationData>() },
  "/organization/get-invitation": { method: "GET", query: shape<OrganizationGetInvitationQuery>(), data: shape<OrganizationGetInvitationData>() },
  "/organization/get-organization": { method: "GET", query: shape<OrganizationGetOrganizationQuery>(), data: shape<OrganizationGetOrganizationData>() },
  "/organization/has-permission": { method: "POST", body: shape<OrganizationHasPermissionBody>(), data: shape<OrganizationHasPermissionData>() },
  "/organization/invite-member": { method: "POST", body: shape<OrganizationInviteMemberBody>(), data: shape<OrganizationInviteMemberData>() },
  "/organization/leave": { method: "POST", changesSession: true, body: shape<OrganizationLeaveBody>(), data: shape<OrganizationLeaveData>() },
  "/organization/list": { method: "GET", data: shape<OrganizationListData>() },
  "/organization/list-events": { method: "GET", query: shape<OrganizationListEventsQuery>(), data: shape<OrganizationListEventsData>() },
  "/organization/list-invitations": { method: "GET", query: shape<OrganizationListInvitationsQuery>(), data: shape<OrganizationListInvitationsData>() },
  "/organization/list-members": { method: "GET", query: shape<OrganizationListMembersQuery>(), data: shape<OrganizationListMembersData>() },
  "/organization/list-team-members": { method: "GET", query: shape<OrganizationListTeamMembersQuery>(), data: shape<OrganizationListTeamMembersData>() },
  "/organization/list-teams": { method: "GET", query: shape<OrganizationListTeamsQuery>(), data: shape<OrganizationListTeamsData>() },
  "/organization/list-user-invitations": { method: "GET", query: shape<OrganizationListUserInvitationsQuery>(), data: shape<OrganizationListUserInvitationsData>() },
  "/organization/list-user-teams": { method: "GET", query: shape<OrganizationListUserTeamsQuery>(), data: shape<OrganizationListUserTeamsData>() },
  "/organization/reject-invitation": { method: "POST", body: shape<OrganizationRejectInvitationBody>(), data: shape<OrganizationRejectInvitationData>() },
  "/organization/remove-member": { method: "POST", changesSession: true, body: shape<OrganizationRemoveMemberBody>(), data: shape<OrganizationRemoveMemberData>() },
  "/organization/remove-team": { method: "POST", changesSession: true, body: shape<OrganizationRemoveTeamBody>(), data: shape<OrganizationRemoveTeamData>() },
  "/organization/remove-team-member": { method: "POST", changesSession: true, body: shape<OrganizationRemoveTeamMemberBody>(), data: shape<OrganizationRemoveTeamMemberData>() },
  "/organization/set-active": { method: "POST", changesSession: true, body: shape<OrganizationSetActiveBody>(), data: shape<OrganizationSetActiveData>() },
  "/organization/set-active-team": { method: "POST", changesSession: true, body: shape<OrganizationSetActiveTeamBody>(), data: shape<OrganizationSetActiveTeamData>() },
  "/organization/update": { method: "POST", body: shape<OrganizationUpdateBody>(), data: shape<OrganizationUpdateData>() },
  "/organization/update-member-role": { method: "POST", body: shape<OrganizationUpdateMemberRoleBody>(), data: shape<OrganizationUpdateMemberRoleData>() },
  "/organization/update-team": { method: "POST", body: shape<OrganizationUpdateTeamBody>(), data: shape<OrganizationUpdateTeamData>() },
  "/passkey/delete-passkey": { method: "POST", body: shape<PasskeyDeletePasskeyBody>(), data: shape<PasskeyDeletePasskeyData>() },
  "/passkey/generate-authenticate-options": { method: "GET", data: shape<PasskeyGenerateAuthenticateOptionsData>() },
  "/passkey/generate-register-options": { method: "GET", query: shape<PasskeyGenerateRegisterOptionsQuery>(), data: shape<PasskeyGenerateRegisterOptionsData>() },
  "/passkey/list-user-passkeys": { method: "GET", data: shape<PasskeyListUserPasskeysData>() },
  "/passkey/update-passkey": { method: "POST", body: shape<PasskeyUpdatePasskeyBody>(), data: shape<PasskeyUpdatePasskeyData>() },
  "/passkey/verify-authentication": { method: "POST", changesSession: true, body: shape<PasskeyVerifyAuthenticationBody>(), data: shape<PasskeyVerifyAuthenticationData>() },
  "/passkey/verify-registration": { method: "POST", body: shape<PasskeyVerifyRegistrationBody>(), data: shape<PasskeyVerifyRegistrationData>() },
  "/refresh-token": { method: "POST", body: shape<RefreshTokenBody>(), data: shape<RefreshTokenData>() },
  "/request-password-reset": { method: "POST", body: shape<RequestPasswordResetBody>(), data: shape<RequestPasswordResetData>() },
  "/reset-password": { method: "POST", changesSession: true, body: shape<ResetPasswordBody>(), query: shape<ResetPasswordQuery>(), data: shape<ResetPasswordData>() },
  "/revoke-other-sessions": { method: "POST", data: shape<RevokeOtherSessionsData>() },
  "/revoke-session": { method: "POST", changesSession: true, body: shape<RevokeSessionBody>(), data: shape<RevokeSessionData>() },
  "/revoke-sessions": { method: "POST", changesSession: true, data: shape<RevokeSessionsData>() },
  "/send-verification-email": { method: "POST", body: shape<SendVerificationEmailBody>(), data: shape<SendVerificationEmailData>() },
  "/sign-in/email": { method: "POST", changesSession: true, body: shape<SignInEmailBody>(), data: shape<SignInEmailData>() },
  "/sign-in/email-otp": { method: "POST", changesSession: true, body: shape<SignInEmailOtpBody>(), data: shape<SignInEmailOtpData>() },
  "/sign-in/magic-link": { method: "POST", body: shape<SignInMagicLinkBody>(), data: shape<SignInMagicLinkData>() },
  "/sign-in/social": { method: "POST", changesSession: true, body: shape<SignInSocialBody>(), data: shape<SignInSocialData>() },
  "/sign-in/username": { method: "POST", changesSession: true, body: shape<SignInUsernameBody>(), data: shape<SignInUsernameData>() },
  "/sign-out": { method: "POST", changesSession: true, data: shape<SignOutData>() },
  "/sign-up/email": { method: "POST", changesSession: true, body: shape<SignUpEmailBody>(), data: shape<SignUpEmailData>() },
  "/token": { method: "GET", data: shape<TokenData>() },
  "/two-factor/disable": { method: "POST", changesSession: true, body: shape<TwoFactorDisableBody>(), data: shape<TwoFactorDisableData>() },
  "/two-factor/enable": { method: "POST", body: shape<TwoFactorEnableBody>(), data: shape<TwoFactorEnableData>() },
  "/two-factor/forget-trusted-devices": { method: "POST", body: shape<TwoFactorForgetTrustedDevicesBody>(), data: shape<TwoFactorForgetTrustedDevicesData>() },
  "/two-factor/generate-backup-codes": { method: "POST", body: shape<TwoFactorGenerateBackupCodesBody>(), data: shape<TwoFactorGenerateBackupCodesData>() },
  "/two-factor/get-factors": { method: "GET", data: shape<TwoFactorGetFactorsData>() },
  "/two-factor/get-totp-uri": { method: "POST", body: shape<TwoFactorGetTotpUriBody>(), data: shape<TwoFactorGetTotpUriData>() },
  "/two-factor/send-otp": { method: "POST", body: shape<TwoFactorSendOtpBody | void>(), data: shape<TwoFactorSendOtpData>() },
  "/two-factor/verify-backup-code": { method: "POST", changesSession: true, body: shape<TwoFactorVerifyBackupCodeBody>(), data: shape<TwoFactorVerifyBackupCodeData>() },
  "/two-factor/verify-otp": { method: "POST", changesSession: true, body: shape<TwoFactorVerifyOtpBody>(), data: shape<TwoFactorVerifyOtpData>() },
  "/two-factor/verify-totp": { method: "POST", changesSession: true, body: shape<TwoFactorVerifyTotpBody>(), data: shape<TwoFactorVerifyTotpData>() },
  "/unlink-account": { method: "POST", body: shape<UnlinkAccountBody>(), data: shape<UnlinkAccountData>() },
  "/update-user": { method: "POST", changesSession: true, body: shape<UpdateUserBody>(), data: shape<UpdateUserData>() },
  "/verify-email": { method: "GET", changesSession: true, query: shape<VerifyEmailQuery>(), data: shape<VerifyEmailData>() },
} as const;

/**
 * The routes a browser navigates to rather than fetches (a mailed link, a provider's redirect back, the error page):
 * their answer is a redirect or an HTML page. The client builds their URLs (`client.$url`).
 */
export const NAVIGATIONS = {
  "/admin/export-events": { params: [], query: shape<AdminExportEventsQuery>() },
  "/callback/:id": { params: ["id"], query: shape<CallbackByIdQuery>() },
  "/error": { params: [], query: shape<ErrorQuery>() },
  "/oauth2/interaction/:uid": { params: ["uid"] },
  "/reset-password/:token": { params: ["token"], query: shape<ResetPasswordByTokenQuery>() },
} as const;

// ---- Error codes -----------------------------------------------------------------------------------------------------

/** Every code the server's error catalogues can answer with (the `code` of an error's body). */
export const ERROR_CODES = [
  "ACCESS_TOKEN_NOT_FOUND",
  "ACCOUNT_NOT_FOUND",
  "ACCOUNT_NOT_LINKED",
  "ACCOUNT_NOT_LINKED_DIFFERENT_EMAILS_NOT_ALLOWED",
  "ACCOUNT_NOT_LINKED_LINKING_NOT_ALLOWED",
  "ACCOUNT_TEMPORARILY_LOCKED",
  "AUTHENTICATION_FAILED",
  "BACKUP_CODES_NOT_ENABLED",
  "BANNED_USER",
  "BASEURL_IS_NOT_SET_LINKS_IN_MAIL_AND_OAUTH_REDIRECTS_NEED_IT_SET_BASE_URL",
  "CALLBACKURL_IS_REQUIRED",
  "CHALLENGE_NOT_FOUND",
  "CHANGE_EMAIL_IS_DISABLED",
  "CHANGE_EMAIL_WITH_OTP_IS_DISABLED",
  "CONTENT_TYPE_IS_REQUIRED",
  "COULDNT_UPDATE_YOUR_EMAIL",
  "CREDENTIAL_ACCOUNT_NOT_FOUND",
  "CROSS_SITE_NAVIGATION_LOGIN_BLOCKED_THIS_REQUEST_APPEARS_TO_BE_A_CSRF_ATTACK",
  "EITHER_USERID_OR_SESSION_IS_REQUIRED",
  "EMAIL_ALREADY_IN_USE",
  "EMAIL_AND_PASSWORD_IS_NOT_ENABLED",
  "EMAIL_AND_PASSWORD_SIGN_UP_IS_NOT_ENABLED",
  "EMAIL_CAN_NOT_BE_UPDATED",
  "EMAIL_IS_ALREADY_VERIFIED",
  "EMAIL_IS_THE_SAME",
  "EMAIL_MISMATCH",
  "EMAIL_NOT_VERIFIED",
  "EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION",
  "EMAIL_VERIFICATION_REQUIRED_TO_VIEW_OR_LIST_INVITATIONS_FOR_THE_SESSION_EMAIL",
  "EVENT_IS_NO_LONGER_IN_THE_AUDIT_LOG",
  "FAILED_TO_CREATE_SESSION",
  "FAILED_TO_CREATE_USER",
  "FAILED_TO_FIND_ADMIN_SESSION",
  "FAILED_TO_GET_ACCESS_TOKEN",
  "FAILED_TO_GET_SESSION",
  "FAILED_TO_GET_USER_INFO",
  "FAILED_TO_REACH_THE_PROVIDER",
  "FAILED_TO_REFRESH_ACCESS_TOKEN",
  "FAILED_TO_RETRIEVE_INVITATION",
  "FAILED_TO_UPDATE_USER",
  "FAILED_TO_VERIFY_REGISTRATION",
  "FIELD_NOT_ALLOWED",
  "GRANT_NOT_FOUND",
  "HEADERS_IS_REQUIRED",
  "ID_TOKEN_NOT_SUPPORTED",
  "INTERACTION_BELONGS_TO_ANOTHER_USER",
  "INTERACTION_IS_NOT_AWAITING_CONSENT",
  "INTERACTION_NOT_FOUND",
  "INTERNAL_SERVER_ERROR",
  "INVALID_BACKUP_CODE",
  "INVALID_CALLBACKURL",
  "INVALID_CALLBACKURL_EXPECTED_A_STRING",
  "INVALID_CODE",
  "INVALID_EMAIL",
  "INVALID_EMAIL_OR_PASSWORD",
  "INVALID_ERRORCALLBACKURL",
  "INVALID_ERRORCALLBACKURL_EXPECTED_A_STRING",
  "INVALID_JSON_IN_REQUEST_BODY",
  "INVALID_NEWUSERCALLBACKURL",
  "INVALID_NEWUSERCALLBACKURL_EXPECTED_A_STRING",
  "INVALID_ORIGIN",
  "INVALID_OTP",
  "INVALID_OTP_TYPE",
  "INVALID_PASSWORD",
  "INVALID_PERMISSION_CHECK_NO_PERMISSIONS_WERE_PASSED",
  "INVALID_REDIRECTTO_EXPECTED_A_STRING",
  "INVALID_REDIRECTURL",
  "INVALID_ROLE_TYPE",
  "INVALID_TOKEN",
  "INVALID_TWO_FACTOR_COOKIE",
  "INVALID_USERNAME_OR_PASSWORD",
  "INVITATION_LIMIT_REACHED",
  "INVITATION_NOT_FOUND",
  "INVITER_IS_NO_LONGER_ALLOWED_TO_INVITE_A_USER_WITH_THIS_ROLE",
  "INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION",
  "MEMBER_NOT_FOUND",
  "MISSING_OR_NULL_ORIGIN",
  "NEW_USER_SIGNUP_DISABLED",
  "NOT_ALLOWED_TO_DELETE_TEAMS_OR_UPDATE_THIS_TEAM",
  "NOT_ALLOWED_TO_UPDATE_OR_DELETE_THIS_ORGANIZATION",
  "NOT_FOUND",
  "NO_ACTIVE_ORGANIZATION",
  "NO_DATA_TO_UPDATE",
  "NO_FIELDS_TO_UPDATE",
  "OIDC_CLIENT_ID_IS_TAKEN",
  "OIDC_CLIENT_IS_DECLARED_IN_THE_CONFIGURATION",
  "OIDC_CLIENT_NOT_FOUND",
  "ORGANIZATION_ALREADY_EXISTS",
  "ORGANIZATION_DELETION_IS_DISABLED",
  "ORGANIZATION_ID_IS_REQUIRED",
  "ORGANIZATION_MEMBERSHIP_LIMIT_REACHED",
  "ORGANIZATION_NOT_FOUND",
  "ORGANIZATION_SLUG_ALREADY_TAKEN",
  "OTP_EXPIRED",
  "OTP_HAS_EXPIRED",
  "OTP_IS_ALREADY_ENABLED",
  "OTP_IS_REQUIRED_TO_VERIFY_CURRENT_EMAIL",
  "OTP_NOT_ENABLED",
  "PASSKEY_NOT_FOUND",
  "PASSWORD_CANNOT_BE_UPDATED_THROUGH_UPDATE_USER_USE_THE_SET_USER_PASSWORD_ENDPOINT_INSTEAD",
  "PASSWORD_REQUIRED_TO_DELETE_THIS_PASSKEY",
  "PASSWORD_TOO_LONG",
  "PASSWORD_TOO_SHORT",
  "PREVIOUSLY_REGISTERED",
  "PROVIDER_NOT_FOUND",
  "PUBLIC_CLIENTS_HAVE_NO_SECRET",
  "REFERENCED_RECORD_NO_LONGER_EXISTS",
  "REFRESH_TOKEN_NOT_FOUND",
  "REQUEST_BODY_INCOMPLETE",
  "REQUEST_BODY_IS_TOO_LARGE",
  "RESET_PASSWORD_ISNT_ENABLED",
  "ROLE_NOT_FOUND",
  "SERVICE_UNAVAILABLE",
  "SESSION_EXPIRED_RE_AUTHENTICATE_TO_PERFORM_THIS_ACTION",
  "SESSION_IS_NOT_FRESH",
  "SESSION_NOT_FOUND",
  "SIGNUP_DISABLED",
  "SLUG_IS_TAKEN",
  "SOCIAL_ACCOUNT_ALREADY_LINKED",
  "TEAM_MEMBER_LIMIT_REACHED",
  "TEAM_NOT_FOUND",
  "THE_EMAIL_COULD_NOT_BE_SENT_PLEASE_TRY_AGAIN_LATER",
  "TOKEN_EXPIRED",
  "TOKEN_REFRESH_NOT_SUPPORTED",
  "TOO_MANY_ATTEMPTS",
  "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE",
  "TOO_MANY_REQUESTS_PLEASE_TRY_AGAIN_LATER",
  "TOO_MANY_WEBHOOK_ENDPOINTS",
  "TOTP_ALREADY_ENABLED",
  "TOTP_NOT_ENABLED",
  "TWO_FACTOR_NOT_ENABLED",
  "TWO_FACTOR_REQUIRED_BY_ORGANIZATION",
  "UNABLE_TO_CREATE_USER",
  "UNABLE_TO_CREATE_VERIFICATION",
  "UNABLE_TO_LINK_ACCOUNT",
  "UNABLE_TO_REMOVE_LAST_TEAM",
  "UNAUTHORIZED",
  "UNAUTHORIZED_TO_ACCESS_RESOURCE",
  "UNSUPPORTED_LANGUAGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER",
  "USERNAME_IS_INVALID",
  "USERNAME_IS_TOO_LONG",
  "USERNAME_IS_TOO_SHORT",
  "USER_ALREADY_EXISTS",
  "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
  "USER_ALREADY_HAS_A_PASSWORD",
  "USER_EMAIL_CANNOT_BE_PASSED_FOR_CLIENT_SIDE_API_CALLS",
  "USER_EMAIL_NOT_FOUND",
  "USER_ID_CANNOT_BE_UPDATED",
  "USER_ID_OR_ROLE_IS_REQUIRED",
  "USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION",
  "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION",
  "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
  "USER_IS_NOT_A_MEMBER_OF_THE_TEAM",
  "USER_NOT_FOUND",
  "VALIDATION_ERROR",
  "VERIFICATION_EMAIL_ISNT_ENABLED",
  "WEBHOOK_DELIVERY_IS_BEING_SENT",
  "WEBHOOK_DELIVERY_NOT_FOUND",
  "WEBHOOK_ENDPOINT_IS_DECLARED_IN_THE_CONFIGURATION",
  "WEBHOOK_ENDPOINT_NOT_FOUND",
  "WEBHOOK_URL_POINTS_TO_A_PRIVATE_ADDRESS",
  "YOU_ARE_NOT_ALLOWED_TO_ACCESS_RESOURCE",
  "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS",
  "YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION",
  "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE",
  "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_MEMBER",
  "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION",
  "YOU_ARE_NOT_ALLOWED_TO_CREATE_OIDC_CLIENTS",
  "YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION",
  "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS",
  "YOU_ARE_NOT_ALLOWED_TO_CREATE_WEBHOOKS",
  "YOU_ARE_NOT_ALLOWED_TO_DELETE_OIDC_CLIENTS",
  "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER",
  "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS",
  "YOU_ARE_NOT_ALLOWED_TO_DELETE_WEBHOOKS",
  "YOU_ARE_NOT_ALLOWED_TO_EXPORT_EVENTS",
  "YOU_ARE_NOT_ALLOWED_TO_GET_OIDC_CLIENTS",
  "YOU_ARE_NOT_ALLOWED_TO_GET_ORGANIZATION",
  "YOU_ARE_NOT_ALLOWED_TO_GET_USER",
  "YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS",
  "YOU_ARE_NOT_ALLOWED_TO_INVITE_A_USER_WITH_THIS_ROLE",
  "YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION",
  "YOU_ARE_NOT_ALLOWED_TO_LIST_EVENTS",
  "YOU_ARE_NOT_ALLOWED_TO_LIST_INVITATIONS_FOR_THIS_ORGANIZATION",
  "YOU_ARE_NOT_ALLOWED_TO_LIST_OIDC_CLIENTS",
  "YOU_ARE_NOT_ALLOWED_TO_LIST_ORGANIZATIONS",
  "YOU_ARE_NOT_ALLOWED_TO_LIST_THIS_ORGANIZATIONS_EVENTS",
  "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS",
  "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_FACTORS",
  "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_OIDC_GRANTS",
  "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS",
  "YOU_ARE_NOT_ALLOWED_TO_LIST_WEBHOOKS",
  "YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY",
  "YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER",
  "YOU_ARE_NOT_ALLOWED_TO_RESEND_WEBHOOKS",
  "YOU_ARE_NOT_ALLOWED_TO_RESET_USERS_FACTORS",
  "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_OIDC_GRANTS",
  "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS",
  "YOU_ARE_NOT_ALLOWED_TO_SET_A_NON_EXISTENT_ROLE_VALUE",
  "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD",
  "YOU_ARE_NOT_ALLOWED_TO_UPDATE_OIDC_CLIENTS",
  "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER",
  "YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS",
  "YOU_ARE_NOT_ALLOWED_TO_UPDATE_WEBHOOKS",
  "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION",
  "YOU_ARE_NOT_IMPERSONATING_ANYONE",
  "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION",
  "YOU_CANNOT_BAN_YOURSELF",
  "YOU_CANNOT_IMPERSONATE_ADMINS",
  "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER",
  "YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER",
  "YOU_CANNOT_REMOVE_YOURSELF",
  "YOU_CANNOT_RESET_YOUR_OWN_FACTORS",
  "YOU_CANT_UNLINK_YOUR_LAST_ACCOUNT",
  "YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM",
  "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS",
  "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS",
  "YOU_MUST_ENABLE_TWO_FACTOR_BEFORE_REQUIRING_IT",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

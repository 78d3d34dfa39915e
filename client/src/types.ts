/**
 * The shapes the server sends and accepts, by the names applications use. None is written here: each is a type
 * generated from the server's zod schemas (client/src/contract.gen.ts: the shared shapes such as `User`, `Session` and
 * `Organization`, and each route's `<Route>Body`, `<Route>Query` and `<Route>Data`, "/sign-in/email" giving
 * `SignInEmailBody` and `SignInEmailData`), or an alias of one by route below. Timestamps stay the ISO-8601 strings
 * that arrive on the wire (`ISODateString`): the client never turns them into Date objects, so what a call returns is
 * exactly what the server said. Use `new Date(value)` where a Date is needed.
 */
import type { RouteBody, RouteData, RouteQuery } from "./routes.js";

export type * from "./contract.gen.js";

/** The `{ status: boolean }` many routes answer. */
export type StatusData = RouteData<"/update-user">;

/** A message the development outbox kept (GET /dev/outbox; only without SMTP, never in production). */
export type OutboxMail = RouteData<"/dev/outbox">[number];

/** One of the user's accounts: "credential" (the password) or a provider's. Never its tokens. */
export type LinkedAccount = RouteData<"/list-accounts">[number];

/** Which linked account a token route is about. */
export type AccountSelection = RouteBody<"/refresh-token">;

export type AccessTokenData = RouteData<"/get-access-token">;

export type InvitationStatus = RouteData<"/organization/get-invitation">["status"];

/** GET /organization/get-invitation: the invitation with what the invitee needs to decide. */
export type InvitationDetails = RouteData<"/organization/get-invitation">;

/** GET /organization/list-user-invitations: a pending invitation sent to the signed-in user. */
export type UserInvitation = RouteData<"/organization/list-user-invitations">[number];

/** GET /organization/get-full-organization, when the organization exists. */
export type FullOrganization = NonNullable<RouteData<"/organization/get-full-organization">>;

export type CreateOrganizationBody = RouteBody<"/organization/create">;
export type UpdateOrganizationBody = RouteBody<"/organization/update">;
export type OrganizationQuery = RouteQuery<"/organization/get-full-organization">;
export type SetActiveOrganizationBody = RouteBody<"/organization/set-active">;
export type InviteMemberBody = RouteBody<"/organization/invite-member">;
export type InvitationDecisionData = RouteData<"/organization/accept-invitation" | "/organization/reject-invitation">;
export type ListMembersQuery = RouteQuery<"/organization/list-members">;
export type HasPermissionBody = RouteBody<"/organization/has-permission">;

/** GET /admin/get-user: the user, with what the service decides about them for the caller. */
export type AdminUserDetail = RouteData<"/admin/get-user">;
export type AdminUserData = RouteData<"/admin/create-user">;
export type AdminUserIdBody = RouteBody<"/admin/remove-user">;
export type AdminSessionsData = RouteData<"/admin/list-user-sessions">;
export type AdminSuccessData = RouteData<"/admin/remove-user">;

/** One row of GET /admin/list-organizations: an organization with its member count. */
export type AdminOrganization = RouteData<"/admin/list-organizations">["organizations"][number];

/** GET /admin/get-organization: one organization with its members. */
export type AdminOrganizationDetail = RouteData<"/admin/get-organization">;

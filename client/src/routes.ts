import { shape, type RouteTable } from "./route-spec.js";
import type {
  ChangeEmailBody,
  ChangePasswordBody,
  ChangePasswordData,
  DeleteUserBody,
  DeleteUserCallbackQuery,
  DeleteUserData,
  ForgetPasswordBody,
  GetSessionQuery,
  FeaturesData,
  OkData,
  OutboxMail,
  RequestPasswordResetData,
  ResetPasswordBody,
  ResetPasswordQuery,
  RevokeSessionBody,
  SendVerificationEmailBody,
  Session,
  SessionData,
  SignInEmailBody,
  SignInEmailData,
  SignOutData,
  SignUpEmailBody,
  SignUpEmailData,
  StatusData,
  UpdateUserBody,
  VerifyEmailData,
  VerifyEmailQuery,
} from "./types.js";

/**
 * Every route the client knows, by path relative to the API base. This table is the one place a new
 * server route is added: the client derives a method from each path (kebab-case segments become
 * camelCase, each "/" a level of nesting), so "/sign-in/social" becomes `client.signIn.social`,
 * "/forget-password" `client.forgetPassword` and "/organization/create" `client.organization.create`.
 * Routes with path parameters (":token") do not belong here; they are not called through fetch.
 */
export const ROUTES = {
  "/sign-up/email": { method: "POST", body: shape<SignUpEmailBody>(), data: shape<SignUpEmailData>() },
  "/sign-in/email": { method: "POST", body: shape<SignInEmailBody>(), data: shape<SignInEmailData>() },
  "/sign-out": { method: "POST", data: shape<SignOutData>() },
  "/get-session": { method: "GET", query: shape<GetSessionQuery>(), data: shape<SessionData | null>() },
  "/list-sessions": { method: "GET", data: shape<Session[]>() },
  "/revoke-session": { method: "POST", body: shape<RevokeSessionBody>(), data: shape<StatusData>() },
  "/revoke-sessions": { method: "POST", data: shape<StatusData>() },
  "/revoke-other-sessions": { method: "POST", data: shape<StatusData>() },
  "/update-user": { method: "POST", body: shape<UpdateUserBody>(), data: shape<StatusData>() },
  "/send-verification-email": { method: "POST", body: shape<SendVerificationEmailBody>(), data: shape<StatusData>() },
  "/verify-email": { method: "GET", query: shape<VerifyEmailQuery>(), data: shape<VerifyEmailData>() },
  "/forget-password": { method: "POST", body: shape<ForgetPasswordBody>(), data: shape<StatusData>() },
  "/request-password-reset": { method: "POST", body: shape<ForgetPasswordBody>(), data: shape<RequestPasswordResetData>() },
  "/reset-password": { method: "POST", body: shape<ResetPasswordBody>(), query: shape<ResetPasswordQuery>(), data: shape<StatusData>() },
  "/change-password": { method: "POST", body: shape<ChangePasswordBody>(), data: shape<ChangePasswordData>() },
  "/change-email": { method: "POST", body: shape<ChangeEmailBody>(), data: shape<StatusData>() },
  "/delete-user": { method: "POST", body: shape<DeleteUserBody | void>(), data: shape<DeleteUserData>() },
  "/delete-user/callback": { method: "GET", query: shape<DeleteUserCallbackQuery>(), data: shape<DeleteUserData>() },
  "/dev/outbox": { method: "GET", data: shape<OutboxMail[]>() },
  "/ok": { method: "GET", data: shape<OkData>() },
  "/features": { method: "GET", data: shape<FeaturesData>() },
} as const satisfies RouteTable;

export type Routes = typeof ROUTES;
export type RoutePath = keyof Routes;

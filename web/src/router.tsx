import { createBrowserRouter } from "react-router";
import { AppShell } from "./components/app-shell";
import { GuestOnly } from "./components/guest-only";
import { RequireAdmin } from "./components/require-admin";
import { RequireSession } from "./components/require-session";
import { AccountDeletedPage } from "./routes/account-deleted/account-deleted-page";
import { AccountPage } from "./routes/account/account-page";
import { AdminOrganizationPage } from "./routes/admin-organization/admin-organization-page";
import { AdminOrganizationsPage } from "./routes/admin-organizations/admin-organizations-page";
import { AdminUserPage } from "./routes/admin-user/admin-user-page";
import { AdminPage } from "./routes/admin/admin-page";
import { DevOutboxPage } from "./routes/dev-outbox/dev-outbox-page";
import { ErrorPage } from "./routes/error/error-page";
import { ForgotPasswordPage } from "./routes/forgot-password/forgot-password-page";
import { HomePage } from "./routes/home/home-page";
import { InvitationPage } from "./routes/invitation/invitation-page";
import { NewOrganizationPage } from "./routes/new-organization/new-organization-page";
import { NotFoundPage } from "./routes/not-found/not-found-page";
import { OrganizationPage } from "./routes/organization/organization-page";
import { ResetPasswordPage } from "./routes/reset-password/reset-password-page";
import { SignInPage } from "./routes/sign-in/sign-in-page";
import { SignUpPage } from "./routes/sign-up/sign-up-page";
import { VerifyEmailPage } from "./routes/verify-email/verify-email-page";

/** Every page of the app. The service answers index.html for any path outside /api/auth, so these are real URLs. */
export const router = createBrowserRouter([
  {
    element: <GuestOnly />,
    children: [
      { path: "/sign-in", element: <SignInPage /> },
      { path: "/sign-up", element: <SignUpPage /> },
      { path: "/forgot-password", element: <ForgotPasswordPage /> },
    ],
  },
  {
    element: <RequireSession />,
    children: [
      {
        element: <AppShell />,
        children: [
          { index: true, element: <HomePage /> },
          { path: "/account", element: <AccountPage /> },
          {
            path: "/admin",
            element: <RequireAdmin />,
            children: [
              { index: true, element: <AdminPage /> },
              { path: "users/:id", element: <AdminUserPage /> },
              { path: "organizations", element: <AdminOrganizationsPage /> },
              { path: "organizations/:id", element: <AdminOrganizationPage /> },
            ],
          },
          { path: "/organization", element: <OrganizationPage /> },
          { path: "/organizations/new", element: <NewOrganizationPage /> },
        ],
      },
    ],
  },
  // Open to everyone: mailed links land here whether or not the visitor is signed in.
  { path: "/verify-email", element: <VerifyEmailPage /> },
  { path: "/reset-password", element: <ResetPasswordPage /> },
  { path: "/account-deleted", element: <AccountDeletedPage /> },
  // Mailed invitation links; signed-out visitors are offered sign-in or sign-up and come back here.
  { path: "/invitation/:id", element: <InvitationPage /> },
  // Shows only when the service keeps a development outbox (a 404 page otherwise).
  { path: "/dev/outbox", element: <DevOutboxPage /> },
  { path: "/error", element: <ErrorPage /> },
  { path: "*", element: <NotFoundPage /> },
]);

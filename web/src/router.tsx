import { createElement, lazy, Suspense, type ComponentType } from "react";
import { matchRoutes, useRoutes, type RouteObject } from "react-router";
import { GuestOnly } from "./components/guest-only";
import { LoadingScreen } from "./components/loading-screen";
import { RequireSession } from "./components/require-session";

/**
 * Each page is a chunk of its own (issue #13), fetched when the page is first visited. main.tsx fetches the first
 * page's chunks before the first render (preloadPage), so it appears whole. A page visited later shows the loading
 * screen in its place (inside the layouts around it, which stay) until its chunk is in.
 */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): Pick<RouteObject, "element" | "handle"> {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const preload = () => (loading ??= load().then((module) => (loaded = pick(module))));
  const Lazy = lazy(async () => ({ default: await preload() }));
  function Page() {
    if (loaded) return createElement(loaded);
    return (
      <Suspense fallback={<LoadingScreen />}>
        <Lazy />
      </Suspense>
    );
  }
  return { element: <Page />, handle: { preload } };
}

/** Every page of the app. The service answers index.html for any path outside /api/auth, so these are real URLs. */
const routes: RouteObject[] = [
  {
    element: <GuestOnly />,
    children: [
      { path: "/sign-in", ...page(() => import("./routes/sign-in/sign-in-page"), (m) => m.SignInPage) },
      { path: "/sign-up", ...page(() => import("./routes/sign-up/sign-up-page"), (m) => m.SignUpPage) },
      {
        path: "/forgot-password",
        ...page(() => import("./routes/forgot-password/forgot-password-page"), (m) => m.ForgotPasswordPage),
      },
    ],
  },
  {
    element: <RequireSession />,
    children: [
      {
        ...page(() => import("./components/app-shell"), (m) => m.AppShell),
        children: [
          { index: true, ...page(() => import("./routes/home/home-page"), (m) => m.HomePage) },
          { path: "/account", ...page(() => import("./routes/account/account-page"), (m) => m.AccountPage) },
          {
            path: "/admin",
            ...page(() => import("./components/require-admin"), (m) => m.RequireAdmin),
            children: [
              { index: true, ...page(() => import("./routes/admin/admin-page"), (m) => m.AdminPage) },
              { path: "users/:id", ...page(() => import("./routes/admin-user/admin-user-page"), (m) => m.AdminUserPage) },
              {
                path: "organizations",
                ...page(() => import("./routes/admin-organizations/admin-organizations-page"), (m) => m.AdminOrganizationsPage),
              },
              {
                path: "organizations/:id",
                ...page(() => import("./routes/admin-organization/admin-organization-page"), (m) => m.AdminOrganizationPage),
              },
            ],
          },
          { path: "/organization", ...page(() => import("./routes/organization/organization-page"), (m) => m.OrganizationPage) },
          {
            path: "/organizations/new",
            ...page(() => import("./routes/new-organization/new-organization-page"), (m) => m.NewOrganizationPage),
          },
        ],
      },
    ],
  },
  // Open to everyone: mailed links land here whether or not the visitor is signed in.
  { path: "/verify-email", ...page(() => import("./routes/verify-email/verify-email-page"), (m) => m.VerifyEmailPage) },
  { path: "/reset-password", ...page(() => import("./routes/reset-password/reset-password-page"), (m) => m.ResetPasswordPage) },
  { path: "/account-deleted", ...page(() => import("./routes/account-deleted/account-deleted-page"), (m) => m.AccountDeletedPage) },
  // Mailed invitation links; signed-out visitors are offered sign-in or sign-up and come back here.
  { path: "/invitation/:id", ...page(() => import("./routes/invitation/invitation-page"), (m) => m.InvitationPage) },
  // Shows only when the service keeps a development outbox (a 404 page otherwise).
  { path: "/dev/outbox", ...page(() => import("./routes/dev-outbox/dev-outbox-page"), (m) => m.DevOutboxPage) },
  { path: "/error", ...page(() => import("./routes/error/error-page"), (m) => m.ErrorPage) },
  { path: "*", ...page(() => import("./routes/not-found/not-found-page"), (m) => m.NotFoundPage) },
];

/** Fetches the chunks of the page at `pathname` (and of the layouts around it). */
export function preloadPage(pathname: string): Promise<unknown> {
  const matches = matchRoutes(routes, pathname) ?? [];
  return Promise.all(matches.map((match) => (match.route.handle as { preload?: () => Promise<unknown> } | undefined)?.preload?.()));
}

/** The app's pages, below <BrowserRouter> (main.tsx). */
export function AppRoutes() {
  return useRoutes(routes);
}

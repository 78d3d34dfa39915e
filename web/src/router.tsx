import { createElement, lazy, Suspense, type ComponentType } from "react";
import { matchRoutes, useRoutes, type RouteObject } from "react-router";
import { GuestOnly } from "./components/guest-only";
import { LoadingScreen } from "./components/loading-screen";
import { RequireSession } from "./components/require-session";
import { prefetch, queries, type AnyQuery } from "./lib/data";

interface PageHandle {
  /** Fetches the page's chunk. */
  preload(): Promise<unknown>;
  /** The queries the page shows as it first renders, read beside its chunk when it is the first page (preloadPage). */
  data?: () => AnyQuery[];
}

/**
 * Each page is a chunk of its own (issue #13), fetched when the page is first visited. main.tsx fetches the first
 * page's chunks, and reads the data they name, before the first render (preloadPage), so it appears whole, with its
 * data, in one render. A page visited later shows the loading screen in its place (inside the layouts around it,
 * which stay) until its chunk is in.
 */
function page<M>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType,
  data?: PageHandle["data"],
): Pick<RouteObject, "element" | "handle"> {
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
  const handle: PageHandle = { preload, data };
  return { element: <Page />, handle };
}

/** Every page of the app. The service answers index.html for any path outside /api/auth, so these are real URLs. */
const routes: RouteObject[] = [
  {
    element: <GuestOnly />,
    children: [
      { path: "/sign-in", ...page(() => import("./routes/sign-in/sign-in-page"), (m) => m.SignInPage) },
      { path: "/sign-in/link", ...page(() => import("./routes/email-link/email-link-page"), (m) => m.EmailLinkPage) },
      { path: "/sign-in/code", ...page(() => import("./routes/email-code/email-code-page"), (m) => m.EmailCodePage) },
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
      // The OpenID Provider's consent page (#16): an application asks for the signed-in user's permission.
      { path: "/oauth/consent", ...page(() => import("./routes/oauth-consent/oauth-consent-page"), (m) => m.OauthConsentPage) },
      {
        // The header's administration link and organization switcher.
        ...page(
          () => import("./components/app-shell"),
          (m) => m.AppShell,
          () => [queries.administrator(), queries.organizations(), queries.invitations()],
        ),
        children: [
          { index: true, ...page(() => import("./routes/home/home-page"), (m) => m.HomePage) },
          {
            path: "/account",
            ...page(
              () => import("./routes/account/account-page"),
              (m) => m.AccountPage,
              () => [queries.features(), queries.accounts(), queries.sessions()],
            ),
          },
          {
            path: "/admin",
            ...page(() => import("./components/require-admin"), (m) => m.RequireAdmin),
            children: [
              { index: true, ...page(() => import("./routes/admin/admin-page"), (m) => m.AdminPage) },
              { path: "users/:id", ...page(() => import("./routes/admin-user/admin-user-page"), (m) => m.AdminUserPage) },
              { path: "audit-log", ...page(() => import("./routes/admin-audit-log/admin-audit-log-page"), (m) => m.AdminAuditLogPage) },
              { path: "webhooks", ...page(() => import("./routes/admin-webhooks/admin-webhooks-page"), (m) => m.AdminWebhooksPage) },
              { path: "webhooks/:id", ...page(() => import("./routes/admin-webhooks/admin-webhook-page"), (m) => m.AdminWebhookPage) },
              // The OpenID Provider's clients (#16).
              {
                path: "applications",
                ...page(() => import("./routes/admin-applications/admin-applications-page"), (m) => m.AdminApplicationsPage),
              },
              {
                path: "applications/:clientId",
                ...page(() => import("./routes/admin-applications/admin-application-page"), (m) => m.AdminApplicationPage),
              },
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
          { path: "/account/security", ...page(() => import("./routes/security/security-page"), (m) => m.SecurityPage) },
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
  // The second step of a sign-in: signed out, with a pending challenge; signed-in visitors go on to its callbackURL.
  { path: "/two-factor", ...page(() => import("./routes/two-factor/two-factor-page"), (m) => m.TwoFactorPage) },
  // A mailed sign-in link: it signs in only when the visitor presses its button (a mail scanner uses nothing).
  { path: "/magic-link", ...page(() => import("./routes/magic-link/magic-link-page"), (m) => m.MagicLinkPage) },
  { path: "/account-deleted", ...page(() => import("./routes/account-deleted/account-deleted-page"), (m) => m.AccountDeletedPage) },
  // Mailed invitation links; signed-out visitors are offered sign-in or sign-up and come back here.
  { path: "/invitation/:id", ...page(() => import("./routes/invitation/invitation-page"), (m) => m.InvitationPage) },
  // Shows only when the service keeps a development outbox (a 404 page otherwise).
  { path: "/dev/outbox", ...page(() => import("./routes/dev-outbox/dev-outbox-page"), (m) => m.DevOutboxPage) },
  { path: "/error", ...page(() => import("./routes/error/error-page"), (m) => m.ErrorPage) },
  { path: "*", ...page(() => import("./routes/not-found/not-found-page"), (m) => m.NotFoundPage) },
];

/** How long the first render waits for the first page's data at most; after that the page shows it loading. */
const DATA_WAIT_MS = 3_000;

/**
 * Fetches the chunks of the page at `pathname` (and of the layouts around it) and reads the data they show first;
 * resolves when both are in, or the data has taken DATA_WAIT_MS.
 */
export function preloadPage(pathname: string): Promise<unknown> {
  const handles = (matchRoutes(routes, pathname) ?? []).flatMap((match) => (match.route.handle as PageHandle | undefined) ?? []);
  const data = prefetch(handles.flatMap((handle) => handle.data?.() ?? []));
  return Promise.all([
    ...handles.map((handle) => handle.preload()),
    Promise.race([data, new Promise((resolve) => setTimeout(resolve, DATA_WAIT_MS))]),
  ]);
}

/** The app's pages, below <BrowserRouter> (main.tsx). */
export function AppRoutes() {
  return useRoutes(routes);
}

import { createBrowserRouter } from "react-router";
import { AppShell } from "./components/app-shell";
import { GuestOnly } from "./components/guest-only";
import { RequireSession } from "./components/require-session";
import { AccountPage } from "./routes/account/account-page";
import { ErrorPage } from "./routes/error/error-page";
import { HomePage } from "./routes/home/home-page";
import { NotFoundPage } from "./routes/not-found/not-found-page";
import { SignInPage } from "./routes/sign-in/sign-in-page";
import { SignUpPage } from "./routes/sign-up/sign-up-page";

/** Every page of the app. The service answers index.html for any path outside /api/auth, so these are real URLs. */
export const router = createBrowserRouter([
  {
    element: <GuestOnly />,
    children: [
      { path: "/sign-in", element: <SignInPage /> },
      { path: "/sign-up", element: <SignUpPage /> },
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
        ],
      },
    ],
  },
  { path: "/error", element: <ErrorPage /> },
  { path: "*", element: <NotFoundPage /> },
]);

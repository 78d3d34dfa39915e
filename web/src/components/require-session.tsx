import { Navigate, Outlet, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { authClient } from "../lib/auth-client";
import { AuthLayout } from "./auth-layout";
import { CurrentSessionContext } from "./current-session";
import { LoadingScreen } from "./loading-screen";
import { isSigningOut, SIGNED_OUT } from "./sign-out-button";
import { Alert } from "./ui/alert";
import { Button } from "./ui/button";

/** Shows its child routes to signed-in visitors only; everyone else goes to /sign-in and comes back after. */
export function RequireSession() {
  const { t } = useTranslation();
  const location = useLocation();
  const { data, error, isPending, isRefetching, refetch } = authClient.useSession();

  if (isPending) return <LoadingScreen />;
  if (data) {
    return (
      <CurrentSessionContext value={data}>
        <Outlet />
      </CurrentSessionContext>
    );
  }
  // The session could not be read at all (network or server fault): say so rather than pretend to be signed out.
  if (error && error.status !== 401) {
    return (
      <AuthLayout>
        <Alert variant="error" title={t("common.genericError")}>
          {t("common.networkError")}
        </Alert>
        <Button onClick={() => void refetch()} loading={isRefetching} loadingText={t("app.loading")}>
          {t("common.tryAgain")}
        </Button>
      </AuthLayout>
    );
  }
  // Signed out on purpose: on to the sign-in page with its confirmation, as the sign-out button does.
  if (isSigningOut()) return <Navigate to="/sign-in" replace state={SIGNED_OUT} />;
  const from = location.pathname + location.search + location.hash;
  return <Navigate to="/sign-in" replace state={from === "/" ? undefined : { from }} />;
}

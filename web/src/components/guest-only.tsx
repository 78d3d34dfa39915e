import { useEffect } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { authClient } from "../lib/auth-client";
import { LoadingScreen } from "./loading-screen";
import { signOutFinished } from "./sign-out-button";

/** Where to go once signed in: the page that sent the visitor here, if it is one of ours. */
function returnPath(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === "string" && from.startsWith("/") && !from.startsWith("//") ? from : "/";
}

/** Shows its child routes (sign-in, sign-up) to signed-out visitors; signed-in ones go on to the app. */
export function GuestOnly() {
  const location = useLocation();
  const { data, isPending } = authClient.useSession();
  useEffect(() => {
    if (!data && !isPending) signOutFinished();
  }, [data, isPending]);
  if (isPending) return <LoadingScreen />;
  if (data) return <Navigate to={returnPath(location.state)} replace />;
  return <Outlet />;
}

import { useEffect, useRef } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { authClient } from "../lib/auth-client";
import { goOnPath, isServicePath, readReturnTo } from "../lib/return-to";
import { LoadingScreen } from "./loading-screen";
import { signOutFinished } from "./sign-out-button";

/**
 * Shows its child routes (sign-in, sign-up) to signed-out visitors; signed-in ones go on to the app, or to the
 * OpenID Provider's interaction (`?returnTo=`, a full navigation: it is the service's route). With `prompt=login`
 * the provider asks for a fresh sign-in: the form shows even to a signed-in visitor, until a new session replaces
 * the one the page opened with.
 */
export function GuestOnly() {
  const location = useLocation();
  const { data, isPending } = authClient.useSession();
  const returnTo = readReturnTo(location.search);
  // The session the page opened with (null: none); undefined until the first answer.
  const opened = useRef<string | null | undefined>(undefined);
  if (!isPending && opened.current === undefined) opened.current = data?.session.id ?? null;
  const signedIn = Boolean(data) && !(returnTo.promptLogin && data?.session.id === opened.current);
  const target = returnTo.path ?? goOnPath((location.state as { from?: unknown } | null)?.from);
  const leave = signedIn && isServicePath(target);
  useEffect(() => {
    if (!data && !isPending) signOutFinished();
  }, [data, isPending]);
  useEffect(() => {
    if (leave) window.location.assign(target);
  }, [leave, target]);
  if (isPending || leave) return <LoadingScreen />;
  if (signedIn) return <Navigate to={target} replace />;
  return <Outlet />;
}

import { Outlet } from "react-router";
import { isAdmin } from "../lib/is-admin";
import { NotFoundPage } from "../routes/not-found/not-found-page";
import { useCurrentSession } from "./current-session";

/** Shows its child routes to administrators only; to everyone else the pages do not exist (404). */
export function RequireAdmin() {
  const { user } = useCurrentSession();
  return isAdmin(user) ? <Outlet /> : <NotFoundPage />;
}

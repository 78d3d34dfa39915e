import { Outlet } from "react-router";
import { isAdmin } from "../lib/is-admin";
import { NotFoundInShell } from "../routes/not-found/not-found-page";
import { useCurrentSession } from "./current-session";

/**
 * Shows its child routes to administrators only; to everyone else the pages do not exist (404). It sits inside
 * the app shell, so the 404 comes without a layout of its own (one header, one impersonation banner).
 */
export function RequireAdmin() {
  const { user } = useCurrentSession();
  return isAdmin(user) ? <Outlet /> : <NotFoundInShell />;
}

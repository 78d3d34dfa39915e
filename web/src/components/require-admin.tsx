import { Outlet } from "react-router";
import { useTranslation } from "react-i18next";
import { useAdministrator } from "../lib/is-admin";
import { NotFoundInShell } from "../routes/not-found/not-found-page";
import { CardListState } from "./card-list-state";

/**
 * Shows its child routes to administrators only, as the service decides (lib/is-admin.ts); to everyone else the
 * pages do not exist (404). It sits inside the app shell, so the 404 comes without a layout of its own (one
 * header, one impersonation banner).
 */
export function RequireAdmin() {
  const { t } = useTranslation();
  const { administrator, retry } = useAdministrator();
  if (administrator === true) return <Outlet />;
  if (administrator === false) return <NotFoundInShell />;
  return (
    <CardListState
      state={administrator === undefined ? "loading" : "failed"}
      loadingText={t("app.loading")}
      failedTitle={t("common.networkError")}
      onRetry={retry}
    />
  );
}

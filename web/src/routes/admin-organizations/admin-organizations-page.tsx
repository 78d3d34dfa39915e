import type { AdminListOrganizationsQuery, AdminOrganization, AuthError } from "@gatehouse/client";
import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { AdminNav } from "../../components/admin-nav";
import { CardListState } from "../../components/card-list-state";
import { ListPager } from "../../components/list-pager";
import { PageHeading } from "../../components/page-heading";
import { Card } from "../../components/ui/card";
import { authClient } from "../../lib/auth-client";
import { formatDate } from "../../lib/format-time";
import { useDocumentTitle } from "../../lib/use-document-title";
import list from "../../components/admin-list.module.css";
import styles from "./admin-organizations-page.module.css";

/** Rows per page. */
export const PAGE_SIZE = 20;

type Sort = "newest" | "oldest" | "name" | "slug";
type Load =
  | { state: "loading" }
  | { state: "failed"; error: AuthError }
  | { state: "ready"; organizations: AdminOrganization[]; total: number; offset: number };

const SORTS: Record<Sort, Pick<AdminListOrganizationsQuery, "sortBy" | "sortDirection">> = {
  newest: { sortBy: "createdAt", sortDirection: "desc" },
  oldest: { sortBy: "createdAt", sortDirection: "asc" },
  name: { sortBy: "name", sortDirection: "asc" },
  slug: { sortBy: "slug", sortDirection: "asc" },
};

/** Every organization on the service, whoever its members are: searched by name or slug, sorted and paged. */
export function AdminOrganizationsPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t("admin.organizations.title"));
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<Sort>("newest");
  const [offset, setOffset] = useState(0);
  const [load, setLoad] = useState<Load>({ state: "loading" });

  const refresh = useCallback(async () => {
    setLoad({ state: "loading" });
    const value = search.trim();
    const { data, error } = await authClient.admin.listOrganizations({
      limit: PAGE_SIZE,
      offset,
      ...SORTS[sort],
      ...(value ? { searchValue: value } : {}),
    });
    setLoad(
      error
        ? { state: "failed", error }
        : { state: "ready", organizations: data.organizations, total: data.total, offset: data.offset },
    );
  }, [search, sort, offset]);

  // Typing waits a moment before asking the server.
  useEffect(() => {
    const timer = setTimeout(() => void refresh(), 250);
    return () => clearTimeout(timer);
  }, [refresh]);

  const ready = load.state === "ready" ? load : null;

  return (
    <div className={styles.page}>
      <AdminNav />
      <PageHeading lead={t("admin.organizations.lead")}>{t("admin.organizations.title")}</PageHeading>

      <Card flush>
        <div className={list.controls}>
          <label className={`${list.control} ${list.search}`}>
            <span className={list.label}>{t("admin.organizations.search")}</span>
            <input
              type="search"
              className={list.input}
              value={search}
              onChange={(event) => {
                setSearch(event.target.value);
                setOffset(0);
              }}
            />
          </label>
          <label className={list.control}>
            <span className={list.label}>{t("admin.sort")}</span>
            <select
              className={list.input}
              value={sort}
              onChange={(event) => {
                setSort(event.target.value as Sort);
                setOffset(0);
              }}
            >
              <option value="newest">{t("admin.sortNewest")}</option>
              <option value="oldest">{t("admin.sortOldest")}</option>
              <option value="name">{t("admin.sortName")}</option>
              <option value="slug">{t("admin.organizations.sortSlug")}</option>
            </select>
          </label>
        </div>

        {load.state !== "ready" ? (
          <div className={list.listState}>
            <CardListState
              state={load.state}
              error={load.state === "failed" ? load.error : undefined}
              loadingText={t("admin.organizations.loading")}
              failedTitle={t("common.genericError")}
              onRetry={() => void refresh()}
            />
          </div>
        ) : null}

        {ready && ready.organizations.length === 0 ? (
          <div className={list.empty}>
            <p className={list.emptyTitle}>{search.trim() ? t("admin.organizations.noMatch") : t("admin.organizations.none")}</p>
            {search.trim() ? <p className={list.emptyText}>{t("admin.organizations.noMatchHint")}</p> : null}
          </div>
        ) : null}

        {ready && ready.organizations.length > 0 ? (
          <>
            {/* The roles are spelled out: on phones the rows are laid out as blocks, which would drop a table's own. */}
            <table role="table" className={list.table} aria-label={t("admin.organizations.listLabel")}>
              <thead role="rowgroup">
                <tr role="row">
                  <th role="columnheader" scope="col">
                    {t("admin.organizations.columnName")}
                  </th>
                  <th role="columnheader" scope="col">
                    {t("admin.organizations.columnMembers")}
                  </th>
                  <th role="columnheader" scope="col">
                    {t("admin.columnCreated")}
                  </th>
                </tr>
              </thead>
              <tbody role="rowgroup">
                {ready.organizations.map((organization) => (
                  <tr role="row" key={organization.id}>
                    <td role="cell">
                      <Link className={list.primaryLink} to={`/admin/organizations/${encodeURIComponent(organization.id)}`}>
                        {organization.name}
                      </Link>
                      <span className={list.secondary}>{organization.slug}</span>
                    </td>
                    <td role="cell">
                      <span className={list.cellLabel} aria-hidden="true">
                        {t("admin.organizations.columnMembers")}
                      </span>
                      <span>{organization.memberCount}</span>
                    </td>
                    <td role="cell" className={list.nowrap}>
                      <span className={list.cellLabel} aria-hidden="true">
                        {t("admin.columnCreated")}
                      </span>
                      <span>{formatDate(organization.createdAt, i18n.language)}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <ListPager
              offset={ready.offset}
              count={ready.organizations.length}
              total={ready.total}
              pageSize={PAGE_SIZE}
              onOffset={setOffset}
            />
          </>
        ) : null}
      </Card>
    </div>
  );
}

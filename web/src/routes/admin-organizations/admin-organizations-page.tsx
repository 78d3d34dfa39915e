import type { AdminListOrganizationsQuery } from "@gatehouse/client";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { AdminNav } from "../../components/admin-nav";
import { CardListState } from "../../components/card-list-state";
import { ListPager } from "../../components/list-pager";
import { PageHeading } from "../../components/page-heading";
import { Card } from "../../components/ui/card";
import { Select } from "../../components/ui/select";
import { TextField } from "../../components/ui/text-field";
import { queries, useQuery } from "../../lib/data";
import { formatDate } from "../../lib/format-time";
import { useDocumentTitle } from "../../lib/use-document-title";
import { usePagedList } from "../../lib/use-paged-list";
import list from "../../components/admin-list.module.css";
import styles from "./admin-organizations-page.module.css";

/** Rows per page. */
export const PAGE_SIZE = 20;

type Sort = "newest" | "oldest" | "name" | "slug";

const SORTS: Record<Sort, Pick<AdminListOrganizationsQuery, "sortBy" | "sortDirection">> = {
  newest: { sortBy: "createdAt", sortDirection: "desc" },
  oldest: { sortBy: "createdAt", sortDirection: "asc" },
  name: { sortBy: "name", sortDirection: "asc" },
  slug: { sortBy: "slug", sortDirection: "asc" },
};

interface Controls {
  search: string;
  sort: Sort;
}

function queryOf({ search, sort }: Controls, offset: number): AdminListOrganizationsQuery {
  const value = search.trim();
  return { limit: PAGE_SIZE, offset, ...SORTS[sort], ...(value ? { searchValue: value } : {}) };
}

/** Every organization on the service, whoever its members are: searched by name or slug, sorted and paged. */
export function AdminOrganizationsPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t("admin.organizations.title"));
  const organizations = usePagedList<Controls, AdminListOrganizationsQuery>({ search: "", sort: "newest" }, queryOf);
  const { search } = organizations.controls;
  const load = useQuery(queries.adminOrganizations(organizations.query));
  const ready = load.state === "ready" ? load.data : null;

  return (
    <div className={styles.page}>
      <AdminNav />
      <PageHeading lead={t("admin.organizations.lead")}>{t("admin.organizations.title")}</PageHeading>

      <Card flush>
        <div className={list.controls}>
          <TextField
            className={`${list.control} ${list.search}`}
            label={t("admin.organizations.search")}
            type="search"
            value={search}
            onChange={(event) => organizations.set("search", event.target.value)}
          />
          <Select<Sort>
            className={list.control}
            label={t("admin.sort")}
            options={[
              { value: "newest", label: t("admin.sortNewest") },
              { value: "oldest", label: t("admin.sortOldest") },
              { value: "name", label: t("admin.sortName") },
              { value: "slug", label: t("admin.organizations.sortSlug") },
            ]}
            value={organizations.controls.sort}
            onChange={(value) => organizations.set("sort", value)}
          />
        </div>

        {load.state !== "ready" ? (
          <div className={list.listState}>
            <CardListState
              state={load.state}
              error={load.state === "failed" ? load.error : undefined}
              loadingText={t("admin.organizations.loading")}
              failedTitle={t("common.genericError")}
              onRetry={() => void load.reload()}
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
              onOffset={organizations.setOffset}
            />
          </>
        ) : null}
      </Card>
    </div>
  );
}

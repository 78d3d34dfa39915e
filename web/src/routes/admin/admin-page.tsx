import type { AdminListUsersQuery } from "@gatehouse/client";
import { useState } from "react";
import { Link, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { AdminNav } from "../../components/admin-nav";
import { CardListState } from "../../components/card-list-state";
import { ListPager } from "../../components/list-pager";
import { PageHeading } from "../../components/page-heading";
import { Alert } from "../../components/ui/alert";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Select } from "../../components/ui/select";
import { TextField } from "../../components/ui/text-field";
import { queries, useQuery } from "../../lib/data";
import { formatDate } from "../../lib/format-time";
import { useDocumentTitle } from "../../lib/use-document-title";
import { usePagedList } from "../../lib/use-paged-list";
import { CreateUserCard } from "./create-user-card";
import list from "../../components/admin-list.module.css";
import styles from "./admin-page.module.css";

/** Rows per page. */
export const PAGE_SIZE = 20;

type Filter = "all" | "admins" | "banned";
type Sort = "newest" | "oldest" | "name" | "email";

const SORTS: Record<Sort, Pick<AdminListUsersQuery, "sortBy" | "sortDirection">> = {
  newest: { sortBy: "createdAt", sortDirection: "desc" },
  oldest: { sortBy: "createdAt", sortDirection: "asc" },
  name: { sortBy: "name", sortDirection: "asc" },
  email: { sortBy: "email", sortDirection: "asc" },
};

interface Controls {
  search: string;
  filter: Filter;
  sort: Sort;
}

function queryOf({ search, filter, sort }: Controls, offset: number): AdminListUsersQuery {
  const query: AdminListUsersQuery = { limit: PAGE_SIZE, offset, ...SORTS[sort] };
  const value = search.trim();
  if (value) {
    query.searchValue = value;
    // An "@" means an address; anything else is looked for in names.
    query.searchField = value.includes("@") ? "email" : "name";
  }
  if (filter === "banned") Object.assign(query, { filterField: "banned", filterValue: "true", filterOperator: "eq" });
  // Administrators as the service counts them (its administrator roles and ids), not by a role's name.
  if (filter === "admins") Object.assign(query, { administrator: true });
  return query;
}

export function AdminPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t("admin.title"));
  const users = usePagedList<Controls, AdminListUsersQuery>({ search: "", filter: "all", sort: "newest" }, queryOf);
  const load = useQuery(queries.adminUsers(users.query));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const deleted = (useLocation().state as { deleted?: string } | null)?.deleted;

  const ready = load.state === "ready" ? load.data : null;

  return (
    <div className={styles.page}>
      <AdminNav />
      <div className={styles.top}>
        <PageHeading lead={t("admin.lead")}>{t("admin.title")}</PageHeading>
        {!creating ? (
          <Button className={styles.createButton} onClick={() => setCreating(true)}>
            {t("admin.createUser")}
          </Button>
        ) : null}
      </div>

      {deleted && !created ? (
        <Alert variant="success" focusable>
          {t("admin.user.deleted", { email: deleted })}
        </Alert>
      ) : null}

      {created ? (
        <Alert variant="success" focusable>
          {t("admin.create.created", { email: created })}
        </Alert>
      ) : null}

      {creating ? (
        <CreateUserCard
          onCancel={() => setCreating(false)}
          onCreated={(user) => {
            setCreating(false);
            setCreated(user.email);
          }}
        />
      ) : null}

      <Card flush>
        <div className={list.controls}>
          <TextField
            className={`${list.control} ${list.search}`}
            label={t("admin.search")}
            type="search"
            value={users.controls.search}
            onChange={(event) => users.set("search", event.target.value)}
          />
          <Select<Filter>
            className={list.control}
            label={t("admin.show")}
            options={[
              { value: "all", label: t("admin.filterAll") },
              { value: "admins", label: t("admin.filterAdmins") },
              { value: "banned", label: t("admin.filterBanned") },
            ]}
            value={users.controls.filter}
            onChange={(value) => users.set("filter", value)}
          />
          <Select<Sort>
            className={list.control}
            label={t("admin.sort")}
            options={[
              { value: "newest", label: t("admin.sortNewest") },
              { value: "oldest", label: t("admin.sortOldest") },
              { value: "name", label: t("admin.sortName") },
              { value: "email", label: t("admin.sortEmail") },
            ]}
            value={users.controls.sort}
            onChange={(value) => users.set("sort", value)}
          />
        </div>

        {load.state !== "ready" ? (
          // Below the filters' divider: the card-list states assume a card header above them, so add its gap.
          <div className={list.listState}>
            <CardListState
              state={load.state}
              error={load.error ?? undefined}
              loadingText={t("admin.loading")}
              failedTitle={t("common.genericError")}
              onRetry={() => void load.reload()}
            />
          </div>
        ) : null}

        {ready && ready.users.length === 0 ? (
          <div className={list.empty}>
            <p className={list.emptyTitle}>{t("admin.empty")}</p>
            <p className={list.emptyText}>{t("admin.emptyHint")}</p>
          </div>
        ) : null}

        {ready && ready.users.length > 0 ? (
          <>
            {/* The roles are spelled out: on phones the rows are laid out as blocks, which would drop a table's own. */}
            <table role="table" className={list.table} aria-label={t("admin.listLabel")}>
              <thead role="rowgroup">
                <tr role="row">
                  <th role="columnheader" scope="col">
                    {t("admin.columnName")}
                  </th>
                  <th role="columnheader" scope="col">
                    {t("admin.columnRole")}
                  </th>
                  <th role="columnheader" scope="col">
                    {t("admin.columnStatus")}
                  </th>
                  <th role="columnheader" scope="col">
                    {t("admin.columnCreated")}
                  </th>
                </tr>
              </thead>
              <tbody role="rowgroup">
                {ready.users.map((user) => (
                  <tr role="row" key={user.id}>
                    <td role="cell">
                      <Link className={list.primaryLink} to={`/admin/users/${encodeURIComponent(user.id)}`}>
                        {user.name}
                      </Link>
                      <span className={list.secondary}>{user.email}</span>
                    </td>
                    <td role="cell">
                      <span className={list.cellLabel} aria-hidden="true">
                        {t("admin.columnRole")}
                      </span>
                      <span>{user.administrator ? t("admin.roleAdmin") : t("admin.roleUser")}</span>
                    </td>
                    <td role="cell">
                      <span className={list.cellLabel} aria-hidden="true">
                        {t("admin.columnStatus")}
                      </span>
                      {user.banned ? (
                        <Badge variant="warning">{t("admin.banned")}</Badge>
                      ) : (
                        <Badge variant="success">{t("admin.active")}</Badge>
                      )}
                    </td>
                    <td role="cell" className={list.nowrap}>
                      <span className={list.cellLabel} aria-hidden="true">
                        {t("admin.columnCreated")}
                      </span>
                      <span>{formatDate(user.createdAt, i18n.language)}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <ListPager offset={ready.offset} count={ready.users.length} total={ready.total} pageSize={PAGE_SIZE} onOffset={users.setOffset} />
          </>
        ) : null}
      </Card>
    </div>
  );
}

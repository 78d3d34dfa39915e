import type { AdminListUsersData, AdminListUsersQuery, AuthError } from "@gatehouse/client";
import { useCallback, useEffect, useState } from "react";
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
import { authClient } from "../../lib/auth-client";
import { formatDate } from "../../lib/format-time";
import { useDocumentTitle } from "../../lib/use-document-title";
import { CreateUserCard } from "./create-user-card";
import list from "../../components/admin-list.module.css";
import styles from "./admin-page.module.css";

/** Rows per page. */
export const PAGE_SIZE = 20;

type Filter = "all" | "admins" | "banned";
type Sort = "newest" | "oldest" | "name" | "email";
type Load =
  | { state: "loading" }
  | { state: "failed"; error: AuthError }
  | { state: "ready"; users: AdminListUsersData["users"]; total: number; offset: number };

const SORTS: Record<Sort, Pick<AdminListUsersQuery, "sortBy" | "sortDirection">> = {
  newest: { sortBy: "createdAt", sortDirection: "desc" },
  oldest: { sortBy: "createdAt", sortDirection: "asc" },
  name: { sortBy: "name", sortDirection: "asc" },
  email: { sortBy: "email", sortDirection: "asc" },
};

function queryOf(search: string, filter: Filter, sort: Sort, offset: number): AdminListUsersQuery {
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
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<Filter>("all");
  const [sort, setSort] = useState<Sort>("newest");
  const [offset, setOffset] = useState(0);
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const deleted = (useLocation().state as { deleted?: string } | null)?.deleted;

  const refresh = useCallback(async () => {
    setLoad({ state: "loading" });
    const { data, error } = await authClient.admin.listUsers(queryOf(search, filter, sort, offset));
    setLoad(error ? { state: "failed", error } : { state: "ready", users: data.users, total: data.total, offset: data.offset });
  }, [search, filter, sort, offset]);

  // Typing waits a moment before asking the server.
  useEffect(() => {
    const timer = setTimeout(() => void refresh(), 250);
    return () => clearTimeout(timer);
  }, [refresh]);

  const ready = load.state === "ready" ? load : null;

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
            void refresh();
          }}
        />
      ) : null}

      <Card flush>
        <div className={list.controls}>
          <label className={`${list.control} ${list.search}`}>
            <span className={list.label}>{t("admin.search")}</span>
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
            <span className={list.label}>{t("admin.show")}</span>
            <select
              className={list.input}
              value={filter}
              onChange={(event) => {
                setFilter(event.target.value as Filter);
                setOffset(0);
              }}
            >
              <option value="all">{t("admin.filterAll")}</option>
              <option value="admins">{t("admin.filterAdmins")}</option>
              <option value="banned">{t("admin.filterBanned")}</option>
            </select>
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
              <option value="email">{t("admin.sortEmail")}</option>
            </select>
          </label>
        </div>

        {load.state !== "ready" ? (
          // Below the filters' divider: the card-list states assume a card header above them, so add its gap.
          <div className={list.listState}>
            <CardListState
              state={load.state}
              error={load.state === "failed" ? load.error : undefined}
              loadingText={t("admin.loading")}
              failedTitle={t("common.genericError")}
              onRetry={() => void refresh()}
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
            <ListPager offset={ready.offset} count={ready.users.length} total={ready.total} pageSize={PAGE_SIZE} onOffset={setOffset} />
          </>
        ) : null}
      </Card>
    </div>
  );
}

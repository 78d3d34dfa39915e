import type { AdminListUsersQuery, AuthError, User } from "@gatehouse/client";
import { useCallback, useEffect, useState } from "react";
import { Link, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { CardListState } from "../../components/card-list-state";
import { PageHeading } from "../../components/page-heading";
import { Alert } from "../../components/ui/alert";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { authClient } from "../../lib/auth-client";
import { formatDate } from "../../lib/format-time";
import { isAdmin } from "../../lib/is-admin";
import { useDocumentTitle } from "../../lib/use-document-title";
import { CreateUserCard } from "./create-user-card";
import styles from "./admin-page.module.css";

/** Rows per page. */
export const PAGE_SIZE = 20;

type Filter = "all" | "admins" | "banned";
type Sort = "newest" | "oldest" | "name" | "email";
type Load =
  | { state: "loading" }
  | { state: "failed"; error: AuthError }
  | { state: "ready"; users: User[]; total: number; offset: number };

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
  if (filter === "admins") Object.assign(query, { filterField: "role", filterValue: "admin", filterOperator: "contains" });
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
        <div className={styles.controls}>
          <label className={`${styles.control} ${styles.search}`}>
            <span className={styles.label}>{t("admin.search")}</span>
            <input
              type="search"
              className={styles.input}
              value={search}
              onChange={(event) => {
                setSearch(event.target.value);
                setOffset(0);
              }}
            />
          </label>
          <label className={styles.control}>
            <span className={styles.label}>{t("admin.show")}</span>
            <select
              className={styles.input}
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
          <label className={styles.control}>
            <span className={styles.label}>{t("admin.sort")}</span>
            <select
              className={styles.input}
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
          <div className={styles.listState}>
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
          <div className={styles.empty}>
            <p className={styles.emptyTitle}>{t("admin.empty")}</p>
            <p className={styles.emptyText}>{t("admin.emptyHint")}</p>
          </div>
        ) : null}

        {ready && ready.users.length > 0 ? (
          <>
            <div className={styles.tableWrap}>
              <table className={styles.table} aria-label={t("admin.listLabel")}>
                <thead>
                  <tr>
                    <th scope="col">{t("admin.columnName")}</th>
                    <th scope="col">{t("admin.columnRole")}</th>
                    <th scope="col">{t("admin.columnStatus")}</th>
                    <th scope="col" className={styles.created}>
                      {t("admin.columnCreated")}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {ready.users.map((user) => (
                    <tr key={user.id}>
                      <td>
                        <Link className={styles.name} to={`/admin/users/${encodeURIComponent(user.id)}`}>
                          {user.name}
                        </Link>
                        <span className={styles.email}>{user.email}</span>
                      </td>
                      <td>{isAdmin(user) ? t("admin.roleAdmin") : t("admin.roleUser")}</td>
                      <td>
                        {user.banned ? (
                          <Badge variant="warning">{t("admin.banned")}</Badge>
                        ) : (
                          <Badge variant="success">{t("admin.active")}</Badge>
                        )}
                      </td>
                      <td className={styles.created}>{formatDate(user.createdAt, i18n.language)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <nav className={styles.paging} aria-label={t("admin.pagination")}>
              <span className={styles.range} role="status">
                {t("admin.range", {
                  from: ready.offset + 1,
                  to: ready.offset + ready.users.length,
                  total: ready.total,
                })}
              </span>
              <Button
                variant="secondary"
                size="sm"
                disabled={ready.offset === 0}
                onClick={() => setOffset(Math.max(0, ready.offset - PAGE_SIZE))}
              >
                {t("admin.previous")}
              </Button>
              <Button
                variant="secondary"
                size="sm"
                disabled={ready.offset + ready.users.length >= ready.total}
                onClick={() => setOffset(ready.offset + PAGE_SIZE)}
              >
                {t("admin.next")}
              </Button>
            </nav>
          </>
        ) : null}
      </Card>
    </div>
  );
}

import { Link, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import { PageHeading } from "../../components/page-heading";
import { Alert } from "../../components/ui/alert";
import { Avatar } from "../../components/ui/avatar";
import { Badge } from "../../components/ui/badge";
import { Card } from "../../components/ui/card";
import { Spinner } from "../../components/ui/spinner";
import { errorMessage } from "../../lib/auth-errors";
import { queries, useQuery } from "../../lib/data";
import { formatDate } from "../../lib/format-time";
import { rolesOf } from "../../lib/organizations";
import { useDocumentTitle } from "../../lib/use-document-title";
import list from "../../components/admin-list.module.css";
import styles from "./admin-organization-page.module.css";

/** One organization as an administrator sees it, member or not: its details and every member, each a link to their user page. */
export function AdminOrganizationPage() {
  const { t, i18n } = useTranslation();
  const { id = "" } = useParams();
  const load = useQuery(queries.adminOrganization(id));
  useDocumentTitle(load.data?.name ?? t("admin.organizations.title"));
  const roleName = (role: string) => rolesOf(role).map((r) => t(`organization.roles.${r as "member"}`, r)).join(", ");

  const back = (
    <Link to="/admin/organizations" className={styles.back}>
      ← {t("admin.organizations.back")}
    </Link>
  );

  if (load.state === "loading") {
    return (
      <div className={styles.page}>
        {back}
        <div className={styles.state}>
          <Spinner size="sm" />
          <span role="status">{t("admin.organizations.loadingOne")}</span>
        </div>
      </div>
    );
  }
  if (load.state === "failed") {
    return (
      <div className={styles.page}>
        {back}
        <PageHeading>{t("admin.organizations.title")}</PageHeading>
        <Alert variant="error">{errorMessage(t, load.error)}</Alert>
      </div>
    );
  }
  const shown = load.data;

  return (
    <div className={styles.page}>
      {back}
      <div className={styles.identity}>
        <Avatar name={shown.name} image={shown.logo} size="lg" />
        <div className={styles.identityText}>
          <PageHeading lead={shown.slug}>{shown.name}</PageHeading>
          <div className={styles.badges}>
            <Badge>{t("admin.organizations.memberCount", { count: shown.memberCount })}</Badge>
          </div>
          <p className={styles.muted}>{t("admin.organizations.created", { date: formatDate(shown.createdAt, i18n.language) })}</p>
          <Link className={styles.activity} to={`/admin/audit-log?organization=${encodeURIComponent(shown.id)}`}>
            {t("activity.admin.eventsOfOrganization")}
          </Link>
        </div>
      </div>

      <Card title={t("admin.organizations.membersHeading")} description={t("admin.organizations.membersDescription")} flush>
        {shown.members.length === 0 ? (
          <p className={styles.empty}>{t("admin.organizations.noMembers")}</p>
        ) : (
          // The roles are spelled out: on phones the rows are laid out as blocks, which would drop a table's own.
          <table role="table" className={`${list.table} ${styles.members}`} aria-label={t("admin.organizations.membersHeading")}>
            <thead role="rowgroup">
              <tr role="row">
                <th role="columnheader" scope="col">
                  {t("admin.organizations.columnMember")}
                </th>
                <th role="columnheader" scope="col">
                  {t("admin.organizations.columnRole")}
                </th>
                <th role="columnheader" scope="col">
                  {t("admin.organizations.columnJoined")}
                </th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {shown.members.map((member) => (
                <tr role="row" key={member.id}>
                  <td role="cell">
                    <Link className={list.primaryLink} to={`/admin/users/${encodeURIComponent(member.userId)}`}>
                      {member.user.name}
                    </Link>
                    <span className={list.secondary}>{member.user.email}</span>
                  </td>
                  <td role="cell">
                    <span className={list.cellLabel} aria-hidden="true">
                      {t("admin.organizations.columnRole")}
                    </span>
                    <span>{roleName(member.role)}</span>
                  </td>
                  <td role="cell" className={list.nowrap}>
                    <span className={list.cellLabel} aria-hidden="true">
                      {t("admin.organizations.columnJoined")}
                    </span>
                    <span>{formatDate(member.createdAt, i18n.language)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </div>
  );
}

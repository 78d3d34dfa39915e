import { useTranslation } from "react-i18next";
import { ActionMessage, ActionMessages } from "../../components/action-message";
import { useCurrentSession } from "../../components/current-session";
import { PageHeading } from "../../components/page-heading";
import { Alert } from "../../components/ui/alert";
import { ButtonLink } from "../../components/ui/button-link";
import { Card } from "../../components/ui/card";
import { Spinner } from "../../components/ui/spinner";
import { errorMessage } from "../../lib/auth-errors";
import { queries, useQuery } from "../../lib/data";
import { canManage, isOwner } from "../../lib/organizations";
import { useCarriedNotice } from "../../lib/organization-notice";
import { useDocumentTitle } from "../../lib/use-document-title";
import { InvitationsCard } from "./invitations-card";
import { MembersCard } from "./members-card";
import { SettingsCard } from "./settings-card";
import { TeamsCard } from "./teams-card";
import styles from "./organization-page.module.css";

/**
 * The active organization: its settings, members, invitations and teams, as far as the caller's role allows.
 * One message at a time for the page's last action, shown in the card that ran it (ActionMessages).
 */
export function OrganizationPage() {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const active = useQuery(queries.activeOrganization());
  const organization = active.data ?? null;
  const carried = useCarriedNotice("page");
  useDocumentTitle(organization?.name ?? t("organization.page.title"));

  if (active.state === "loading") return <Spinner label={t("app.loading")} />;
  if (active.state === "failed") return <Alert variant="error">{errorMessage(t, active.error)}</Alert>;
  if (!organization) {
    return (
      <div className={styles.page}>
        <PageHeading lead={t("organization.page.noneLead")}>{t("organization.page.title")}</PageHeading>
        <Card>
          <ButtonLink to="/organizations/new">{t("organization.switcher.create")}</ButtonLink>
        </Card>
      </div>
    );
  }

  const me = organization.members.find((member) => member.userId === user.id);
  const role = me?.role;
  return (
    <ActionMessages initial={carried}>
      <div className={styles.page}>
        <PageHeading lead={t("organization.page.lead", { slug: organization.slug })}>{organization.name}</PageHeading>
        <ActionMessage scope="page" />
        {isOwner(role) ? <SettingsCard key={organization.id} organization={organization} /> : null}
        <MembersCard organization={organization} me={me} />
        {canManage(role) ? <InvitationsCard organization={organization} owner={isOwner(role)} /> : null}
        <TeamsCard organization={organization} canEdit={canManage(role)} />
      </div>
    </ActionMessages>
  );
}

import { useTranslation } from "react-i18next";
import { ActionMessage, ActionMessages } from "../../components/action-message";
import { useCurrentSession } from "../../components/current-session";
import { PageHeading } from "../../components/page-heading";
import { TwoFactorRequiredBanner } from "../../components/two-factor-required-banner";
import { Alert } from "../../components/ui/alert";
import { ButtonLink } from "../../components/ui/button-link";
import { Card } from "../../components/ui/card";
import { Spinner } from "../../components/ui/spinner";
import { errorMessage } from "../../lib/auth-errors";
import { queries, useQuery } from "../../lib/data";
import { canManage, isOwner, TWO_FACTOR_REQUIRED } from "../../lib/organizations";
import { useCarriedNotice } from "../../lib/organization-notice";
import { useDocumentTitle } from "../../lib/use-document-title";
import { ActivityCard } from "./activity-card";
import { InvitationsCard } from "./invitations-card";
import { MembersCard } from "./members-card";
import { SettingsCard } from "./settings-card";
import { TeamsCard } from "./teams-card";
import { TwoFactorPolicyCard } from "./two-factor-policy-card";
import styles from "./organization-page.module.css";

/**
 * The active organization: its settings, members, invitations, teams and (for owners and admins) its activity, as
 * far as the caller's role allows.
 * One message at a time for the page's last action, shown in the card that ran it (ActionMessages).
 */
export function OrganizationPage() {
  const { t } = useTranslation();
  const { user, session } = useCurrentSession();
  const active = useQuery(queries.activeOrganization());
  // The list names an active organization that refuses to open (its second-factor policy).
  const listed = useQuery(queries.organizations());
  const organization = active.data ?? null;
  const carried = useCarriedNotice("page");
  const refusedName = listed.data?.find((o) => o.id === session.activeOrganizationId)?.name ?? t("organization.page.title");
  const refused = active.state === "failed" && active.error.code === TWO_FACTOR_REQUIRED;
  useDocumentTitle(organization?.name ?? (refused ? refusedName : t("organization.page.title")));

  if (active.state === "loading") return <Spinner label={t("app.loading")} />;
  if (refused) {
    return (
      <div className={styles.page}>
        <PageHeading>{refusedName}</PageHeading>
        <TwoFactorRequiredBanner name={refusedName} />
      </div>
    );
  }
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
        {canManage(role) ? <TwoFactorPolicyCard organization={organization} /> : null}
        <MembersCard organization={organization} me={me} />
        {canManage(role) ? <InvitationsCard organization={organization} owner={isOwner(role)} /> : null}
        <TeamsCard organization={organization} canEdit={canManage(role)} />
        {canManage(role) ? <ActivityCard key={organization.id} organization={organization} /> : null}
      </div>
    </ActionMessages>
  );
}

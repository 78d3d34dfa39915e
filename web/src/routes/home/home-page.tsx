import { useTranslation } from "react-i18next";
import { ActionMessage, ActionMessages } from "../../components/action-message";
import { useCurrentSession } from "../../components/current-session";
import { EmailVerificationBanner } from "../../components/email-verification-banner";
import { PageHeading } from "../../components/page-heading";
import { TwoFactorRequiredBanner } from "../../components/two-factor-required-banner";
import { Avatar } from "../../components/ui/avatar";
import { Badge } from "../../components/ui/badge";
import { Card } from "../../components/ui/card";
import { queries, useQuery } from "../../lib/data";
import { formatDate } from "../../lib/format-time";
import { refusesForSecondFactor } from "../../lib/organizations";
import { useCarriedNotice } from "../../lib/organization-notice";
import { useDeviceLabel } from "../../lib/use-device-label";
import { useDocumentTitle } from "../../lib/use-document-title";
import { InvitationsCard } from "./invitations-card";
import { LinkTile } from "./link-tile";
import styles from "./home-page.module.css";

export function HomePage() {
  const { t, i18n } = useTranslation();
  const { user, session } = useCurrentSession();
  const deviceLabel = useDeviceLabel();
  // Memberships the user cannot use until they set up two-step sign-in (the organization requires it).
  const refusing = (useQuery(queries.organizations()).data ?? []).filter((organization) => refusesForSecondFactor(organization, user));
  // What an organization page that sent the user here did (left, deleted).
  const carried = useCarriedNotice("page");
  useDocumentTitle(t("home.title"));

  return (
    <ActionMessages initial={carried}>
      <div className={styles.page}>
        <PageHeading lead={t("home.lead")}>{t("home.heading", { name: user.name })}</PageHeading>
        <ActionMessage scope="page" />
        <EmailVerificationBanner />
        {refusing.map((organization) => (
          <TwoFactorRequiredBanner key={organization.id} name={organization.name} />
        ))}
        <InvitationsCard />

        <Card title={t("home.profileHeading")}>
          <div className={styles.profile}>
            <Avatar name={user.name} image={user.image} size="lg" />
            <div className={styles.identity}>
              <p className={styles.name}>{user.name}</p>
              <p className={styles.email}>
                <span className={styles.emailText}>{user.email}</span>
                <Badge variant={user.emailVerified ? "success" : "warning"}>
                  {user.emailVerified ? t("home.emailVerified") : t("home.emailUnverified")}
                </Badge>
              </p>
            </div>
          </div>
          <dl className={styles.facts}>
            <div className={styles.fact}>
              <dt>{t("home.memberSince")}</dt>
              <dd>
                <time dateTime={user.createdAt}>{formatDate(user.createdAt, i18n.language)}</time>
              </dd>
            </div>
            <div className={styles.fact}>
              <dt>{t("home.thisDevice")}</dt>
              <dd>{deviceLabel(session.userAgent)}</dd>
            </div>
          </dl>
        </Card>

        <div className={styles.tiles}>
          <LinkTile to="/account" title={t("home.accountLinkTitle")} icon="user">
            {t("home.accountLinkText")}
          </LinkTile>
          <LinkTile to="/account#sessions" title={t("home.sessionsLinkTitle")} icon="devices">
            {t("home.sessionsLinkText")}
          </LinkTile>
        </div>
      </div>
    </ActionMessages>
  );
}

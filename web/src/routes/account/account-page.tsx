import { useEffect } from "react";
import { useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { PageHeading } from "../../components/page-heading";
import { SignOutButton } from "../../components/sign-out-button";
import { Card } from "../../components/ui/card";
import { useDocumentTitle } from "../../lib/use-document-title";
import { ProfileCard } from "./profile-card";
import { SessionsCard } from "./sessions-card";
import styles from "./account-page.module.css";

export function AccountPage() {
  const { t } = useTranslation();
  const { hash } = useLocation();
  useDocumentTitle(t("account.title"));

  // Client-side navigation does not scroll to "#sessions" by itself.
  useEffect(() => {
    if (hash) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [hash]);

  return (
    <div className={styles.page}>
      <PageHeading lead={t("account.lead")}>{t("account.heading")}</PageHeading>
      <ProfileCard />
      <SessionsCard id="sessions" />
      <Card
        title={t("account.signOut.heading")}
        description={t("account.signOut.description")}
        actions={<SignOutButton variant="secondary" />}
      />
    </div>
  );
}

import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { PageHeading } from "../../components/page-heading";
import { queries, useQuery } from "../../lib/data";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useFeatures } from "../../lib/use-features";
import { PasskeysCard } from "./passkeys-card";
import { SecurityActivityCard } from "./security-activity-card";
import { TrustedBrowsersCard } from "./trusted-browsers-card";
import { TwoFactorCard } from "./two-factor-card";
import styles from "./security-page.module.css";

/** Whether the signed-in user has a password (a "credential" account); null until the accounts are read. */
function useHasPassword(): boolean | null {
  const accounts = useQuery(queries.accounts());
  return accounts.state === "ready" ? accounts.data.some((account) => account.providerId === "credential") : null;
}

/**
 * The security page (/account/security): two-step sign-in and backup codes, passkeys, the browsers trusted to
 * skip the second step, and the account's security activity (sign-ins and changes, a still-open sign-in signed out
 * from its row). Each part shows where the deployment has it on (GET /features; the activity where the service
 * keeps an audit log).
 */
export function SecurityPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("security.title"));
  const hasPassword = useHasPassword();
  const features = useFeatures();
  // Shown once the features are read; a failed read shows everything and lets the service answer.
  const on = (feature: "twoFactor" | "passkey") => features === null || (features !== undefined && features[feature].enabled);

  return (
    <div className={styles.page}>
      <Link to="/account" className={styles.back}>
        ← {t("security.back")}
      </Link>
      <PageHeading lead={t("security.lead")}>{t("security.heading")}</PageHeading>
      {on("twoFactor") ? <TwoFactorCard hasPassword={hasPassword} /> : null}
      {on("passkey") ? <PasskeysCard hasPassword={hasPassword} /> : null}
      {on("twoFactor") ? <TrustedBrowsersCard /> : null}
      <SecurityActivityCard />
    </div>
  );
}

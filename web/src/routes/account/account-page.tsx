import { memo, useEffect } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useCurrentSession } from "../../components/current-session";
import { EmailVerificationBanner } from "../../components/email-verification-banner";
import { PageHeading } from "../../components/page-heading";
import { SignOutButton } from "../../components/sign-out-button";
import { Alert } from "../../components/ui/alert";
import { Card } from "../../components/ui/card";
import { usePaintedSlices } from "../../lib/use-after-first-paint";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useErrorSentence } from "../../lib/use-error-sentence";
import { ConnectedAppsCard } from "./connected-apps-card";
import { DeleteAccountCard } from "./delete-account-card";
import { EmailCard } from "./email-card";
import { LinkedAccountsCard } from "./linked-accounts-card";
import { PasswordCard } from "./password-card";
import { ProfileCard } from "./profile-card";
import { SessionsCard } from "./sessions-card";
import { SetPasswordCard } from "./set-password-card";
import { useHasPassword } from "./use-has-password";
import styles from "./account-page.module.css";

/*
 * Each card reads what it shows itself (the data layer, the session); the page's own re-renders (its later slices
 * below, the accounts answer behind useHasPassword, the address's hash) leave them as they are.
 */
const Profile = memo(ProfileCard);
const Email = memo(EmailCard);
const Password = memo(PasswordCard);
const SetPassword = memo(SetPasswordCard);
const LinkedAccounts = memo(LinkedAccountsCard);
const Sessions = memo(SessionsCard);
const DeleteAccount = memo(DeleteAccountCard);
const ConnectedApps = memo(ConnectedAppsCard);

/**
 * The mailed email-change links land on /account?emailChanged=1 (with `&error=…` when they failed), and so
 * does the verification link then sent to the new address: what to say follows the user as they are now.
 */
function EmailChangeNotice() {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const [params] = useSearchParams();
  const error = (params.get("error") ?? "").slice(0, 100);
  const sentence = useErrorSentence(error);
  if (params.get("emailChanged") !== "1") return null;
  if (error) {
    return (
      <Alert variant="error" title={t("account.emailChanged.failedTitle")}>
        {sentence}
      </Alert>
    );
  }
  return user.emailVerified ? (
    <Alert variant="success" title={t("account.emailChanged.verifiedTitle")}>
      {t("account.emailChanged.verified", { email: user.email })}
    </Alert>
  ) : (
    <Alert variant="info" title={t("account.emailChanged.pendingTitle")}>
      {t("account.emailChanged.pending", { email: user.email })}
    </Alert>
  );
}

export function AccountPage() {
  const { t } = useTranslation();
  const { hash } = useLocation();
  useDocumentTitle(t("account.title"));
  const hasPassword = useHasPassword();
  // The page is drawn in slices, each a task of its own once the one before is painted (its data is in already:
  // router.tsx reads it before the first render): first what a phone shows on opening it (the heading, the notices
  // and the profile), then the sign-in details, the connected accounts and sessions, and last the sign-out and
  // deletion cards.
  const slices = usePaintedSlices(4);

  // Client-side navigation does not scroll to "#sessions" by itself; the cards it names are in a later slice.
  const drawn = slices === 4;
  useEffect(() => {
    if (hash && drawn) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [hash, drawn]);

  return (
    <div className={styles.page}>
      <PageHeading lead={t("account.lead")}>{t("account.heading")}</PageHeading>
      <EmailChangeNotice />
      <EmailVerificationBanner />
      <Profile />
      {slices >= 2 ? (
        <>
          <Email />
          {hasPassword === false ? <SetPassword /> : <Password />}
          <p>
            <Link to="/account/security">{t("security.accountLink")} →</Link>
          </p>
        </>
      ) : null}
      {slices >= 3 ? (
        <>
          <LinkedAccounts id="connected-accounts" />
          <Sessions id="sessions" />
          <ConnectedApps id="connected-applications" />
        </>
      ) : null}
      {slices >= 4 ? (
        <>
          <Card
            title={t("account.signOut.heading")}
            description={t("account.signOut.description")}
            actions={<SignOutButton variant="secondary" />}
          />
          <DeleteAccount hasPassword={hasPassword} />
        </>
      ) : null}
    </div>
  );
}

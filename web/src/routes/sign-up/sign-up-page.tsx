import { useState } from "react";
import { Link, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "../../components/auth-layout";
import { PageHeading } from "../../components/page-heading";
import { SocialSignIn, SocialSignInError } from "../../components/social-sign-in";
import { Alert } from "../../components/ui/alert";
import { useDocumentTitle } from "../../lib/use-document-title";
import { SignUpForm } from "./sign-up-form";

export function SignUpPage() {
  const { t } = useTranslation();
  const location = useLocation();
  useDocumentTitle(t("signUp.title"));
  // Set when the service created the account without signing in (email verification required).
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const from = (location.state as { from?: unknown } | null)?.from;
  const returnTo = typeof from === "string" && from.startsWith("/") ? from : "/";
  // The verification link mailed on sign-up comes back to the page that sent the visitor here (an invitation).
  const verifiedReturnTo = returnTo !== "/" && !returnTo.startsWith("//") ? returnTo : undefined;

  return (
    <AuthLayout
      footer={
        <>
          {t("signUp.haveAccount")}{" "}
          <Link to="/sign-in" state={location.state}>
            {t("signUp.signIn")}
          </Link>
        </>
      }
    >
      <PageHeading lead={t("signUp.lead")}>{t("signUp.heading")}</PageHeading>
      {pendingEmail ? (
        <Alert variant="success" title={t("signUp.checkEmailTitle")}>
          {t("signUp.checkEmail", { email: pendingEmail })}
        </Alert>
      ) : (
        <>
          <SocialSignInError />
          <SignUpForm onCreatedWithoutSession={setPendingEmail} callbackURL={verifiedReturnTo} />
          <SocialSignIn mode="signUp" returnTo={returnTo} />
        </>
      )}
    </AuthLayout>
  );
}

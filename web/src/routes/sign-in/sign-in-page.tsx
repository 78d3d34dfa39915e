import { Link, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "../../components/auth-layout";
import { ForApplication } from "../../components/for-application";
import { PageHeading } from "../../components/page-heading";
import { SocialSignIn, SocialSignInError } from "../../components/social-sign-in";
import { Alert } from "../../components/ui/alert";
import { goOnPath, readReturnTo } from "../../lib/return-to";
import { useDocumentTitle } from "../../lib/use-document-title";
import { SignInForm } from "./sign-in-form";

export function SignInPage() {
  const { t } = useTranslation();
  const location = useLocation();
  useDocumentTitle(t("signIn.title"));
  const state = location.state as { signedOut?: unknown; passwordReset?: unknown; from?: unknown } | null;
  const signedOut = state?.signedOut === true;
  const passwordReset = state?.passwordReset === true;
  // The OpenID Provider's interaction (`?returnTo=`) or the page that sent the visitor here.
  const from = readReturnTo(location.search).path ?? goOnPath(state?.from);

  return (
    <AuthLayout
      footer={
        <>
          {t("signIn.noAccount")}{" "}
          <Link to="/sign-up" state={from !== "/" ? { from } : undefined}>
            {t("signIn.createAccount")}
          </Link>
        </>
      }
    >
      <PageHeading lead={t("signIn.lead")}>{t("signIn.heading")}</PageHeading>
      <ForApplication path={from} />
      {signedOut ? <Alert variant="success">{t("signIn.signedOut")}</Alert> : null}
      {passwordReset ? <Alert variant="success">{t("signIn.passwordReset")}</Alert> : null}
      <SocialSignInError />
      <SignInForm returnTo={from} />
      {/* Under the ways in of the form, which draw the "or" rule. */}
      <SocialSignIn mode="signIn" returnTo={from} divider={false} />
    </AuthLayout>
  );
}

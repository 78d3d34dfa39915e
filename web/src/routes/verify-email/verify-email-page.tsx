import type { User } from "@gatehouse/client";
import { useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "../../components/auth-layout";
import { LoadingScreen } from "../../components/loading-screen";
import { PageHeading } from "../../components/page-heading";
import { StatusIcon, type StatusIconProps } from "../../components/status-icon";
import { Alert } from "../../components/ui/alert";
import { ButtonLink } from "../../components/ui/button-link";
import { authClient } from "../../lib/auth-client";
import { useDocumentTitle } from "../../lib/use-document-title";
import { ResendVerification } from "./resend-verification";
import styles from "./verify-email-page.module.css";

type Outcome =
  | "verified"
  | "alreadyVerified"
  | "spentButVerified"
  | "pending"
  | "unknown"
  | "expired"
  | "invalid"
  | "userNotFound"
  | "emailTaken"
  | "failed";

/**
 * What the visitor should read, from the service's answer only: a verification link redirects here with
 * `?verified=true` when the address is verified, or `?error=…` when the link was refused (used, expired, forged).
 * Without either, nothing happened here: a signed-in visitor is told their address's state as the session has it,
 * a signed-out one is told how verifying works, never that something was verified.
 */
function outcomeOf(params: URLSearchParams, user: User | null): Outcome {
  const error = params.get("error");
  if (error === "user_not_found") return "userNotFound";
  if (error === "couldnt_update_your_email") return "emailTaken";
  if (error) {
    // The link did nothing; the address may be verified all the same (by this link's earlier use, say).
    if (user?.emailVerified) return "spentButVerified";
    if (error === "token_expired") return "expired";
    if (error === "invalid_token") return "invalid";
    return "failed";
  }
  if (params.get("verified") === "true") return "verified";
  if (user) return user.emailVerified ? "alreadyVerified" : "pending";
  return "unknown";
}

const ICONS: Record<Outcome, StatusIconProps> = {
  verified: { icon: "check", tone: "success" },
  alreadyVerified: { icon: "check", tone: "success" },
  spentButVerified: { icon: "alert", tone: "warning" },
  pending: { icon: "mail", tone: "warning" },
  unknown: { icon: "mail", tone: "accent" },
  expired: { icon: "alert", tone: "warning" },
  invalid: { icon: "alert", tone: "danger" },
  userNotFound: { icon: "alert", tone: "danger" },
  emailTaken: { icon: "alert", tone: "danger" },
  failed: { icon: "alert", tone: "danger" },
};

export function VerifyEmailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { data, isPending } = authClient.useSession();
  const user = data?.user ?? null;
  const outcome = outcomeOf(params, user);
  const email = user?.email ?? "";
  const texts: Record<Outcome, [heading: string, lead: string]> = {
    verified: [t("verifyEmail.verifiedHeading"), user ? t("verifyEmail.verifiedLead") : t("verifyEmail.verifiedSignInLead")],
    alreadyVerified: [t("verifyEmail.alreadyVerifiedHeading"), t("verifyEmail.alreadyVerifiedLead", { email })],
    spentButVerified: [t("verifyEmail.spentHeading"), t("verifyEmail.spentLead", { email })],
    pending: [t("verifyEmail.pendingHeading"), t("verifyEmail.pendingLead", { email })],
    unknown: [t("verifyEmail.unknownHeading"), t("verifyEmail.unknownLead")],
    expired: [t("verifyEmail.expiredHeading"), t("verifyEmail.expiredLead")],
    invalid: [t("verifyEmail.invalidHeading"), t("verifyEmail.invalidLead")],
    userNotFound: [t("verifyEmail.userNotFoundHeading"), t("verifyEmail.userNotFoundLead")],
    emailTaken: [t("verifyEmail.emailTakenHeading"), t("verifyEmail.emailTakenLead")],
    failed: [t("verifyEmail.failedHeading"), t("verifyEmail.failedLead")],
  };
  const [heading, lead] = texts[outcome];
  // The tab says what the page says (not "verified" while the page says the link failed).
  useDocumentTitle(isPending ? t("verifyEmail.title") : heading);
  if (isPending) return <LoadingScreen />;
  const canResend =
    outcome === "pending" || outcome === "unknown" || outcome === "expired" || outcome === "invalid" || outcome === "failed";
  // The link proved an address someone else could have registered first: the service removed the password set
  // before the proof and signed out every session; the owner chooses a new password by reset.
  const passwordRemoved = params.get("passwordRemoved") === "true" && outcome === "verified";

  return (
    <AuthLayout>
      <StatusIcon {...ICONS[outcome]} />
      <PageHeading align="center" lead={lead}>
        {heading}
      </PageHeading>
      {canResend ? <ResendVerification signedInEmail={user ? email : null} /> : null}
      {passwordRemoved ? (
        <Alert variant="warning" title={t("verifyEmail.passwordRemovedTitle")}>
          {t("verifyEmail.passwordRemovedLead", { forgot: t("signIn.forgotPassword") })}
        </Alert>
      ) : null}
      <div className={styles.actions}>
        {passwordRemoved && !user ? (
          <ButtonLink to="/forgot-password" fullWidth>
            {t("verifyEmail.choosePassword")}
          </ButtonLink>
        ) : null}
        {user ? (
          <ButtonLink to={outcome === "emailTaken" ? "/account" : "/"} variant={canResend ? "secondary" : "primary"} fullWidth>
            {t("verifyEmail.continue")}
          </ButtonLink>
        ) : (
          <>
            {outcome === "userNotFound" ? (
              <ButtonLink to="/sign-up" fullWidth>
                {t("verifyEmail.createAccount")}
              </ButtonLink>
            ) : null}
            <ButtonLink
              to="/sign-in"
              variant={canResend || outcome === "userNotFound" || passwordRemoved ? "secondary" : "primary"}
              fullWidth
            >
              {outcome === "verified" ? t("common.signIn") : t("common.backToSignIn")}
            </ButtonLink>
          </>
        )}
      </div>
    </AuthLayout>
  );
}

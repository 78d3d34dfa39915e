import { useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "../../components/auth-layout";
import { LoadingScreen } from "../../components/loading-screen";
import { PageHeading } from "../../components/page-heading";
import { StatusIcon, type StatusIconProps } from "../../components/status-icon";
import { ButtonLink } from "../../components/ui/button-link";
import { authClient } from "../../lib/auth-client";
import { useDocumentTitle } from "../../lib/use-document-title";
import styles from "./account-deleted-page.module.css";

type Outcome = "deleted" | "unauthorized" | "invalid" | "stillSignedIn" | "unknown";

/**
 * What became of a deletion, from the service's answer only: the mailed link's callback redirects here with
 * `?deleted=true` when it deleted the account (and the password flow navigates here with the same marker after
 * the service answered "User deleted"), or with `?error=invalid_token` (a used or expired link) or
 * `?error=unauthorized` (opened in a browser that is not signed in), when nothing was deleted. A deleted account
 * has no session, so a signed-in visitor is never told theirs is gone. Without a marker the page says how
 * deleting works and nothing more.
 */
function outcomeOf(params: URLSearchParams, signedIn: boolean): Outcome {
  const error = params.get("error");
  if (error === "unauthorized") return "unauthorized";
  if (error) return "invalid";
  if (signedIn) return "stillSignedIn";
  return params.get("deleted") === "true" ? "deleted" : "unknown";
}

const ICONS: Record<Outcome, StatusIconProps> = {
  deleted: { icon: "check", tone: "success" },
  unauthorized: { icon: "lock", tone: "warning" },
  invalid: { icon: "alert", tone: "danger" },
  stillSignedIn: { icon: "trash", tone: "accent" },
  unknown: { icon: "trash", tone: "accent" },
};

export function AccountDeletedPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { data, isPending, isRefetching } = authClient.useSession();
  // Right after the password flow deleted the account, the session is being re-read: wait for it rather than
  // say "you are still signed in" for a moment.
  const settling = isPending || (isRefetching && Boolean(data?.user));
  const outcome = outcomeOf(params, Boolean(data?.user));
  const texts: Record<Outcome, [heading: string, lead: string]> = {
    deleted: [t("accountDeleted.heading"), t("accountDeleted.lead")],
    unauthorized: [t("accountDeleted.unauthorizedHeading"), t("accountDeleted.unauthorizedLead")],
    invalid: [t("accountDeleted.invalidHeading"), t("accountDeleted.invalidLead")],
    stillSignedIn: [t("accountDeleted.stillSignedInHeading"), t("accountDeleted.stillSignedInLead")],
    unknown: [t("accountDeleted.unknownHeading"), t("accountDeleted.unknownLead")],
  };
  const [heading, lead] = texts[outcome];
  // The tab says what the page says: "Account deleted" only when it was.
  useDocumentTitle(settling ? t("accountDeleted.title") : heading);
  if (settling) return <LoadingScreen />;

  return (
    <AuthLayout>
      <StatusIcon {...ICONS[outcome]} />
      <PageHeading align="center" lead={lead}>
        {heading}
      </PageHeading>
      <div className={styles.actions}>
        {outcome === "deleted" ? (
          <>
            <ButtonLink to="/sign-up" fullWidth>
              {t("accountDeleted.createAccount")}
            </ButtonLink>
            <ButtonLink to="/sign-in" variant="secondary" fullWidth>
              {t("common.signIn")}
            </ButtonLink>
          </>
        ) : outcome === "unauthorized" || (outcome === "unknown" && !data?.user) ? (
          <ButtonLink to="/sign-in" fullWidth>
            {t("common.signIn")}
          </ButtonLink>
        ) : (
          <ButtonLink to="/account" fullWidth>
            {t("accountDeleted.goToAccount")}
          </ButtonLink>
        )}
      </div>
    </AuthLayout>
  );
}

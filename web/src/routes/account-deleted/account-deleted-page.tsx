import { useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "../../components/auth-layout";
import { PageHeading } from "../../components/page-heading";
import { StatusIcon } from "../../components/status-icon";
import { ButtonLink } from "../../components/ui/button-link";
import { useDocumentTitle } from "../../lib/use-document-title";
import styles from "./account-deleted-page.module.css";

/**
 * After a deletion: the password flow navigates here, and the mailed link's callback redirects here, with
 * `?error=invalid_token` (a used or expired link) or `?error=unauthorized` (opened while signed out), in
 * which cases nothing was deleted.
 */
export function AccountDeletedPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const error = params.get("error");
  useDocumentTitle(t("accountDeleted.title"));

  if (error === "unauthorized") {
    return (
      <AuthLayout>
        <StatusIcon icon="lock" tone="warning" />
        <PageHeading align="center" lead={t("accountDeleted.unauthorizedLead")}>
          {t("accountDeleted.unauthorizedHeading")}
        </PageHeading>
        <ButtonLink to="/sign-in" fullWidth>
          {t("common.signIn")}
        </ButtonLink>
      </AuthLayout>
    );
  }

  if (error) {
    return (
      <AuthLayout>
        <StatusIcon icon="alert" tone="danger" />
        <PageHeading align="center" lead={t("accountDeleted.invalidLead")}>
          {t("accountDeleted.invalidHeading")}
        </PageHeading>
        <ButtonLink to="/account" fullWidth>
          {t("accountDeleted.goToAccount")}
        </ButtonLink>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout>
      <StatusIcon icon="check" tone="success" />
      <PageHeading align="center" lead={t("accountDeleted.lead")}>
        {t("accountDeleted.heading")}
      </PageHeading>
      <div className={styles.actions}>
        <ButtonLink to="/sign-up" fullWidth>
          {t("accountDeleted.createAccount")}
        </ButtonLink>
        <ButtonLink to="/sign-in" variant="secondary" fullWidth>
          {t("common.signIn")}
        </ButtonLink>
      </div>
    </AuthLayout>
  );
}

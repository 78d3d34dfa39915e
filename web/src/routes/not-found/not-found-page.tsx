import { useTranslation } from "react-i18next";
import { AuthLayout } from "../../components/auth-layout";
import { PageHeading } from "../../components/page-heading";
import { ButtonLink } from "../../components/ui/button-link";
import { useDocumentTitle } from "../../lib/use-document-title";
import styles from "./not-found-page.module.css";

export function NotFoundPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("notFound.title"));
  return (
    <AuthLayout>
      <p className={styles.status} aria-hidden="true">
        404
      </p>
      <PageHeading align="center" lead={t("notFound.lead")}>
        {t("notFound.heading")}
      </PageHeading>
      <ButtonLink to="/" fullWidth>
        {t("notFound.goHome")}
      </ButtonLink>
    </AuthLayout>
  );
}

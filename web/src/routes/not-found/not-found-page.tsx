import { useTranslation } from "react-i18next";
import { AuthLayout } from "../../components/auth-layout";
import { PageHeading } from "../../components/page-heading";
import { ButtonLink } from "../../components/ui/button-link";
import { useDocumentTitle } from "../../lib/use-document-title";
import styles from "./not-found-page.module.css";

/** The 404 text and the way home, without a layout: for use inside a page that already has one. */
function NotFound() {
  const { t } = useTranslation();
  useDocumentTitle(t("notFound.title"));
  return (
    <>
      <p className={styles.status} aria-hidden="true">
        404
      </p>
      <PageHeading align="center" lead={t("notFound.lead")}>
        {t("notFound.heading")}
      </PageHeading>
      <ButtonLink to="/" fullWidth>
        {t("notFound.goHome")}
      </ButtonLink>
    </>
  );
}

/** A path the app does not know, on the signed-out layout. */
export function NotFoundPage() {
  return (
    <AuthLayout>
      <NotFound />
    </AuthLayout>
  );
}

/** A page that does not exist for this user, inside the signed-in shell (which has its own header and banner). */
export function NotFoundInShell() {
  return (
    <div className={styles.inShell}>
      <NotFound />
    </div>
  );
}

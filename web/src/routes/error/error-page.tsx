import { useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "../../components/auth-layout";
import { PageHeading } from "../../components/page-heading";
import { StatusIcon } from "../../components/status-icon";
import { ButtonLink } from "../../components/ui/button-link";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useErrorSentence } from "../../lib/use-error-sentence";
import styles from "./error-page.module.css";

/**
 * Where the service's redirects land when a sign-in flow fails: /error?error=CODE. The code comes from the
 * address bar, so it is only ever shown as text (React escapes it) and clipped; error_description is not shown,
 * since anyone can put words there and this page should not lend them our voice.
 */
export function ErrorPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const code = (params.get("error") ?? "").trim().slice(0, 100);
  const sentence = useErrorSentence(code);
  useDocumentTitle(t("errorPage.title"));

  return (
    <AuthLayout>
      <StatusIcon icon="alert" tone="danger" />
      <PageHeading align="center" lead={sentence}>
        {t("errorPage.heading")}
      </PageHeading>
      {code ? (
        <p className={styles.code}>
          {t("errorPage.codeLabel")}: <code>{code}</code>
        </p>
      ) : null}
      <div className={styles.actions}>
        <ButtonLink to="/sign-in" fullWidth>
          {t("errorPage.backToSignIn")}
        </ButtonLink>
        <ButtonLink to="/" variant="secondary" fullWidth>
          {t("errorPage.goHome")}
        </ButtonLink>
      </div>
    </AuthLayout>
  );
}

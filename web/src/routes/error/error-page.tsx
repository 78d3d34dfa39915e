import { useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "../../components/auth-layout";
import { PageHeading } from "../../components/page-heading";
import { ButtonLink } from "../../components/ui/button-link";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useErrorSentence } from "./use-error-sentence";
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
      <div className={styles.icon} aria-hidden="true">
        <svg viewBox="0 0 24 24" focusable="false">
          <path
            d="M12 8.5v4.25m0 3.25h.01M10.3 3.9 2.6 17.4A2 2 0 0 0 4.3 20.4h15.4a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.75"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </div>
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

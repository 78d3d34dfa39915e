import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { DEFAULT_BASE_PATH } from "@gatehouse/client";
import { AuthLayout } from "../../components/auth-layout";
import { PageHeading } from "../../components/page-heading";
import { StatusIcon } from "../../components/status-icon";
import { Button } from "../../components/ui/button";
import { ButtonLink } from "../../components/ui/button-link";
import { useDocumentTitle } from "../../lib/use-document-title";
import styles from "./magic-link-page.module.css";

/** The sign-in-by-link page, where a link that could not sign in comes back with `?error=CODE`. */
const LINK_PAGE = "/sign-in/link";

/**
 * Where a mailed sign-in link lands (README.md, "Magic links and email codes"): the link is used only when the
 * visitor presses the button, so a mail scanner that opens it uses nothing. The button goes to the service's
 * GET /magic-link/verify with the link's query, which signs in and sends the browser on to `callbackURL` (through
 * the second step when the user has one), or back to the sign-in-by-link page with `?error=`.
 */
export function MagicLinkPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  useDocumentTitle(t("emailSignIn.landing.title"));
  const [going, setGoing] = useState(false);
  const token = params.get("token") ?? "";

  function signIn() {
    setGoing(true);
    const query = new URLSearchParams();
    query.set("token", token);
    // With a callbackURL the service answers by redirecting (the browser's way), not with JSON.
    query.set("callbackURL", params.get("callbackURL") || "/");
    for (const name of ["newUserCallbackURL", "errorCallbackURL"]) {
      const value = params.get(name);
      if (value) query.set(name, value);
    }
    if (!query.has("errorCallbackURL")) query.set("errorCallbackURL", LINK_PAGE);
    window.location.assign(`${DEFAULT_BASE_PATH}/magic-link/verify?${query.toString()}`);
  }

  const footer = (
    <>
      {t("emailSignIn.otherWay")} <Link to="/sign-in">{t("common.backToSignIn")}</Link>
    </>
  );

  if (!token) {
    return (
      <AuthLayout footer={footer}>
        <StatusIcon icon="alert" tone="danger" />
        <PageHeading align="center" lead={t("emailSignIn.landing.invalidLead")}>
          {t("emailSignIn.landing.invalidHeading")}
        </PageHeading>
        <ButtonLink to={LINK_PAGE} fullWidth>
          {t("emailSignIn.landing.requestNew")}
        </ButtonLink>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout footer={footer}>
      <StatusIcon icon="mail" />
      <PageHeading align="center" lead={t("emailSignIn.landing.lead")}>
        {t("emailSignIn.landing.heading")}
      </PageHeading>
      <Button fullWidth loading={going} loadingText={t("emailSignIn.landing.submitting")} onClick={signIn}>
        {t("emailSignIn.landing.submit")}
      </Button>
      <p className={styles.note}>{t("emailSignIn.landing.note")}</p>
    </AuthLayout>
  );
}

import { useState } from "react";
import { useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "../../components/auth-layout";
import { PageHeading } from "../../components/page-heading";
import { StatusIcon } from "../../components/status-icon";
import { ButtonLink } from "../../components/ui/button-link";
import { authClient } from "../../lib/auth-client";
import { useDocumentTitle } from "../../lib/use-document-title";
import { ResetPasswordForm } from "./reset-password-form";
import styles from "./reset-password-page.module.css";

type Stage = "form" | "invalid" | "done";

/**
 * Where the mailed reset link lands: the service checked the token and sent the browser here with
 * `?token=…`, or with `?error=INVALID_TOKEN` when it was unknown, used or expired. Open to everyone, since a
 * signed-in visitor may follow a reset link too.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("resetPassword.title"));
  const [params] = useSearchParams();
  const token = params.get("token")?.trim() ?? "";
  const [stage, setStage] = useState<Stage>(token && !params.get("error") ? "form" : "invalid");
  const { data: session } = authClient.useSession();

  if (stage === "invalid") {
    return (
      <AuthLayout>
        <StatusIcon icon="alert" tone="danger" />
        <PageHeading align="center" lead={t("resetPassword.invalidLead")}>
          {t("resetPassword.invalidHeading")}
        </PageHeading>
        <div className={styles.actions}>
          <ButtonLink to="/forgot-password" fullWidth>
            {t("resetPassword.requestNew")}
          </ButtonLink>
          <ButtonLink to="/sign-in" variant="secondary" fullWidth>
            {t("common.backToSignIn")}
          </ButtonLink>
        </div>
      </AuthLayout>
    );
  }

  if (stage === "done") {
    return (
      <AuthLayout>
        <StatusIcon icon="check" tone="success" />
        <PageHeading align="center" lead={session ? t("resetPassword.doneSignedInLead") : t("resetPassword.doneLead")}>
          {t("resetPassword.doneHeading")}
        </PageHeading>
        {session ? (
          <ButtonLink to="/" fullWidth>
            {t("common.continue")}
          </ButtonLink>
        ) : (
          <ButtonLink to="/sign-in" state={{ passwordReset: true }} fullWidth>
            {t("common.signIn")}
          </ButtonLink>
        )}
      </AuthLayout>
    );
  }

  return (
    <AuthLayout>
      <StatusIcon icon="lock" />
      <PageHeading align="center" lead={t("resetPassword.lead")}>
        {t("resetPassword.heading")}
      </PageHeading>
      <ResetPasswordForm token={token} onDone={() => setStage("done")} onInvalidToken={() => setStage("invalid")} />
    </AuthLayout>
  );
}

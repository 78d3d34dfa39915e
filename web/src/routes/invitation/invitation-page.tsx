import { useEffect, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import type { AuthError, InvitationDetails } from "@gatehouse/client";
import { AuthLayout } from "../../components/auth-layout";
import { LoadingScreen } from "../../components/loading-screen";
import { PageHeading } from "../../components/page-heading";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { ButtonLink } from "../../components/ui/button-link";
import { authClient } from "../../lib/auth-client";
import { errorMessage } from "../../lib/auth-errors";
import { notifyOrganizationsChanged } from "../../lib/organization-events";
import { useDocumentTitle } from "../../lib/use-document-title";
import styles from "./invitation-page.module.css";

/** Where a mailed invitation lands (/invitation/:id): signed in, the invitee accepts or rejects it here. */
export function InvitationPage() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const navigate = useNavigate();
  useDocumentTitle(t("organization.invitation.title"));
  const { data: session, isPending } = authClient.useSession();
  const [invitation, setInvitation] = useState<InvitationDetails | null>(null);
  const [error, setError] = useState<AuthError | null>(null);
  const [busy, setBusy] = useState<"accept" | "reject" | null>(null);
  const [rejected, setRejected] = useState(false);
  const signedIn = !!session;

  useEffect(() => {
    if (!signedIn) return;
    let live = true;
    void authClient.organization.getInvitation({ id }).then((result) => {
      if (!live) return;
      setInvitation(result.data ?? null);
      setError(result.error);
    });
    return () => {
      live = false;
    };
  }, [id, signedIn]);

  async function accept() {
    setBusy("accept");
    const result = await authClient.organization.acceptInvitation({ invitationId: id });
    if (result.error) {
      setBusy(null);
      return setError(result.error);
    }
    await authClient.organization.setActive({ organizationId: result.data.invitation.organizationId });
    notifyOrganizationsChanged();
    void navigate("/organization");
  }

  async function reject() {
    setBusy("reject");
    const result = await authClient.organization.rejectInvitation({ invitationId: id });
    setBusy(null);
    if (result.error) return setError(result.error);
    setRejected(true);
  }

  if (isPending) return <LoadingScreen />;
  const from = { from: `/invitation/${encodeURIComponent(id)}` };

  let body;
  if (!signedIn) {
    body = (
      <>
        <PageHeading lead={t("organization.invitation.signedOut")}>{t("organization.invitation.heading")}</PageHeading>
        <div className={styles.buttons}>
          <ButtonLink to="/sign-in" state={from} fullWidth>
            {t("common.signIn")}
          </ButtonLink>
          <ButtonLink to="/sign-up" state={from} variant="secondary" fullWidth>
            {t("organization.invitation.signUp")}
          </ButtonLink>
        </div>
      </>
    );
  } else if (rejected) {
    body = (
      <>
        <PageHeading lead={t("organization.invitation.rejected")}>{t("organization.invitation.heading")}</PageHeading>
        <ButtonLink to="/" fullWidth>
          {t("nav.home")}
        </ButtonLink>
      </>
    );
  } else if (!invitation) {
    body = error ? (
      <>
        <PageHeading>{t("organization.invitation.heading")}</PageHeading>
        <Alert variant="error">{errorMessage(t, error)}</Alert>
        <ButtonLink to="/" variant="secondary" fullWidth>
          {t("nav.home")}
        </ButtonLink>
      </>
    ) : (
      <LoadingScreen />
    );
  } else {
    body = (
      <>
        <PageHeading
          lead={t("organization.invitation.lead", {
            inviter: invitation.inviterEmail,
            organization: invitation.organizationName,
            role: t(`organization.roles.${invitation.role as "member"}`, invitation.role),
          })}
        >
          {invitation.organizationName}
        </PageHeading>
        {error ? <Alert variant="error">{errorMessage(t, error)}</Alert> : null}
        <div className={styles.buttons}>
          <Button fullWidth loading={busy === "accept"} disabled={busy !== null} loadingText={t("organization.invitation.accepting")} onClick={() => void accept()}>
            {t("organization.invitation.accept")}
          </Button>
          <Button
            fullWidth
            variant="secondary"
            loading={busy === "reject"}
            disabled={busy !== null}
            loadingText={t("organization.invitation.rejecting")}
            onClick={() => void reject()}
          >
            {t("organization.invitation.reject")}
          </Button>
        </div>
      </>
    );
  }

  return <AuthLayout>{body}</AuthLayout>;
}

import { useState, type ReactNode } from "react";
import { useParams, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import type { AuthError } from "@gatehouse/client";
import { AuthLayout } from "../../components/auth-layout";
import { LoadingScreen } from "../../components/loading-screen";
import { PageHeading } from "../../components/page-heading";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { ButtonLink } from "../../components/ui/button-link";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { authClient } from "../../lib/auth-client";
import { errorMessage } from "../../lib/auth-errors";
import { queries, useQuery } from "../../lib/data";
import { UNVERIFIED_FOR_INVITATIONS, useAnswerInvitation } from "../../lib/pending-invitations";
import { useDocumentTitle } from "../../lib/use-document-title";
import styles from "./invitation-page.module.css";

/** The codes of an invitation that is no longer open: answered, canceled or expired. */
const CLOSED_CODES = new Set(["INVITATION_NOT_FOUND", "INVITATION_NOT_FOUND!", "FAILED_TO_RETRIEVE_INVITATION"]);

/**
 * Where a mailed invitation lands (/invitation/:id). Signed out, the visitor signs in or signs up and comes
 * back here; with an unverified address, the verification link they are sent brings them back here too.
 * Signed in and verified, the invitee accepts or declines (declining asks first).
 */
export function InvitationPage() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const [params] = useSearchParams();
  useDocumentTitle(t("organization.invitation.title"));
  const { data: session, isPending } = authClient.useSession();
  const answer = useAnswerInvitation();
  const [answerError, setAnswerError] = useState<AuthError | null>(null);
  const [busy, setBusy] = useState<"accept" | "reject" | null>(null);
  const [confirmingReject, setConfirmingReject] = useState(false);
  const [rejected, setRejected] = useState<string | null>(null);
  const signedIn = !!session;
  // Read again once the address is verified (in another tab, or by the link that led back here).
  const read = useQuery(signedIn ? queries.invitation(id) : null);
  const invitation = read.state === "ready" ? read.data : null;
  const loadError = read.error;

  async function accept() {
    if (!invitation) return;
    setBusy("accept");
    setAnswerError(null);
    const error = await answer.accept(invitation);
    if (error) {
      setBusy(null);
      setAnswerError(error);
    }
  }

  async function reject() {
    if (!invitation) return;
    setBusy("reject");
    setAnswerError(null);
    const error = await answer.reject(invitation);
    setBusy(null);
    setConfirmingReject(false);
    if (error) return setAnswerError(error);
    setRejected(invitation.organizationName);
  }

  if (isPending) return <LoadingScreen />;
  const from = { from: `/invitation/${encodeURIComponent(id)}` };
  const home = (
    <ButtonLink to="/" variant="secondary" fullWidth>
      {t("nav.home")}
    </ButtonLink>
  );

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
  } else if (rejected !== null) {
    body = (
      <>
        <PageHeading lead={t("organization.invitation.rejected", { organization: rejected })}>
          {t("organization.invitation.rejectedHeading")}
        </PageHeading>
        <div className={styles.buttons}>{home}</div>
      </>
    );
  } else if (loadError?.code === UNVERIFIED_FOR_INVITATIONS) {
    body = <VerifyFirst id={id} email={session.user.email} linkFailed={params.has("error")} home={home} />;
  } else if (loadError) {
    const closed = CLOSED_CODES.has(loadError.code);
    body = (
      <>
        <PageHeading lead={closed ? t("organization.invitation.closedLead") : errorMessage(t, loadError)}>
          {closed ? t("organization.invitation.closedHeading") : t("organization.invitation.unavailableHeading")}
        </PageHeading>
        <div className={styles.buttons}>{home}</div>
      </>
    );
  } else if (!invitation) {
    body = <LoadingScreen />;
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
        {answerError ? (
          <Alert variant="error" focusable>
            {errorMessage(t, answerError)}
          </Alert>
        ) : null}
        <div className={styles.buttons}>
          <Button
            fullWidth
            loading={busy === "accept"}
            disabled={busy !== null}
            loadingText={t("organization.invitation.accepting")}
            onClick={() => void accept()}
          >
            {t("organization.invitation.accept")}
          </Button>
          <Button fullWidth variant="secondary" disabled={busy !== null} onClick={() => setConfirmingReject(true)}>
            {t("organization.invitation.reject")}
          </Button>
        </div>
        <ConfirmDialog
          open={confirmingReject}
          title={t("organization.invitation.rejectTitle", { organization: invitation.organizationName })}
          confirmLabel={t("organization.invitation.rejectConfirm")}
          cancelLabel={t("common.cancel")}
          loading={busy === "reject"}
          loadingText={t("organization.invitation.rejecting")}
          onConfirm={() => void reject()}
          onClose={() => setConfirmingReject(false)}
        >
          <p>{t("organization.invitation.rejectText")}</p>
        </ConfirmDialog>
      </>
    );
  }

  return <AuthLayout>{body}</AuthLayout>;
}

interface VerifyFirstProps {
  id: string;
  email: string;
  /** The verification link that led here did not work (the service added `?error=`). */
  linkFailed: boolean;
  home: ReactNode;
}

/** An unverified invitee: the mailed link (or a new one sent from here) verifies the address and comes back. */
function VerifyFirst({ id, email, linkFailed, home }: VerifyFirstProps) {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<{ variant: "success" | "error"; text: string } | null>(null);

  async function resend() {
    setSending(true);
    setOutcome(null);
    const { error } = await authClient.sendVerificationEmail({ email, callbackURL: `/invitation/${encodeURIComponent(id)}` });
    setSending(false);
    setOutcome(
      error
        ? { variant: "error", text: errorMessage(t, error) }
        : { variant: "success", text: t("organization.invitation.resent", { email }) },
    );
  }

  return (
    <>
      <PageHeading lead={t("organization.invitation.verifyLead", { email })}>{t("organization.invitation.verifyHeading")}</PageHeading>
      {linkFailed && !outcome ? <Alert variant="warning">{t("organization.invitation.verifyLinkFailed")}</Alert> : null}
      {outcome ? (
        <Alert variant={outcome.variant} focusable>
          {outcome.text}
        </Alert>
      ) : null}
      <div className={styles.buttons}>
        <Button loading={sending} loadingText={t("organization.invitation.resending")} fullWidth onClick={() => void resend()}>
          {t("organization.invitation.resend")}
        </Button>
        {home}
      </div>
    </>
  );
}

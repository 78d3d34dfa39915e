import { useEffect, useId, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import type { UserInvitation } from "@gatehouse/client";
import { errorMessage } from "../lib/auth-errors";
import { mutations, queries, useQuery } from "../lib/data";
import { refusesForSecondFactor, TWO_FACTOR_REQUIRED } from "../lib/organizations";
import { useAnswerInvitation } from "../lib/pending-invitations";
import { useCurrentSession } from "./current-session";
import { Alert } from "./ui/alert";
import { Badge } from "./ui/badge";
import { InvitationAnswerButtons } from "./invitation-answer-buttons";
import { ConfirmDialog } from "./ui/confirm-dialog";
import styles from "./organization-switcher.module.css";

/** `security`: the refusal is the organization's second-factor policy, so the message leads to the Security page. */
type Outcome = { variant: "success" | "error"; text: string; security?: boolean } | null;

/**
 * The header's organization picker: a button that opens a panel with the caller's organizations (a click
 * makes one active), "no organization", their pending invitations with accept and decline, and a link to
 * create one. Nothing happens until a button is pressed; Escape or a click elsewhere closes the panel. An
 * organization that requires two-step sign-in the user has not set up is marked so; choosing it says why it does
 * not open and leads to the Security page.
 */
export function OrganizationSwitcher() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { session, user } = useCurrentSession();
  const invitations = useQuery(queries.invitations());
  const answer = useAnswerInvitation();
  const organizations = useQuery(queries.organizations()).data ?? [];
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [declining, setDeclining] = useState<UserInvitation | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const organizationsId = useId();
  const invitationsId = useId();
  const activeId = session.activeOrganizationId ?? "";
  const pending = invitations.state === "ready" ? invitations.data : [];
  const activeName = organizations.find((organization) => organization.id === activeId)?.name;

  // A click outside closes the panel (clicks in the decline dialog are inside: it is rendered in here).
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  function close(returnFocus: boolean) {
    setOpen(false);
    setOutcome(null);
    if (returnFocus) triggerRef.current?.focus();
  }

  async function choose(organizationId: string) {
    setBusy(`choose-${organizationId}`);
    setOutcome(null);
    // A refusal (most often: the organization was deleted or the user removed meanwhile) is said in the panel;
    // the list is read again either way.
    const { error } = await mutations.setActiveOrganization({ organizationId: organizationId || null });
    setBusy(null);
    if (error) return setOutcome({ variant: "error", text: errorMessage(t, error), security: error.code === TWO_FACTOR_REQUIRED });
    close(false);
    if (organizationId) void navigate("/organization");
  }

  async function accept(invitation: UserInvitation) {
    setBusy(`accept-${invitation.id}`);
    setOutcome(null);
    const error = await answer.accept(invitation);
    setBusy(null);
    if (error) return setOutcome({ variant: "error", text: errorMessage(t, error) });
    close(false);
  }

  async function decline(invitation: UserInvitation) {
    setBusy(`reject-${invitation.id}`);
    setOutcome(null);
    const error = await answer.reject(invitation);
    setBusy(null);
    setDeclining(null);
    setOutcome(
      error
        ? { variant: "error", text: errorMessage(t, error) }
        : { variant: "success", text: t("organization.invitation.rejected", { organization: invitation.organizationName }) },
    );
  }

  return (
    <div
      ref={rootRef}
      className={styles.switcher}
      onBlur={(event) => {
        // Tabbing past the panel closes it (a click on nothing focusable, inside it, leaves no next focus).
        const next = event.relatedTarget as Node | null;
        if (open && next && !event.currentTarget.contains(next)) close(false);
      }}
      onKeyDown={(event) => {
        // Escape in the decline dialog is the dialog's own.
        if (event.key === "Escape" && open && !(event.target as Element).closest("dialog")) {
          event.stopPropagation();
          close(true);
        }
      }}
    >
      <button
        ref={triggerRef}
        type="button"
        className={styles.trigger}
        title={activeName}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => (open ? close(false) : setOpen(true))}
      >
        <svg className={styles.icon} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
          <path
            d="M4 17.5v-13a1 1 0 0 1 1-1h6a1 1 0 0 1 1 1v13m0-9h3a1 1 0 0 1 1 1v8m-13.5 0h15M7 6.5h2m-2 3h2m-2 3h2"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.4"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        <span className="visually-hidden">{`${t("organization.switcher.label")}: `}</span>
        <span className={activeName ? styles.current : `${styles.current} ${styles.none}`}>
          {activeName ?? t("organization.switcher.none")}
        </span>
        {pending.length > 0 ? (
          <span className={styles.count}>
            <span className={styles.countText}>{t("organization.switcher.invitationCount", { count: pending.length })}</span>
            {/* Phones show the number alone; the words stay for screen readers. */}
            <span className={styles.countNumber} aria-hidden="true">
              {pending.length}
            </span>
          </span>
        ) : null}
        <svg className={styles.chevron} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <path d="m4.5 6.25 3.5 3.5 3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
      <div id={panelId} className={styles.panel} hidden={!open}>
        <p id={organizationsId} className={styles.groupLabel}>
          {t("organization.switcher.organizationsHeading")}
        </p>
        <ul className={styles.options} aria-labelledby={organizationsId}>
          {[...organizations, null].map((organization) => {
            const id = organization?.id ?? "";
            const current = id === activeId;
            return (
              <li key={id || "none"}>
                <button
                  type="button"
                  className={styles.option}
                  aria-current={current ? "true" : undefined}
                  disabled={busy !== null}
                  onClick={() => (current ? close(true) : void choose(id))}
                >
                  <span className={styles.optionName}>{organization?.name ?? t("organization.switcher.none")}</span>
                  {busy === `choose-${id}` ? <span className={styles.optionNote}>{t("organization.switcher.switching")}</span> : null}
                  {organization && refusesForSecondFactor(organization, user) ? (
                    <Badge variant="warning">{t("organization.policy.badge")}</Badge>
                  ) : null}
                  {current ? <Badge variant="accent">{t("organization.switcher.active")}</Badge> : null}
                </button>
              </li>
            );
          })}
        </ul>
        {pending.length > 0 ? (
          <>
            <p id={invitationsId} className={styles.groupLabel}>
              {t("organization.switcher.invitationsHeading")}
            </p>
            <ul className={styles.invitations} aria-labelledby={invitationsId}>
              {pending.map((invitation) => (
                <li key={invitation.id} className={styles.invitation} data-invitation={invitation.organizationName}>
                  <span className={styles.optionName}>{invitation.organizationName}</span>
                  <InvitationAnswerButtons
                    invitation={invitation}
                    busy={busy}
                    onAccept={(chosen) => void accept(chosen)}
                    onDecline={setDeclining}
                    className={styles.invitationButtons}
                  />
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {outcome ? (
          <div className={styles.outcome}>
            <Alert variant={outcome.variant}>
              {outcome.text}
              {outcome.security ? (
                <>
                  {" "}
                  <Link to="/account/security" onClick={() => close(false)}>
                    {t("organization.policy.refusedLink")}
                  </Link>
                </>
              ) : null}
            </Alert>
          </div>
        ) : null}
        <Link to="/organizations/new" className={styles.create} onClick={() => close(false)}>
          {`+ ${t("organization.switcher.create")}`}
        </Link>
      </div>
      <ConfirmDialog
        open={declining !== null}
        title={t("organization.invitation.rejectTitle", { organization: declining?.organizationName ?? "" })}
        confirmLabel={t("organization.invitation.rejectConfirm")}
        cancelLabel={t("common.cancel")}
        loading={declining !== null && busy === `reject-${declining.id}`}
        loadingText={t("organization.invitation.rejecting")}
        onConfirm={() => declining && void decline(declining)}
        onClose={() => setDeclining(null)}
      >
        <p>{t("organization.invitation.rejectText")}</p>
      </ConfirmDialog>
    </div>
  );
}

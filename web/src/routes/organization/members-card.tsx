import { useState } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import type { AuthError, FullOrganization, MemberWithUser } from "@gatehouse/client";
import { ActionMessage, useActionReporter } from "../../components/action-message";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { Select } from "../../components/ui/select";
import { errorMessage } from "../../lib/auth-errors";
import { mutations } from "../../lib/data";
import { canManage, isOwner, rolesOf } from "../../lib/organizations";
import { organizationNotice } from "../../lib/organization-notice";
import styles from "./organization-page.module.css";

export const ROLES = ["member", "admin", "owner"] as const;

interface Props {
  organization: FullOrganization;
  me: MemberWithUser | undefined;
}

/** What the confirmation dialog is asking about. */
type Pending = { kind: "remove"; member: MemberWithUser } | { kind: "leave" } | null;

/**
 * Everyone in the organization; owners and admins change roles (choose, then apply) and remove members, anyone
 * may leave. Removing and leaving ask first.
 */
export function MembersCard({ organization, me }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const report = useActionReporter("members");
  const [busy, setBusy] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  // The role picked in each row's select, until "Change role" applies it.
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const manager = canManage(me?.role);
  const roleName = (role: string) => rolesOf(role).map((r) => t(`organization.roles.${r as "member"}`, r)).join(", ");

  async function run(key: string, call: () => Promise<{ error: AuthError | null }>): Promise<boolean> {
    setBusy(key);
    report.start();
    const { error } = await call();
    setBusy(null);
    if (error) report.fail(errorMessage(t, error));
    return !error;
  }

  async function changeRole(member: MemberWithUser, role: string) {
    const ok = await run(`role-${member.id}`, () =>
      mutations.updateMemberRole({ memberId: member.id, role, organizationId: organization.id }),
    );
    if (!ok) return;
    setChosen(({ [member.id]: _applied, ...rest }) => rest);
    report.succeed(t("organization.members.roleChanged", { name: member.user.name, role: roleName(role) }));
  }

  async function confirm() {
    if (!pending) return;
    if (pending.kind === "leave") {
      const ok = await run("leave", () => mutations.leaveOrganization({ organizationId: organization.id }));
      setPending(null);
      if (!ok) return;
      void navigate("/", { state: organizationNotice("left", organization.name) });
      return;
    }
    const { member } = pending;
    const ok = await run(`remove-${member.id}`, () =>
      mutations.removeMember({ memberIdOrEmail: member.id, organizationId: organization.id }),
    );
    setPending(null);
    if (!ok) return;
    report.succeed(t("organization.members.removed", { name: member.user.name }));
  }

  return (
    <Card title={t("organization.members.heading")} description={t("organization.members.description")} flush>
      <ActionMessage scope="members" className={styles.message} />
      <ul className={styles.list}>
        {organization.members.map((member) => {
          const self = member.id === me?.id;
          // An admin may not change or remove an owner; nobody changes their own role here.
          const editable = manager && !self && (isOwner(me?.role) || !isOwner(member.role));
          const current = rolesOf(member.role)[0] ?? "member";
          const picked = chosen[member.id] ?? current;
          return (
            <li key={member.id} className={styles.row} data-member={member.user.email}>
              <div className={styles.details}>
                <span className={styles.name}>
                  {member.user.name}
                  {self ? <Badge variant="accent">{t("organization.members.you")}</Badge> : null}
                </span>
                <span className={styles.meta}>{member.user.email}</span>
              </div>
              <div className={styles.actions}>
                {editable ? (
                  <>
                    <Select
                      label={t("organization.members.roleOf", { name: member.user.name })}
                      hideLabel
                      size="sm"
                      options={ROLES.filter((r) => r !== "owner" || isOwner(me?.role)).map((r) => ({
                        value: r,
                        label: t(`organization.roles.${r}`),
                      }))}
                      value={picked}
                      onChange={(role) => setChosen((all) => ({ ...all, [member.id]: role }))}
                    />
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={picked === current || busy !== null}
                      loading={busy === `role-${member.id}`}
                      loadingText={t("organization.members.changingRole")}
                      aria-label={`${t("organization.members.changeRole")}: ${member.user.name}`}
                      onClick={() => void changeRole(member, picked)}
                    >
                      {t("organization.members.changeRole")}
                    </Button>
                  </>
                ) : (
                  <Badge>{roleName(member.role)}</Badge>
                )}
                {editable ? (
                  <Button
                    variant="danger"
                    size="sm"
                    disabled={busy !== null}
                    aria-label={`${t("organization.members.remove")}: ${member.user.name}`}
                    onClick={() => setPending({ kind: "remove", member })}
                  >
                    {t("organization.members.remove")}
                  </Button>
                ) : null}
                {self ? (
                  <Button variant="secondary" size="sm" disabled={busy !== null} onClick={() => setPending({ kind: "leave" })}>
                    {t("organization.members.leave")}
                  </Button>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={pending !== null}
        title={
          pending?.kind === "remove"
            ? t("organization.members.removeTitle", { name: pending.member.user.name, organization: organization.name })
            : t("organization.members.leaveTitle", { organization: organization.name })
        }
        confirmLabel={pending?.kind === "remove" ? t("organization.members.removeConfirm") : t("organization.members.leave")}
        cancelLabel={t("common.cancel")}
        loading={busy === "leave" || (pending?.kind === "remove" && busy === `remove-${pending.member.id}`)}
        loadingText={pending?.kind === "remove" ? t("organization.members.removing") : t("organization.members.leaving")}
        onConfirm={() => void confirm()}
        onClose={() => setPending(null)}
      >
        <p>{pending?.kind === "remove" ? t("organization.members.removeText") : t("organization.members.leaveText")}</p>
      </ConfirmDialog>
    </Card>
  );
}

import { useState } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import type { FullOrganization, MemberWithUser } from "@gatehouse/client";
import { Alert } from "../../components/ui/alert";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { authClient } from "../../lib/auth-client";
import { errorMessage } from "../../lib/auth-errors";
import { canManage, isOwner, notifyOrganizationsChanged, rolesOf } from "../../lib/organization-events";
import styles from "./organization-page.module.css";

export const ROLES = ["member", "admin", "owner"] as const;

interface Props {
  organization: FullOrganization;
  me: MemberWithUser | undefined;
  onChange(): Promise<void>;
}

/** Everyone in the organization; owners and admins change roles and remove members, anyone may leave. */
export function MembersCard({ organization, me, onChange }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const manager = canManage(me?.role);

  async function run(key: string, call: () => Promise<{ error: Parameters<typeof errorMessage>[1] | null }>) {
    setBusy(key);
    setError(null);
    const { error: failed } = await call();
    setBusy(null);
    if (failed) setError(errorMessage(t, failed));
    return !failed;
  }

  async function leave() {
    const ok = await run("leave", () => authClient.organization.leave({ organizationId: organization.id }));
    if (!ok) return;
    notifyOrganizationsChanged();
    void navigate("/");
  }

  return (
    <Card title={t("organization.members.heading")} description={t("organization.members.description")} flush>
      {error ? (
        <div className={styles.message}>
          <Alert variant="error" focusable>
            {error}
          </Alert>
        </div>
      ) : null}
      <ul className={styles.list}>
        {organization.members.map((member) => {
          const self = member.id === me?.id;
          // An admin may not change or remove an owner; nobody changes their own role here.
          const editable = manager && !self && (isOwner(me?.role) || !isOwner(member.role));
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
                  <select
                    className={styles.select}
                    aria-label={t("organization.members.roleOf", { name: member.user.name })}
                    value={rolesOf(member.role)[0]}
                    disabled={busy !== null}
                    onChange={(event) => {
                      const role = event.target.value;
                      void run(member.id, () =>
                        authClient.organization.updateMemberRole({ memberId: member.id, role, organizationId: organization.id }),
                      ).then((ok) => (ok ? onChange() : undefined));
                    }}
                  >
                    {ROLES.filter((r) => r !== "owner" || isOwner(me?.role)).map((r) => (
                      <option key={r} value={r}>
                        {t(`organization.roles.${r}`)}
                      </option>
                    ))}
                  </select>
                ) : (
                  <Badge>{rolesOf(member.role).map((r) => t(`organization.roles.${r as "member"}`, r)).join(", ")}</Badge>
                )}
                {editable ? (
                  <Button
                    variant="danger"
                    size="sm"
                    loading={busy === `remove-${member.id}`}
                    loadingText={t("organization.members.removing")}
                    onClick={() =>
                      void run(`remove-${member.id}`, () =>
                        authClient.organization.removeMember({ memberIdOrEmail: member.id, organizationId: organization.id }),
                      ).then((ok) => (ok ? onChange() : undefined))
                    }
                  >
                    {t("organization.members.remove")}
                  </Button>
                ) : null}
                {self ? (
                  <Button
                    variant="secondary"
                    size="sm"
                    loading={busy === "leave"}
                    loadingText={t("organization.members.leaving")}
                    onClick={() => void leave()}
                  >
                    {t("organization.members.leave")}
                  </Button>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

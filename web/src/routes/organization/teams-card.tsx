import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { FullOrganization, Team, TeamMember } from "@gatehouse/client";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { errorMessage } from "../../lib/auth-errors";
import styles from "./organization-page.module.css";

interface Props {
  organization: FullOrganization;
  canEdit: boolean;
  onChange(): Promise<void>;
}

/** The organization's teams; owners and admins create, rename and remove them and choose their members. */
export function TeamsCard({ organization, canEdit, onChange }: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name.trim()) return;
    setBusy(true);
    setError(null);
    const result = await authClient.organization.createTeam({ name: name.trim(), organizationId: organization.id });
    setBusy(false);
    if (result.error) return setError(errorMessage(t, result.error));
    setName("");
    await onChange();
  }

  return (
    <Card title={t("organization.teams.heading")} description={t("organization.teams.description")} flush>
      {canEdit ? (
        <Form onSubmit={(event) => void onCreate(event)} className={styles.inline}>
          <TextField
            className={styles.grow}
            label={t("organization.teams.name")}
            name="team"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          <Button type="submit" loading={busy} loadingText={t("organization.teams.creating")}>
            {t("organization.teams.create")}
          </Button>
        </Form>
      ) : null}
      {error ? (
        <div className={styles.message}>
          <Alert variant="error" focusable>
            {error}
          </Alert>
        </div>
      ) : null}
      <ul className={styles.list}>
        {organization.teams.map((team) => (
          <TeamRow key={team.id} team={team} organization={organization} canEdit={canEdit} onChange={onChange} onError={setError} />
        ))}
      </ul>
    </Card>
  );
}

interface RowProps extends Props {
  team: Team;
  onError(message: string | null): void;
}

function TeamRow({ team, organization, canEdit, onChange, onError }: RowProps) {
  const { t } = useTranslation();
  const [members, setMembers] = useState<TeamMember[]>([]);
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(team.name);
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    void authClient.organization.listTeamMembers({ teamId: team.id }).then(({ data }) => {
      if (live && data) setMembers(data);
    });
    return () => {
      live = false;
    };
  }, [team.id, version]);

  const nameOf = (userId: string) => organization.members.find((m) => m.userId === userId)?.user.name ?? userId;
  const outside = organization.members.filter((m) => !members.some((tm) => tm.userId === m.userId));

  async function act(call: () => Promise<{ error: Parameters<typeof errorMessage>[1] | null }>, refresh = false) {
    setBusy(true);
    onError(null);
    const { error } = await call();
    setBusy(false);
    if (error) return onError(errorMessage(t, error));
    setVersion((n) => n + 1);
    if (refresh) await onChange();
  }

  return (
    <li className={styles.row} data-team={team.name}>
      <div className={styles.details}>
        {renaming ? (
          <Form
            className={styles.actions}
            onSubmit={(event) => {
              event.preventDefault();
              void act(() => authClient.organization.updateTeam({ teamId: team.id, data: { name: name.trim() } }), true).then(() =>
                setRenaming(false),
              );
            }}
          >
            <TextField label={t("organization.teams.name")} value={name} onChange={(event) => setName(event.target.value)} />
            <Button type="submit" size="sm" loading={busy} loadingText={t("organization.settings.saving")}>
              {t("organization.settings.save")}
            </Button>
          </Form>
        ) : (
          <span className={styles.name}>{team.name}</span>
        )}
        <span className={styles.meta}>
          {members.length > 0
            ? t("organization.teams.members", { names: members.map((m) => nameOf(m.userId)).join(", ") })
            : t("organization.teams.noMembers")}
        </span>
      </div>
      {canEdit ? (
        <div className={styles.actions}>
          {outside.length > 0 ? (
            <select
              className={styles.select}
              aria-label={t("organization.teams.addMemberTo", { team: team.name })}
              value=""
              disabled={busy}
              onChange={(event) => {
                const userId = event.target.value;
                void act(() => authClient.organization.addTeamMember({ teamId: team.id, userId, organizationId: organization.id }));
              }}
            >
              <option value="">{t("organization.teams.addMember")}</option>
              {outside.map((m) => (
                <option key={m.userId} value={m.userId}>
                  {m.user.name}
                </option>
              ))}
            </select>
          ) : null}
          {members.length > 0 ? (
            <select
              className={styles.select}
              aria-label={t("organization.teams.removeMemberFrom", { team: team.name })}
              value=""
              disabled={busy}
              onChange={(event) => {
                const userId = event.target.value;
                void act(() => authClient.organization.removeTeamMember({ teamId: team.id, userId, organizationId: organization.id }));
              }}
            >
              <option value="">{t("organization.teams.removeMember")}</option>
              {members.map((m) => (
                <option key={m.userId} value={m.userId}>
                  {nameOf(m.userId)}
                </option>
              ))}
            </select>
          ) : null}
          {!renaming ? (
            <Button variant="ghost" size="sm" onClick={() => setRenaming(true)}>
              {t("organization.teams.rename")}
            </Button>
          ) : null}
          <Button
            variant="danger"
            size="sm"
            disabled={busy}
            onClick={() => void act(() => authClient.organization.removeTeam({ teamId: team.id, organizationId: organization.id }), true)}
          >
            {t("organization.teams.remove")}
          </Button>
        </div>
      ) : null}
    </li>
  );
}

import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { AuthError, FullOrganization, MemberWithUser, Team, TeamMember } from "@gatehouse/client";
import { ActionMessage, useActionReporter, type ActionReporter } from "../../components/action-message";
import { CardListState } from "../../components/card-list-state";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { errorMessage } from "../../lib/auth-errors";
import styles from "./organization-page.module.css";

interface Props {
  organization: FullOrganization;
  me: MemberWithUser | undefined;
  canEdit: boolean;
  onChange(): Promise<void>;
}

type Loaded<T> = { state: "loading" } | { state: "failed"; error: AuthError } | { state: "ready"; value: T };

/**
 * The organization's teams. Owners and admins see every team, create, rename and remove them and choose their
 * members (a select chooses, a button applies; removals ask first). A plain member sees the teams they belong
 * to: the service shows a team's members only to its own members and to the organization's owners and admins.
 */
export function TeamsCard({ organization, me, canEdit, onChange }: Props) {
  const { t } = useTranslation();
  const report = useActionReporter("teams");
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [ownTeams, setOwnTeams] = useState<Loaded<Team[]>>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);

  // A plain member's own teams; read again when the organization's teams change.
  const teamIds = organization.teams.map((team) => team.id).join();
  useEffect(() => {
    if (canEdit) return;
    let live = true;
    setOwnTeams({ state: "loading" });
    void authClient.organization.listUserTeams({ organizationId: organization.id }).then(({ data, error }) => {
      if (live) setOwnTeams(error ? { state: "failed", error } : { state: "ready", value: data });
    });
    return () => {
      live = false;
    };
  }, [canEdit, organization.id, teamIds, me?.id, attempt]);

  async function onCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    report.start();
    if (!name.trim()) return report.fail(t("organization.create.nameRequired"));
    setBusy(true);
    const result = await authClient.organization.createTeam({ name: name.trim(), organizationId: organization.id });
    setBusy(false);
    if (result.error) return report.fail(errorMessage(t, result.error));
    setName("");
    await onChange();
    report.succeed(t("organization.teams.created", { team: result.data.name }));
  }

  let body;
  if (canEdit) {
    body =
      organization.teams.length === 0 ? (
        <p className={styles.empty}>{t("organization.teams.noTeams")}</p>
      ) : (
        <TeamList teams={organization.teams} organization={organization} canEdit onChange={onChange} report={report} />
      );
  } else if (ownTeams.state !== "ready") {
    body = (
      <CardListState
        state={ownTeams.state}
        error={ownTeams.state === "failed" ? ownTeams.error : undefined}
        loadingText={t("app.loading")}
        failedTitle={t("organization.teams.teamsFailed")}
        onRetry={() => setAttempt((n) => n + 1)}
      />
    );
  } else if (ownTeams.value.length === 0) {
    body = <p className={styles.empty}>{t("organization.teams.notInAny")}</p>;
  } else {
    body = <TeamList teams={ownTeams.value} organization={organization} canEdit={false} onChange={onChange} report={report} />;
  }

  return (
    <Card
      title={t("organization.teams.heading")}
      description={canEdit ? t("organization.teams.description") : t("organization.teams.ownDescription")}
      flush
    >
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
      <ActionMessage scope="teams" className={styles.message} />
      {body}
    </Card>
  );
}

interface ListProps {
  teams: Team[];
  organization: FullOrganization;
  canEdit: boolean;
  onChange(): Promise<void>;
  report: ActionReporter;
}

function TeamList({ teams, ...rest }: ListProps) {
  return (
    <ul className={styles.list}>
      {teams.map((team) => (
        <TeamRow key={team.id} team={team} {...rest} />
      ))}
    </ul>
  );
}

type Pending = { kind: "team" } | { kind: "member"; userId: string; name: string } | null;

function TeamRow({ team, organization, canEdit, onChange, report }: Omit<ListProps, "teams"> & { team: Team }) {
  const { t } = useTranslation();
  const [members, setMembers] = useState<Loaded<TeamMember[]>>({ state: "loading" });
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(team.name);
  const [busy, setBusy] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [toAdd, setToAdd] = useState("");
  const [toRemove, setToRemove] = useState("");
  const [pending, setPending] = useState<Pending>(null);

  useEffect(() => {
    let live = true;
    void authClient.organization.listTeamMembers({ teamId: team.id }).then(({ data, error }) => {
      if (live) setMembers(error ? { state: "failed", error } : { state: "ready", value: data });
    });
    return () => {
      live = false;
    };
  }, [team.id, version]);

  const nameOf = (userId: string) => organization.members.find((m) => m.userId === userId)?.user.name ?? userId;
  const inTeam = members.state === "ready" ? members.value : [];
  const outside = organization.members.filter((m) => !inTeam.some((tm) => tm.userId === m.userId));

  async function act(key: string, call: () => Promise<{ error: AuthError | null }>, success: () => string, refresh = false) {
    setBusy(key);
    report.start();
    const { error } = await call();
    setBusy(null);
    if (error) {
      report.fail(errorMessage(t, error));
      return false;
    }
    setVersion((n) => n + 1);
    if (refresh) await onChange();
    report.succeed(success());
    return true;
  }

  async function add() {
    const userId = toAdd;
    if (!userId) return;
    const ok = await act(
      "add",
      () => authClient.organization.addTeamMember({ teamId: team.id, userId, organizationId: organization.id }),
      () => t("organization.teams.added", { name: nameOf(userId), team: team.name }),
    );
    if (ok) setToAdd("");
  }

  async function confirm() {
    if (pending?.kind === "team") {
      await act(
        "remove-team",
        () => authClient.organization.removeTeam({ teamId: team.id, organizationId: organization.id }),
        () => t("organization.teams.removed", { team: team.name }),
        true,
      );
    } else if (pending?.kind === "member") {
      const { userId, name: memberName } = pending;
      const ok = await act(
        "remove-member",
        () => authClient.organization.removeTeamMember({ teamId: team.id, userId, organizationId: organization.id }),
        () => t("organization.teams.memberRemoved", { name: memberName, team: team.name }),
      );
      if (ok) setToRemove("");
    }
    setPending(null);
  }

  async function rename(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const newName = name.trim();
    if (!newName) {
      report.start();
      return report.fail(t("organization.create.nameRequired"));
    }
    const ok = await act(
      "rename",
      () => authClient.organization.updateTeam({ teamId: team.id, data: { name: newName } }),
      () => t("organization.teams.renamed", { team: newName }),
      true,
    );
    if (ok) setRenaming(false);
  }

  let roster;
  if (members.state === "loading") roster = <span className={styles.meta}>{t("app.loading")}</span>;
  else if (members.state === "failed") {
    roster = (
      <span className={styles.failedMeta} role="alert">
        {t("organization.teams.membersFailed")} {errorMessage(t, members.error)}{" "}
        <Button variant="ghost" size="sm" onClick={() => setVersion((n) => n + 1)}>
          {t("common.tryAgain")}
        </Button>
      </span>
    );
  } else {
    roster = (
      <span className={styles.meta}>
        {inTeam.length > 0
          ? t("organization.teams.members", { names: inTeam.map((m) => nameOf(m.userId)).join(", ") })
          : t("organization.teams.noMembers")}
      </span>
    );
  }

  return (
    <li className={styles.row} data-team={team.name}>
      <div className={styles.details}>
        {renaming ? (
          <Form className={styles.actions} onSubmit={(event) => void rename(event)}>
            <TextField
              label={t("organization.teams.newName", { team: team.name })}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
            <Button type="submit" size="sm" loading={busy === "rename"} loadingText={t("organization.settings.saving")}>
              {t("organization.settings.save")}
            </Button>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setRenaming(false);
                setName(team.name);
              }}
            >
              {t("common.cancel")}
            </Button>
          </Form>
        ) : (
          <span className={styles.name}>{team.name}</span>
        )}
        {roster}
      </div>
      {canEdit ? (
        <div className={styles.teamActions}>
          {outside.length > 0 && members.state === "ready" ? (
            <div className={styles.actions}>
              <select
                className={styles.select}
                aria-label={t("organization.teams.addMemberTo", { team: team.name })}
                value={toAdd}
                onChange={(event) => setToAdd(event.target.value)}
              >
                <option value="">{t("organization.teams.chooseMember")}</option>
                {outside.map((m) => (
                  <option key={m.userId} value={m.userId}>
                    {m.user.name}
                  </option>
                ))}
              </select>
              <Button
                variant="secondary"
                size="sm"
                disabled={!toAdd || busy !== null}
                loading={busy === "add"}
                loadingText={t("organization.teams.adding")}
                onClick={() => void add()}
              >
                {t("organization.teams.addMember")}
              </Button>
            </div>
          ) : null}
          {inTeam.length > 0 ? (
            <div className={styles.actions}>
              <select
                className={styles.select}
                aria-label={t("organization.teams.removeMemberFrom", { team: team.name })}
                value={toRemove}
                onChange={(event) => setToRemove(event.target.value)}
              >
                <option value="">{t("organization.teams.chooseMember")}</option>
                {inTeam.map((m) => (
                  <option key={m.userId} value={m.userId}>
                    {nameOf(m.userId)}
                  </option>
                ))}
              </select>
              <Button
                variant="danger"
                size="sm"
                disabled={!toRemove || busy !== null}
                onClick={() => setPending({ kind: "member", userId: toRemove, name: nameOf(toRemove) })}
              >
                {t("organization.teams.removeMember")}
              </Button>
            </div>
          ) : null}
          <div className={styles.actions}>
            {!renaming ? (
              <Button variant="ghost" size="sm" disabled={busy !== null} onClick={() => setRenaming(true)}>
                {t("organization.teams.rename")}
              </Button>
            ) : null}
            <Button variant="danger" size="sm" disabled={busy !== null} onClick={() => setPending({ kind: "team" })}>
              {t("organization.teams.remove")}
            </Button>
          </div>
        </div>
      ) : null}
      {canEdit ? (
        <ConfirmDialog
          open={pending !== null}
          title={
            pending?.kind === "member"
              ? t("organization.teams.removeMemberTitle", { name: pending.name, team: team.name })
              : t("organization.teams.removeTitle", { team: team.name })
          }
          confirmLabel={pending?.kind === "member" ? t("organization.teams.removeMember") : t("organization.teams.remove")}
          cancelLabel={t("common.cancel")}
          loading={busy === "remove-team" || busy === "remove-member"}
          loadingText={t("organization.teams.removing")}
          onConfirm={() => void confirm()}
          onClose={() => setPending(null)}
        >
          <p>{pending?.kind === "member" ? t("organization.teams.removeMemberText") : t("organization.teams.removeText")}</p>
        </ConfirmDialog>
      ) : null}
    </li>
  );
}

import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { AuthError, FullOrganization, Team } from "@gatehouse/client";
import { ActionMessage, useActionReporter, type ActionReporter } from "../../components/action-message";
import { CardListState } from "../../components/card-list-state";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { Form } from "../../components/ui/form";
import { Select } from "../../components/ui/select";
import { TextField } from "../../components/ui/text-field";
import { errorMessage } from "../../lib/auth-errors";
import { mutations, queries, useQuery } from "../../lib/data";
import { useForm } from "../../lib/use-form";
import styles from "./organization-page.module.css";

interface Props {
  organization: FullOrganization;
  canEdit: boolean;
}

/**
 * The organization's teams. Owners and admins see every team, create, rename and remove them and choose their
 * members (a select chooses, a button applies; removals ask first). A plain member sees the teams they belong
 * to: the service shows a team's members only to its own members and to the organization's owners and admins.
 */
export function TeamsCard({ organization, canEdit }: Props) {
  const { t } = useTranslation();
  const report = useActionReporter("teams");
  const form = useForm({ name: "" }, { validate: ({ name }) => (name.trim() ? {} : { name: t("organization.create.nameRequired") }) });
  // A plain member's own teams (owners and admins see them all in the organization).
  const ownTeams = useQuery(canEdit ? null : queries.ownTeams(organization.id));

  const create = form.onSubmit(async ({ name }) => {
    const result = await mutations.createTeam({ name: name.trim(), organizationId: organization.id });
    if (result.error) return report.fail(errorMessage(t, result.error));
    form.reset();
    report.succeed(t("organization.teams.created", { team: result.data.name }));
  });

  let body;
  if (canEdit) {
    body =
      organization.teams.length === 0 ? (
        <p className={styles.empty}>{t("organization.teams.noTeams")}</p>
      ) : (
        <TeamList teams={organization.teams} organization={organization} canEdit report={report} />
      );
  } else if (ownTeams.state !== "ready") {
    body = (
      <CardListState
        state={ownTeams.state}
        error={ownTeams.error ?? undefined}
        loadingText={t("app.loading")}
        failedTitle={t("organization.teams.teamsFailed")}
        onRetry={() => void ownTeams.reload()}
      />
    );
  } else if (ownTeams.data.length === 0) {
    body = <p className={styles.empty}>{t("organization.teams.notInAny")}</p>;
  } else {
    body = <TeamList teams={ownTeams.data} organization={organization} canEdit={false} report={report} />;
  }

  return (
    <Card
      title={t("organization.teams.heading")}
      description={canEdit ? t("organization.teams.description") : t("organization.teams.ownDescription")}
      flush
    >
      {canEdit ? (
        <Form
          ref={form.ref}
          className={styles.inline}
          onSubmit={(event) => {
            report.start();
            create(event);
          }}
        >
          <TextField className={styles.grow} label={t("organization.teams.name")} name="team" {...form.field("name")} />
          <Button type="submit" loading={form.submitting} loadingText={t("organization.teams.creating")}>
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

function TeamRow({ team, organization, canEdit, report }: Omit<ListProps, "teams"> & { team: Team }) {
  const { t } = useTranslation();
  const members = useQuery(queries.teamMembers(organization.id, team.id));
  const [renaming, setRenaming] = useState(false);
  const renameForm = useForm(
    { name: team.name },
    { validate: ({ name }) => (name.trim() ? {} : { name: t("organization.create.nameRequired") }) },
  );
  const [busy, setBusy] = useState<string | null>(null);
  const [toAdd, setToAdd] = useState("");
  const [toRemove, setToRemove] = useState("");
  const [pending, setPending] = useState<Pending>(null);

  const nameOf = (userId: string) => organization.members.find((m) => m.userId === userId)?.user.name ?? userId;
  const inTeam = members.state === "ready" ? members.data : [];
  const outside = organization.members.filter((m) => !inTeam.some((tm) => tm.userId === m.userId));

  async function act(key: string, call: () => Promise<{ error: AuthError | null }>, success: () => string) {
    setBusy(key);
    report.start();
    const { error } = await call();
    setBusy(null);
    if (error) {
      report.fail(errorMessage(t, error));
      return false;
    }
    report.succeed(success());
    return true;
  }

  async function add() {
    const userId = toAdd;
    if (!userId) return;
    const ok = await act(
      "add",
      () => mutations.addTeamMember({ teamId: team.id, userId, organizationId: organization.id }),
      () => t("organization.teams.added", { name: nameOf(userId), team: team.name }),
    );
    if (ok) setToAdd("");
  }

  async function confirm() {
    if (pending?.kind === "team") {
      await act(
        "remove-team",
        () => mutations.removeTeam({ teamId: team.id, organizationId: organization.id }),
        () => t("organization.teams.removed", { team: team.name }),
      );
    } else if (pending?.kind === "member") {
      const { userId, name: memberName } = pending;
      const ok = await act(
        "remove-member",
        () => mutations.removeTeamMember({ teamId: team.id, userId, organizationId: organization.id }),
        () => t("organization.teams.memberRemoved", { name: memberName, team: team.name }),
      );
      if (ok) setToRemove("");
    }
    setPending(null);
  }

  const rename = renameForm.onSubmit(async ({ name }) => {
    const newName = name.trim();
    const ok = await act(
      "rename",
      () => mutations.updateTeam({ teamId: team.id, data: { name: newName } }),
      () => t("organization.teams.renamed", { team: newName }),
    );
    if (ok) setRenaming(false);
  });

  let roster;
  if (members.state === "loading") roster = <span className={styles.meta}>{t("app.loading")}</span>;
  else if (members.state === "failed") {
    roster = (
      <span className={styles.failedMeta} role="alert">
        {t("organization.teams.membersFailed")} {errorMessage(t, members.error)}{" "}
        <Button variant="ghost" size="sm" onClick={() => void members.reload()}>
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
          <Form
            ref={renameForm.ref}
            className={styles.actions}
            onSubmit={(event) => {
              report.start();
              rename(event);
            }}
          >
            <TextField label={t("organization.teams.newName", { team: team.name })} {...renameForm.field("name")} />
            <Button type="submit" size="sm" loading={busy === "rename"} loadingText={t("organization.settings.saving")}>
              {t("organization.settings.save")}
            </Button>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setRenaming(false);
                renameForm.reset({ name: team.name });
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
              <Select
                label={t("organization.teams.addMemberTo", { team: team.name })}
                hideLabel
                size="sm"
                options={[
                  { value: "", label: t("organization.teams.chooseMember") },
                  ...outside.map((m) => ({ value: m.userId, label: m.user.name })),
                ]}
                value={toAdd}
                onChange={setToAdd}
              />
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
              <Select
                label={t("organization.teams.removeMemberFrom", { team: team.name })}
                hideLabel
                size="sm"
                options={[
                  { value: "", label: t("organization.teams.chooseMember") },
                  ...inTeam.map((m) => ({ value: m.userId, label: nameOf(m.userId) })),
                ]}
                value={toRemove}
                onChange={setToRemove}
              />
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

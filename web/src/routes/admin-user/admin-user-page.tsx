import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useCurrentSession } from "../../components/current-session";
import { PageHeading } from "../../components/page-heading";
import { Alert } from "../../components/ui/alert";
import { Avatar } from "../../components/ui/avatar";
import { Badge } from "../../components/ui/badge";
import { Spinner } from "../../components/ui/spinner";
import { authClient } from "../../lib/auth-client";
import { errorMessage } from "../../lib/auth-errors";
import { mutations, queries, useQuery } from "../../lib/data";
import { formatDate } from "../../lib/format-time";
import { useDocumentTitle } from "../../lib/use-document-title";
import { ApplicationsCard } from "./applications-card";
import { BanCard } from "./ban-card";
import { DeleteCard } from "./delete-card";
import { FactorsCard } from "./factors-card";
import { ImpersonateCard } from "./impersonate-card";
import { PasswordCard } from "./password-card";
import { ProfileCard } from "./profile-card";
import { RoleCard } from "./role-card";
import { SessionsCard } from "./sessions-card";
import type { Act } from "./user-actions";
import styles from "./admin-user-page.module.css";

type Notice = { variant: "success" | "error"; text: string } | null;

/**
 * One user as an administrator manages them: profile, role, ban, sessions, connected applications, sign-in factors,
 * password, impersonation, deletion.
 */
export function AdminUserPage() {
  const { t, i18n } = useTranslation();
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const me = useCurrentSession().user;
  const load = useQuery(queries.adminUser(id));
  // Sessions that cannot be read are shown as none.
  const listed = useQuery(queries.adminUserSessions(id));
  const sessions = listed.data?.sessions ?? [];
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<string | null>(null);
  useDocumentTitle(load.data?.name ?? t("admin.title"));

  // The mutation `call` makes reads the user and their sessions again (lib/data.ts).
  const act: Act = async (name, call, success) => {
    setBusy(name);
    setNotice(null);
    const { error } = await call();
    setBusy(null);
    setNotice(error ? { variant: "error", text: errorMessage(t, error) } : { variant: "success", text: success });
    window.scrollTo({ top: 0 });
    return !error;
  };

  if (load.state === "loading" || listed.state === "loading") {
    return (
      <div className={styles.state}>
        <Spinner size="sm" />
        <span role="status">{t("admin.user.loading")}</span>
      </div>
    );
  }
  if (load.state === "failed") {
    return (
      <div className={styles.page}>
        <Link to="/admin">← {t("admin.user.back")}</Link>
        <Alert variant="error">{errorMessage(t, load.error)}</Alert>
      </div>
    );
  }
  const target = load.data;

  async function impersonate() {
    setBusy("impersonate");
    setNotice(null);
    const { error } = await authClient.admin.impersonateUser({ userId: target.id });
    if (error) {
      setBusy(null);
      setNotice({ variant: "error", text: errorMessage(t, error) });
      return;
    }
    await authClient.getSession();
    void navigate("/");
  }

  async function remove() {
    setBusy("delete");
    const { error } = await mutations.removeUser({ userId: target.id });
    setBusy(null);
    if (error) {
      setNotice({ variant: "error", text: errorMessage(t, error) });
      return;
    }
    void navigate("/admin", { state: { deleted: target.email } });
  }

  const cardProps = { user: target, busy, act };
  // The service refuses banning, impersonating and removing yourself, so those cards are not offered here.
  const own = target.id === me.id;
  return (
    <div className={styles.page}>
      <Link to="/admin" className={styles.back}>
        ← {t("admin.user.back")}
      </Link>
      <div className={styles.identity}>
        <Avatar name={target.name} image={target.image} size="lg" />
        <div className={styles.identityText}>
          <PageHeading lead={target.email}>{target.name}</PageHeading>
          <div className={styles.badges}>
            <Badge variant={target.administrator ? "accent" : "neutral"}>
              {target.administrator ? t("admin.roleAdmin") : t("admin.roleUser")}
            </Badge>
            {target.banned ? <Badge variant="warning">{t("admin.banned")}</Badge> : <Badge variant="success">{t("admin.active")}</Badge>}
            <Badge>{target.emailVerified ? t("admin.user.emailVerified") : t("admin.user.emailUnverified")}</Badge>
          </div>
          <p className={styles.muted}>{t("admin.user.joined", { date: formatDate(target.createdAt, i18n.language) })}</p>
          <p className={styles.links}>
            <Link to={`/admin/audit-log?user=${encodeURIComponent(target.id)}`}>{t("activity.admin.eventsOfUser")}</Link>
            <Link to={`/admin/audit-log?actor=${encodeURIComponent(target.id)}`}>{t("activity.admin.eventsByUser")}</Link>
          </p>
          {own ? <p className={styles.muted}>{t("admin.user.ownAccount")}</p> : null}
        </div>
      </div>

      {notice ? (
        <Alert variant={notice.variant} focusable>
          {notice.text}
        </Alert>
      ) : null}

      <ProfileCard user={target} />
      {/* Keyed by the stored role, so the picker starts again from it once a change is saved. */}
      <RoleCard key={target.role ?? ""} {...cardProps} />
      {own ? null : <BanCard {...cardProps} />}
      <SessionsCard {...cardProps} sessions={sessions} />
      <ApplicationsCard user={target} />
      <FactorsCard {...cardProps} own={own} />
      <PasswordCard {...cardProps} />
      {own ? null : (
        <>
          <ImpersonateCard user={target} busy={busy} onImpersonate={() => void impersonate()} />
          <DeleteCard user={target} busy={busy} onDelete={() => void remove()} />
        </>
      )}
    </div>
  );
}

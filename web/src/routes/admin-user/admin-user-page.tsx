import type { AuthError, Session, User } from "@gatehouse/client";
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import { PageHeading } from "../../components/page-heading";
import { Alert } from "../../components/ui/alert";
import { Avatar } from "../../components/ui/avatar";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { Spinner } from "../../components/ui/spinner";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { errorMessage } from "../../lib/auth-errors";
import { formatDate, formatDateTime } from "../../lib/format-time";
import { isAdmin } from "../../lib/is-admin";
import { useDeviceLabel } from "../../lib/use-device-label";
import { useDocumentTitle } from "../../lib/use-document-title";
import styles from "./admin-user-page.module.css";

type Load = { state: "loading" } | { state: "failed"; error: AuthError } | { state: "ready"; user: User };
type Notice = { variant: "success" | "error"; text: string } | null;

/** Ban lengths offered, in seconds (0: no end date). */
const EXPIRIES = [
  { seconds: 0, key: "admin.user.expiryNever" },
  { seconds: 3600, key: "admin.user.expiryHour" },
  { seconds: 86_400, key: "admin.user.expiryDay" },
  { seconds: 7 * 86_400, key: "admin.user.expiryWeek" },
  { seconds: 30 * 86_400, key: "admin.user.expiryMonth" },
] as const;

export function AdminUserPage() {
  const { t, i18n } = useTranslation();
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const deviceLabel = useDeviceLabel();
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [sessions, setSessions] = useState<Session[] | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [role, setRole] = useState("user");
  const [banReason, setBanReason] = useState("");
  const [banExpiry, setBanExpiry] = useState(0);
  const [newPassword, setNewPassword] = useState("");
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const user = load.state === "ready" ? load.user : null;
  useDocumentTitle(user?.name ?? t("admin.title"));

  const refresh = useCallback(async () => {
    const [read, listed] = await Promise.all([
      authClient.admin.getUser({ id }),
      authClient.admin.listUserSessions({ userId: id }),
    ]);
    if (read.error) {
      setLoad({ state: "failed", error: read.error });
      return;
    }
    setLoad({ state: "ready", user: read.data });
    setRole(isAdmin(read.data) ? "admin" : "user");
    setSessions(listed.data?.sessions ?? []);
  }, [id]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  /** Runs one action, then says how it went and reads the user again. */
  async function act(name: string, call: () => Promise<{ error: AuthError | null }>, success: string) {
    setBusy(name);
    setNotice(null);
    const { error } = await call();
    if (!error) await refresh();
    setBusy(null);
    setNotice(error ? { variant: "error", text: errorMessage(t, error) } : { variant: "success", text: success });
    window.scrollTo({ top: 0 });
  }

  if (load.state === "loading") {
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
  const target = load.user;

  function ban(event: FormEvent) {
    event.preventDefault();
    void act(
      "ban",
      () =>
        authClient.admin.banUser({
          userId: target.id,
          ...(banReason.trim() ? { banReason: banReason.trim() } : {}),
          ...(banExpiry ? { banExpiresIn: banExpiry } : {}),
        }),
      t("admin.user.didBan", { name: target.name }),
    );
  }

  function setPassword(event: FormEvent) {
    event.preventDefault();
    void act(
      "password",
      () => authClient.admin.setUserPassword({ userId: target.id, newPassword }),
      t("admin.user.passwordSet"),
    ).then(() => setNewPassword(""));
  }

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
    const { error } = await authClient.admin.removeUser({ userId: target.id });
    setBusy(null);
    if (error) {
      setNotice({ variant: "error", text: errorMessage(t, error) });
      return;
    }
    void navigate("/admin", { state: { deleted: target.email } });
  }

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
            <Badge variant={isAdmin(target) ? "accent" : "neutral"}>
              {isAdmin(target) ? t("admin.roleAdmin") : t("admin.roleUser")}
            </Badge>
            {target.banned ? <Badge variant="warning">{t("admin.banned")}</Badge> : <Badge variant="success">{t("admin.active")}</Badge>}
            <Badge>{target.emailVerified ? t("admin.user.emailVerified") : t("admin.user.emailUnverified")}</Badge>
          </div>
          <p className={styles.muted}>{t("admin.user.joined", { date: formatDate(target.createdAt, i18n.language) })}</p>
        </div>
      </div>

      {notice ? (
        <Alert variant={notice.variant} focusable>
          {notice.text}
        </Alert>
      ) : null}

      <Card title={t("admin.user.roleHeading")} description={t("admin.user.roleDescription")}>
        <div className={styles.row}>
          <select className={styles.select} aria-label={t("admin.user.roleHeading")} value={role} onChange={(e) => setRole(e.target.value)}>
            <option value="user">{t("admin.roleUser")}</option>
            <option value="admin">{t("admin.roleAdmin")}</option>
          </select>
          <Button
            variant="secondary"
            loading={busy === "role"}
            loadingText={t("admin.user.savingRole")}
            disabled={busy !== null}
            onClick={() => void act("role", () => authClient.admin.setRole({ userId: target.id, role }), t("admin.user.roleSaved"))}
          >
            {t("admin.user.saveRole")}
          </Button>
        </div>
      </Card>

      <Card title={t("admin.user.banHeading")} description={t("admin.user.banDescription")}>
        {target.banned ? (
          <div className={styles.stack}>
            <Alert variant="warning" title={t("admin.user.isBanned")}>
              {target.banReason ? <p>{t("admin.user.bannedReason", { reason: target.banReason })}</p> : null}
              <p>
                {target.banExpires
                  ? t("admin.user.bannedUntil", { date: formatDateTime(target.banExpires, i18n.language) })
                  : t("admin.user.bannedForever")}
              </p>
            </Alert>
            <div>
              <Button
                variant="secondary"
                loading={busy === "unban"}
                loadingText={t("admin.user.unbanning")}
                disabled={busy !== null}
                onClick={() =>
                  void act("unban", () => authClient.admin.unbanUser({ userId: target.id }), t("admin.user.didUnban", { name: target.name }))
                }
              >
                {t("admin.user.unban")}
              </Button>
            </div>
          </div>
        ) : (
          <Form onSubmit={ban} className={styles.stack}>
            <TextField label={t("admin.user.banReason")} value={banReason} onChange={(e) => setBanReason(e.target.value)} maxLength={500} />
            <label className={styles.control}>
              <span className={styles.label}>{t("admin.user.banExpiry")}</span>
              <select className={styles.select} value={banExpiry} onChange={(e) => setBanExpiry(Number(e.target.value))}>
                {EXPIRIES.map((option) => (
                  <option key={option.seconds} value={option.seconds}>
                    {t(option.key)}
                  </option>
                ))}
              </select>
            </label>
            <div>
              <Button type="submit" variant="danger" loading={busy === "ban"} loadingText={t("admin.user.banning")} disabled={busy !== null}>
                {t("admin.user.ban")}
              </Button>
            </div>
          </Form>
        )}
      </Card>

      <Card title={t("admin.user.sessionsHeading")} description={t("admin.user.sessionsDescription")} flush>
        {sessions && sessions.length > 0 ? (
          <>
            <ul className={styles.list} aria-label={t("admin.user.sessionsLabel")}>
              {sessions.map((session) => (
                <li key={session.id} className={styles.session}>
                  <div className={styles.sessionText}>
                    <span className={styles.device}>{deviceLabel(session.userAgent)}</span>
                    <span className={styles.muted}>
                      {t("admin.user.sessionStarted", { date: formatDateTime(session.createdAt, i18n.language) })}
                      {session.ipAddress ? ` · ${session.ipAddress}` : ""}
                    </span>
                    {session.impersonatedBy ? <Badge variant="warning">{t("admin.user.impersonation")}</Badge> : null}
                  </div>
                  <Button
                    variant="secondary"
                    size="sm"
                    loading={busy === session.id}
                    loadingText={t("admin.user.revoking")}
                    disabled={busy !== null}
                    onClick={() =>
                      void act(session.id, () => authClient.admin.revokeUserSession({ sessionToken: session.token }), t("admin.user.revoked"))
                    }
                  >
                    {t("admin.user.revoke")}
                  </Button>
                </li>
              ))}
            </ul>
            <div className={styles.footer}>
              <Button
                variant="secondary"
                size="sm"
                loading={busy === "revokeAll"}
                loadingText={t("admin.user.revoking")}
                disabled={busy !== null}
                onClick={() => void act("revokeAll", () => authClient.admin.revokeUserSessions({ userId: target.id }), t("admin.user.revoked"))}
              >
                {t("admin.user.revokeAll")}
              </Button>
            </div>
          </>
        ) : (
          <p className={styles.empty}>{t("admin.user.noSessions")}</p>
        )}
      </Card>

      <Card title={t("admin.user.passwordHeading")} description={t("admin.user.passwordDescription")}>
        <Form onSubmit={setPassword} className={styles.stack}>
          <TextField
            label={t("admin.user.newPassword")}
            type="password"
            autoComplete="new-password"
            value={newPassword}
            onChange={(e) => setNewPassword(e.target.value)}
            required
          />
          <div>
            <Button type="submit" variant="secondary" loading={busy === "password"} loadingText={t("admin.user.settingPassword")} disabled={busy !== null}>
              {t("admin.user.setPassword")}
            </Button>
          </div>
        </Form>
      </Card>

      <Card
        title={t("admin.user.impersonateHeading")}
        description={t("admin.user.impersonateDescription")}
        actions={
          <Button
            variant="secondary"
            loading={busy === "impersonate"}
            loadingText={t("admin.user.impersonating")}
            disabled={busy !== null || Boolean(target.banned)}
            onClick={() => void impersonate()}
          >
            {t("admin.user.impersonate")}
          </Button>
        }
      />

      <Card title={t("admin.user.deleteHeading")} description={t("admin.user.deleteDescription")}>
        {confirmingDelete ? (
          <div className={styles.stack}>
            <Alert variant="error">{t("admin.user.confirmDelete", { email: target.email })}</Alert>
            <div className={styles.row}>
              <Button variant="destructive" loading={busy === "delete"} loadingText={t("admin.user.deleting")} onClick={() => void remove()}>
                {t("admin.user.confirmDeleteButton")}
              </Button>
              <Button variant="ghost" onClick={() => setConfirmingDelete(false)} disabled={busy === "delete"}>
                {t("admin.create.cancel")}
              </Button>
            </div>
          </div>
        ) : (
          <Button variant="danger" disabled={busy !== null} onClick={() => setConfirmingDelete(true)}>
            {t("admin.user.delete")}
          </Button>
        )}
      </Card>
    </div>
  );
}

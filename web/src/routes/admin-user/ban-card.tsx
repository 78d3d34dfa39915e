import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { formatDateTime } from "../../lib/format-time";
import type { UserCardProps } from "./user-actions";
import styles from "./admin-user-page.module.css";

/** Ban lengths offered, in seconds (0: no end date). */
const EXPIRIES = [
  { seconds: 0, key: "admin.user.expiryNever" },
  { seconds: 3600, key: "admin.user.expiryHour" },
  { seconds: 86_400, key: "admin.user.expiryDay" },
  { seconds: 7 * 86_400, key: "admin.user.expiryWeek" },
  { seconds: 30 * 86_400, key: "admin.user.expiryMonth" },
] as const;

/** Bans the user (with a reason and an end, both optional), or shows the ban in force and lifts it. */
export function BanCard({ user, busy, act }: UserCardProps) {
  const { t, i18n } = useTranslation();
  const [banReason, setBanReason] = useState("");
  const [banExpiry, setBanExpiry] = useState(0);

  function ban(event: FormEvent) {
    event.preventDefault();
    void act(
      "ban",
      () =>
        authClient.admin.banUser({
          userId: user.id,
          ...(banReason.trim() ? { banReason: banReason.trim() } : {}),
          ...(banExpiry ? { banExpiresIn: banExpiry } : {}),
        }),
      t("admin.user.didBan", { name: user.name }),
    );
  }

  return (
    <Card title={t("admin.user.banHeading")} description={t("admin.user.banDescription")}>
      {user.banned ? (
        <div className={styles.stack}>
          <Alert variant="warning" title={t("admin.user.isBanned")}>
            {user.banReason ? <p>{t("admin.user.bannedReason", { reason: user.banReason })}</p> : null}
            <p>
              {user.banExpires
                ? t("admin.user.bannedUntil", { date: formatDateTime(user.banExpires, i18n.language) })
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
                void act("unban", () => authClient.admin.unbanUser({ userId: user.id }), t("admin.user.didUnban", { name: user.name }))
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
  );
}

import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { Select } from "../../components/ui/select";
import { TextField } from "../../components/ui/text-field";
import { mutations } from "../../lib/data";
import { formatDateTime } from "../../lib/format-time";
import { useForm } from "../../lib/use-form";
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
  // The end is the number of seconds, as the select's value.
  const form = useForm({ banReason: "", banExpiry: "0" });

  const ban = form.onSubmit(async ({ banReason, banExpiry }) => {
    const seconds = Number(banExpiry);
    await act(
      "ban",
      () =>
        mutations.banUser({
          userId: user.id,
          ...(banReason.trim() ? { banReason: banReason.trim() } : {}),
          ...(seconds ? { banExpiresIn: seconds } : {}),
        }),
      t("admin.user.didBan", { name: user.name }),
    );
  });

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
                void act("unban", () => mutations.unbanUser({ userId: user.id }), t("admin.user.didUnban", { name: user.name }))
              }
            >
              {t("admin.user.unban")}
            </Button>
          </div>
        </div>
      ) : (
        <Form ref={form.ref} onSubmit={ban} className={styles.stack}>
          <TextField label={t("admin.user.banReason")} maxLength={500} {...form.field("banReason")} />
          <Select
            className={styles.select}
            label={t("admin.user.banExpiry")}
            options={EXPIRIES.map((option) => ({ value: String(option.seconds), label: t(option.key) }))}
            value={form.values.banExpiry}
            onChange={(value) => form.set("banExpiry", value)}
          />
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

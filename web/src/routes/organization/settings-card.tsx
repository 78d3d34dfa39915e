import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import type { FullOrganization } from "@gatehouse/client";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { authClient } from "../../lib/auth-client";
import { errorMessage } from "../../lib/auth-errors";
import { notifyOrganizationsChanged } from "../../lib/organization-events";
import styles from "./organization-page.module.css";

/** Name, slug and logo, and deleting the organization: owners only. */
export function SettingsCard({ organization }: { organization: FullOrganization }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [name, setName] = useState(organization.name);
  const [slug, setSlug] = useState(organization.slug);
  const [logo, setLogo] = useState(organization.logo ?? "");
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name.trim() || !slug.trim()) return setError(t("organization.create.nameRequired"));
    setSaving(true);
    setSaved(false);
    setError(null);
    const result = await authClient.organization.update({
      organizationId: organization.id,
      data: { name: name.trim(), slug: slug.trim(), logo: logo.trim() || undefined },
    });
    setSaving(false);
    if (result.error) return setError(errorMessage(t, result.error));
    setSaved(true);
    notifyOrganizationsChanged();
  }

  async function onDelete() {
    setDeleting(true);
    const result = await authClient.organization.delete({ organizationId: organization.id });
    setDeleting(false);
    if (result.error) return setError(errorMessage(t, result.error));
    notifyOrganizationsChanged();
    void navigate("/");
  }

  return (
    <Form onSubmit={(event) => void onSubmit(event)}>
      <Card
        title={t("organization.settings.heading")}
        description={t("organization.settings.description")}
        footer={
          <>
            <p role="status" className={styles.dangerText}>
              {saved ? t("organization.settings.saved") : null}
            </p>
            <Button type="submit" loading={saving} loadingText={t("organization.settings.saving")}>
              {t("organization.settings.save")}
            </Button>
          </>
        }
      >
        <div className={styles.fields}>
          {error ? (
            <Alert variant="error" focusable>
              {error}
            </Alert>
          ) : null}
          <TextField label={t("organization.create.name")} name="name" value={name} onChange={(e) => setName(e.target.value)} />
          <TextField
            label={t("organization.create.slug")}
            name="slug"
            spellCheck={false}
            value={slug}
            onChange={(e) => setSlug(e.target.value.toLowerCase())}
          />
          <TextField
            label={t("organization.settings.logo")}
            labelSuffix={`(${t("common.optional")})`}
            name="logo"
            type="url"
            value={logo}
            onChange={(e) => setLogo(e.target.value)}
          />
          <div className={styles.danger}>
            <p className={styles.dangerText}>{t("organization.settings.deleteDescription")}</p>
            {confirming ? (
              <div className={styles.actions}>
                <Button variant="ghost" size="sm" onClick={() => setConfirming(false)}>
                  {t("common.cancel")}
                </Button>
                <Button
                  variant="destructive"
                  size="sm"
                  loading={deleting}
                  loadingText={t("organization.settings.deleting")}
                  onClick={() => void onDelete()}
                >
                  {t("organization.settings.deleteConfirm")}
                </Button>
              </div>
            ) : (
              <Button variant="danger" size="sm" onClick={() => setConfirming(true)}>
                {t("organization.settings.delete")}
              </Button>
            )}
          </div>
        </div>
      </Card>
    </Form>
  );
}

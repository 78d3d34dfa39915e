import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import type { FullOrganization } from "@gatehouse/client";
import { ActionMessage, useActionReporter } from "../../components/action-message";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { Form } from "../../components/ui/form";
import { TextField } from "../../components/ui/text-field";
import { errorMessage } from "../../lib/auth-errors";
import { mutations } from "../../lib/data";
import { organizationNotice } from "../../lib/organization-notice";
import styles from "./organization-page.module.css";

/** Name, slug and logo, and deleting the organization (after a confirmation): owners only. */
export function SettingsCard({ organization }: { organization: FullOrganization }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const report = useActionReporter("settings");
  const [name, setName] = useState(organization.name);
  const [slug, setSlug] = useState(organization.slug);
  const [logo, setLogo] = useState(organization.logo ?? "");
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    report.start();
    if (!name.trim() || !slug.trim()) return report.fail(t("organization.create.nameRequired"));
    setSaving(true);
    const result = await mutations.updateOrganization({
      organizationId: organization.id,
      data: { name: name.trim(), slug: slug.trim(), logo: logo.trim() || undefined },
    });
    setSaving(false);
    if (result.error) return report.fail(errorMessage(t, result.error));
    report.succeed(t("organization.settings.saved"));
  }

  async function onDelete() {
    setDeleting(true);
    report.start();
    const result = await mutations.deleteOrganization({ organizationId: organization.id });
    setDeleting(false);
    setConfirming(false);
    if (result.error) return report.fail(errorMessage(t, result.error));
    void navigate("/", { state: organizationNotice("deleted", organization.name) });
  }

  return (
    <Form onSubmit={(event) => void onSubmit(event)}>
      <Card
        title={t("organization.settings.heading")}
        description={t("organization.settings.description")}
        footer={
          <Button type="submit" loading={saving} loadingText={t("organization.settings.saving")}>
            {t("organization.settings.save")}
          </Button>
        }
      >
        <div className={styles.fields}>
          <ActionMessage scope="settings" />
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
            <Button variant="danger" size="sm" onClick={() => setConfirming(true)}>
              {t("organization.settings.delete")}
            </Button>
          </div>
        </div>
      </Card>
      <ConfirmDialog
        open={confirming}
        title={t("organization.settings.deleteTitle", { name: organization.name })}
        confirmLabel={t("organization.settings.deleteConfirm")}
        cancelLabel={t("common.cancel")}
        loading={deleting}
        loadingText={t("organization.settings.deleting")}
        onConfirm={() => void onDelete()}
        onClose={() => setConfirming(false)}
      >
        <p>{t("organization.settings.deleteText")}</p>
      </ConfirmDialog>
    </Form>
  );
}

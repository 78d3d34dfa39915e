import { useState } from "react";
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
import { useForm } from "../../lib/use-form";
import { organizationNotice } from "../../lib/organization-notice";
import styles from "./organization-page.module.css";

/** Name, slug and logo, and deleting the organization (after a confirmation): owners only. */
export function SettingsCard({ organization }: { organization: FullOrganization }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const report = useActionReporter("settings");
  const form = useForm(
    { name: organization.name, slug: organization.slug, logo: organization.logo ?? "" },
    {
      validate: ({ name, slug }) => {
        const found: { name?: string; slug?: string } = {};
        if (!name.trim()) found.name = t("organization.create.nameRequired");
        if (!slug.trim()) found.slug = t("organization.create.slugInvalid");
        return found;
      },
    },
  );
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  // The page's one message says how it went.
  const submit = form.onSubmit(async ({ name, slug, logo }) => {
    const result = await mutations.updateOrganization({
      organizationId: organization.id,
      data: { name: name.trim(), slug: slug.trim(), logo: logo.trim() || undefined },
    });
    if (result.error) report.fail(errorMessage(t, result.error));
    else report.succeed(t("organization.settings.saved"));
  });

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
    <Form
      ref={form.ref}
      onSubmit={(event) => {
        report.start();
        submit(event);
      }}
    >
      <Card
        title={t("organization.settings.heading")}
        description={t("organization.settings.description")}
        footer={
          <Button type="submit" loading={form.submitting} loadingText={t("organization.settings.saving")}>
            {t("organization.settings.save")}
          </Button>
        }
      >
        <div className={styles.fields}>
          <ActionMessage scope="settings" />
          <TextField label={t("organization.create.name")} name="name" {...form.field("name")} />
          <TextField
            label={t("organization.create.slug")}
            name="slug"
            spellCheck={false}
            {...form.field("slug")}
            onChange={(e) => form.set("slug", e.target.value.toLowerCase())}
          />
          <TextField
            label={t("organization.settings.logo")}
            labelSuffix={`(${t("common.optional")})`}
            name="logo"
            type="url"
            {...form.field("logo")}
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

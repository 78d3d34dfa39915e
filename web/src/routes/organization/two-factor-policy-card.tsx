import { useState } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { FullOrganization } from "@gatehouse/client";
import { ActionMessage, useActionReporter } from "../../components/action-message";
import { useCurrentSession } from "../../components/current-session";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { errorMessage } from "../../lib/auth-errors";
import { mutations } from "../../lib/data";
import styles from "./organization-page.module.css";

/**
 * Whether the organization requires two-step sign-in of its members (organization.requireTwoFactor; README.md,
 * "Organization policy and administrators"): owners and admins turn it on and off. The service refuses turning it on
 * to someone without two-step sign-in of their own, so the card says so first and leads to the Security page.
 */
export function TwoFactorPolicyCard({ organization }: { organization: FullOrganization }) {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const report = useActionReporter("policy");
  const [saving, setSaving] = useState(false);
  const required = organization.requireTwoFactor;
  const mayTurnOn = user.twoFactorEnabled === true;

  async function change(requireTwoFactor: boolean) {
    setSaving(true);
    report.start();
    const result = await mutations.updateOrganization({ organizationId: organization.id, data: { requireTwoFactor } });
    setSaving(false);
    if (result.error) return report.fail(errorMessage(t, result.error));
    report.succeed(t(requireTwoFactor ? "organization.policy.turnedOn" : "organization.policy.turnedOff"));
  }

  return (
    <Card
      title={t("organization.policy.heading")}
      description={t("organization.policy.description")}
      actions={<Badge variant={required ? "success" : "neutral"}>{required ? t("organization.policy.required") : t("organization.policy.notRequired")}</Badge>}
      footer={
        required ? (
          <Button variant="secondary" loading={saving} loadingText={t("organization.policy.turningOff")} onClick={() => void change(false)}>
            {t("organization.policy.turnOff")}
          </Button>
        ) : (
          <Button loading={saving} loadingText={t("organization.policy.turningOn")} disabled={!mayTurnOn} onClick={() => void change(true)}>
            {t("organization.policy.turnOn")}
          </Button>
        )
      }
    >
      <div className={styles.fields}>
        <ActionMessage scope="policy" />
        <p className={styles.policyText}>{required ? t("organization.policy.onText") : t("organization.policy.offText")}</p>
        {!required && !mayTurnOn ? (
          <p className={styles.policyText}>
            {t("organization.policy.needOwn")} <Link to="/account/security">{t("organization.policy.securityLink")}</Link>
          </p>
        ) : null}
      </div>
    </Card>
  );
}

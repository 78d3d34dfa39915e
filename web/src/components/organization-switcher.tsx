import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import type { Organization } from "@gatehouse/client";
import { authClient } from "../lib/auth-client";
import { notifyOrganizationsChanged, useOrganizationsVersion } from "../lib/organization-events";
import { useCurrentSession } from "./current-session";
import styles from "./organization-switcher.module.css";

const CREATE = "__create__";

/** The header's organization picker: the caller's organizations, "none", and a way to create one. */
export function OrganizationSwitcher() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { session } = useCurrentSession();
  const version = useOrganizationsVersion();
  const [organizations, setOrganizations] = useState<Organization[]>([]);
  const [active, setActive] = useState(session.activeOrganizationId ?? "");
  const [busy, setBusy] = useState(false);

  useEffect(() => setActive(session.activeOrganizationId ?? ""), [session.activeOrganizationId]);
  useEffect(() => {
    let live = true;
    void authClient.organization.list().then(({ data }) => {
      if (live && data) setOrganizations(data);
    });
    return () => {
      live = false;
    };
  }, [version]);

  async function choose(value: string) {
    if (value === CREATE) {
      void navigate("/organizations/new");
      return;
    }
    setBusy(true);
    setActive(value);
    const { error } = await authClient.organization.setActive({ organizationId: value || null });
    setBusy(false);
    // A refusal (most often: the organization was deleted or the user removed meanwhile) puts the picker back
    // on the session's organization; the list is read again either way.
    if (error) setActive(session.activeOrganizationId ?? "");
    notifyOrganizationsChanged();
    if (!error && value) void navigate("/organization");
  }

  return (
    <select
      className={styles.select}
      aria-label={t("organization.switcher.label")}
      value={active}
      disabled={busy}
      onChange={(event) => void choose(event.target.value)}
    >
      <option value="">{t("organization.switcher.none")}</option>
      {organizations.map((organization) => (
        <option key={organization.id} value={organization.id}>
          {organization.name}
        </option>
      ))}
      <option value={CREATE}>{`+ ${t("organization.switcher.create")}`}</option>
    </select>
  );
}

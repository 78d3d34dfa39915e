import { useCallback, useEffect, useState } from "react";
import type { AuthError, FullOrganization } from "@gatehouse/client";
import { authClient } from "../../lib/auth-client";
import { useOrganizationsVersion } from "../../lib/organization-events";

export interface FullOrganizationState {
  organization: FullOrganization | null;
  error: AuthError | null;
  loading: boolean;
  reload(): Promise<void>;
}

/** The active organization with its members, invitations and teams, read again whenever it changes. */
export function useFullOrganization(): FullOrganizationState {
  const version = useOrganizationsVersion();
  const [organization, setOrganization] = useState<FullOrganization | null>(null);
  const [error, setError] = useState<AuthError | null>(null);
  const [loading, setLoading] = useState(true);

  const reload = useCallback(async () => {
    const result = await authClient.organization.getFullOrganization();
    setOrganization(result.data ?? null);
    setError(result.error);
    setLoading(false);
  }, []);

  useEffect(() => {
    void reload();
  }, [reload, version]);

  return { organization, error, loading, reload };
}

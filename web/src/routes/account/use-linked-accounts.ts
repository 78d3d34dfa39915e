import type { AuthError, LinkedAccount } from "@gatehouse/client";
import { useCallback, useEffect, useState } from "react";
import { authClient } from "../../lib/auth-client";

export type LinkedAccounts =
  | { state: "loading" }
  | { state: "failed"; error: AuthError }
  | { state: "ready"; accounts: LinkedAccount[] };

/**
 * The signed-in user's accounts (GET /list-accounts): "credential" for the password, one per connected
 * provider. The account page reads them once and hands them to the password and connected-accounts cards,
 * which reload them after a change.
 */
export function useLinkedAccounts(): { linked: LinkedAccounts; reload: () => Promise<void> } {
  const [linked, setLinked] = useState<LinkedAccounts>({ state: "loading" });
  const reload = useCallback(async () => {
    const { data, error } = await authClient.listAccounts();
    setLinked(error ? { state: "failed", error } : { state: "ready", accounts: data });
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { linked, reload };
}

/** Whether the user has a password; unknown (null) until the accounts are read. */
export function hasPassword(linked: LinkedAccounts): boolean | null {
  return linked.state === "ready" ? linked.accounts.some((a) => a.providerId === "credential") : null;
}

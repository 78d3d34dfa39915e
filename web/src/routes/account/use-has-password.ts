import { queries, useQuery } from "../../lib/data";

/** Whether the signed-in user has a password (a "credential" account); unknown (null) until the accounts are read. */
export function useHasPassword(): boolean | null {
  const accounts = useQuery(queries.accounts());
  return accounts.state === "ready" ? accounts.data.some((account) => account.providerId === "credential") : null;
}

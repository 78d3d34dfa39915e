import { queries, useQuery } from "./data";

/*
 * Whether the administration console is open to the signed-in user is the service's answer, never a role name the
 * app guesses: administrators are whoever holds one of `admin.adminRoles` or is one of `admin.adminUserIds`
 * (README.md, "Administration"). The app asks POST /admin/has-permission for the console's first action, listing
 * users, the question the service answers for the caller's own roles (queries.administrator in lib/data.ts: once
 * per session and role string, so a changed role is asked again).
 */

export interface Administrator {
  /** true or false once the service answered; undefined while it is asked; null when it could not be asked. */
  administrator: boolean | null | undefined;
  /** Asks again after a failure. */
  retry(): void;
}

/** Whether the signed-in user may open the administration console, as the service decides. */
export function useAdministrator(): Administrator {
  const answer = useQuery(queries.administrator());
  return {
    administrator: answer.state === "ready" ? answer.data : answer.state === "failed" ? null : undefined,
    retry: () => void answer.reload(),
  };
}

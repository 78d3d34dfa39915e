import type { User } from "@gatehouse/client";
import { useCallback, useEffect, useState } from "react";
import { authClient } from "./auth-client";

/**
 * Whether the administration console is open to the signed-in user is the service's answer, never a role name the
 * app guesses: administrators are whoever holds one of `admin.adminRoles` or is one of `admin.adminUserIds`
 * (README.md, "Administration"). The app asks POST /admin/has-permission for the console's first action, listing
 * users, the question the service answers for the caller's own roles.
 */
const CONSOLE_PERMISSION = { user: ["list"] };

/** Answers per user and role string, so a changed role (a new session read) is asked again. */
const answers = new Map<string, boolean>();
const requests = new Map<string, Promise<boolean | null>>();

function ask(key: string): Promise<boolean | null> {
  let request = requests.get(key);
  if (!request) {
    request = authClient.admin.hasPermission({ permissions: CONSOLE_PERMISSION }).then(({ data }) => {
      // A failed read is forgotten, so the next asks again.
      if (!data) {
        requests.delete(key);
        return null;
      }
      answers.set(key, data.success);
      return data.success;
    });
    requests.set(key, request);
  }
  return request;
}

export interface Administrator {
  /** true or false once the service answered; undefined while it is asked; null when it could not be asked. */
  administrator: boolean | null | undefined;
  /** Asks again after a failure. */
  retry(): void;
}

/** Whether the user (the signed-in one) may open the administration console, as the service decides. */
export function useAdministrator(user: Pick<User, "id" | "role">): Administrator {
  const key = `${user.id}\n${user.role ?? ""}`;
  const [state, setState] = useState<{ key: string; administrator: boolean | null } | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let active = true;
    void ask(key).then((administrator) => {
      if (active) setState({ key, administrator });
    });
    return () => {
      active = false;
    };
  }, [key, attempt]);
  const retry = useCallback(() => {
    setState(null);
    setAttempt((n) => n + 1);
  }, []);
  const administrator = state?.key === key ? state.administrator : answers.get(key);
  return { administrator, retry };
}

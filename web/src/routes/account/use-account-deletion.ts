import { useEffect, useState } from "react";
import { authClient } from "../../lib/auth-client";

export type DeletionAvailability = "checking" | "available" | "unavailable";

/**
 * Whether the service lets users delete their account (`user.deleteUser.enabled`). Nothing reports the
 * setting, so the app asks POST /delete-user with a token that cannot exist (it fails the token format): a
 * service that allows deletion refuses it as INVALID_TOKEN without touching anything, one that does not
 * answers 404 NOT_FOUND. Any other answer (a stale session, the network) leaves the section shown; the real
 * attempt then says what is wrong.
 */
export function useAccountDeletion(): DeletionAvailability {
  const [availability, setAvailability] = useState<DeletionAvailability>("checking");
  useEffect(() => {
    let active = true;
    void authClient.deleteUser({ token: "availability-check" }).then(({ data, error }) => {
      if (!active) return;
      setAvailability(!data && error?.status === 404 ? "unavailable" : "available");
    });
    return () => {
      active = false;
    };
  }, []);
  return availability;
}

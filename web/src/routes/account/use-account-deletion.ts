import { useEffect, useState } from "react";
import { authClient } from "../../lib/auth-client";

export type DeletionAvailability = "checking" | "available" | "unavailable";

/**
 * Whether the service lets users delete their account (`user.deleteUser.enabled`), as GET /features reports
 * it. If that cannot be read (the network), the section stays shown and the real attempt says what is wrong.
 */
export function useAccountDeletion(): DeletionAvailability {
  const [availability, setAvailability] = useState<DeletionAvailability>("checking");
  useEffect(() => {
    let active = true;
    void authClient.features().then(({ data }) => {
      if (!active) return;
      setAvailability(data && !data.deleteUser.enabled ? "unavailable" : "available");
    });
    return () => {
      active = false;
    };
  }, []);
  return availability;
}

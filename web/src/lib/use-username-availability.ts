import { useEffect, useState } from "react";
import { authClient } from "./auth-client";
import { usernameProblem, type UsernameBounds } from "./username-rules";

/**
 * "idle": nothing to check (empty, against the rules, the user's own, or the service could not say);
 * "checking" while typing pauses and the service answers; then "available" or "taken".
 */
export type UsernameAvailability = "idle" | "checking" | "available" | "taken";

export interface UsernameAvailabilityOptions {
  bounds: UsernameBounds;
  /** The signed-in user's own username (stored in lower case): typing it again is not "taken". */
  own?: string | null;
}

/** Asks the service whether a username is free once the typing pauses, like the organization slug check. */
export function useUsernameAvailability(value: string, { bounds, own }: UsernameAvailabilityOptions): UsernameAvailability {
  const [availability, setAvailability] = useState<UsernameAvailability>("idle");
  const skip = value === "" || usernameProblem(value, bounds) !== null || value.toLowerCase() === own;

  useEffect(() => {
    if (skip) {
      setAvailability("idle");
      return;
    }
    setAvailability("checking");
    let live = true;
    const timer = window.setTimeout(() => {
      void authClient.isUsernameAvailable({ username: value }).then(({ data }) => {
        if (!live) return;
        // An error (the rules differ, the network) says nothing either way: submitting will tell.
        setAvailability(data ? (data.available ? "available" : "taken") : "idle");
      });
    }, 350);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [value, skip]);

  return skip ? "idle" : availability;
}

import { queries, useQuery } from "./data";
import { useDebounced } from "./use-debounced";
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
  const skip = (name: string) => name === "" || usernameProblem(name, bounds) !== null || name.toLowerCase() === own;
  const checked = useDebounced(value, 350);
  const check = useQuery(skip(checked) ? null : queries.usernameAvailable(checked));
  if (skip(value)) return "idle";
  if (checked !== value || check.state === "loading") return "checking";
  // An error (the rules differ, the network) says nothing either way: submitting will tell.
  if (check.state === "failed") return "idle";
  return check.data.available ? "available" : "taken";
}

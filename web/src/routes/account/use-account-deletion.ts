import { useFeatures } from "../../lib/use-features";

export type DeletionAvailability = "checking" | "available" | "unavailable";

/**
 * Whether the service lets users delete their account (`user.deleteUser.enabled`), as GET /features reports
 * it. If that cannot be read (the network), the section stays shown and the real attempt says what is wrong.
 */
export function useAccountDeletion(): DeletionAvailability {
  const features = useFeatures();
  if (features === undefined) return "checking";
  return features && !features.deleteUser.enabled ? "unavailable" : "available";
}

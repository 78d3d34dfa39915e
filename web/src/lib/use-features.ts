import type { FeaturesData } from "@gatehouse/client";
import { queries, useQuery } from "./data";

/**
 * What this deployment turned on (GET /features, read once per page load): `undefined` while it is read,
 * `null` when it could not be read. Pages treat `null` as "show the feature and let the real call say what is
 * wrong".
 */
export function useFeatures(): FeaturesData | null | undefined {
  const features = useQuery(queries.features());
  if (features.state === "ready") return features.data;
  return features.state === "failed" ? null : undefined;
}

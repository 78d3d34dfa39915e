import { useEffect, useState } from "react";
import type { FeaturesData } from "@gatehouse/client";
import { authClient } from "./auth-client";

let request: Promise<FeaturesData | null> | null = null;

/** GET /features once per page load; a failed read is forgotten so the next page asks again. */
function loadFeatures(): Promise<FeaturesData | null> {
  request ??= authClient.features().then(({ data }) => {
    if (!data) request = null;
    return data;
  });
  return request;
}

/**
 * What this deployment turned on (GET /features): `undefined` while it is read, `null` when it could not be
 * read. Pages treat `null` as "show the feature and let the real call say what is wrong".
 */
export function useFeatures(): FeaturesData | null | undefined {
  const [features, setFeatures] = useState<FeaturesData | null | undefined>(undefined);
  useEffect(() => {
    let active = true;
    void loadFeatures().then((data) => {
      if (active) setFeatures(data);
    });
    return () => {
      active = false;
    };
  }, []);
  return features;
}

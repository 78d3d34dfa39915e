import { useFeatures } from "./use-features";
import { DEFAULT_USERNAME_BOUNDS, type UsernameBounds } from "./username-rules";

/** The username length bounds this service enforces (GET /features), the defaults until they are known. */
export function useUsernameBounds(): UsernameBounds {
  return useFeatures()?.username ?? DEFAULT_USERNAME_BOUNDS;
}

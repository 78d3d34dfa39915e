import { APIError } from "../http/errors.js";
import type { Runtime } from "../runtime.js";
import { OAUTH_MESSAGES } from "./messages.js";
import type { OAuthProvider } from "./provider.js";

/** The configured provider, or 404 Provider not found (an unknown id and an unconfigured one look the same). */
export function requireProvider(runtime: Runtime, id: string): OAuthProvider {
  const provider = runtime.oauth.providers.get(id);
  if (!provider) throw new APIError("NOT_FOUND", OAUTH_MESSAGES.PROVIDER_NOT_FOUND);
  return provider;
}

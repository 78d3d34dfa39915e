import type { Config } from "../config/index.js";
import type { OAuthProvider } from "./provider.js";
import { createProviders } from "./providers/index.js";
import { createTokenVault, type TokenVault } from "./token-vault.js";

/** Social sign-in's part of the runtime: the configured providers and the token vault, settled once at start. */
export interface OAuthRuntime {
  providers: ReadonlyMap<string, OAuthProvider>;
  vault: TokenVault;
}

export function createOAuthRuntime(config: Config, now: () => Date): OAuthRuntime {
  return {
    providers: createProviders(config.socialProviders, now),
    vault: createTokenVault(config.secret, config.account.encryptOAuthTokens),
  };
}

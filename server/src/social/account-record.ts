import { generateId } from "../crypto/random.js";
import type { Runtime } from "../runtime.js";
import type { Account } from "../storage/index.js";
import type { AccountTokens } from "../storage/accounts.js";
import type { OAuthTokens } from "./provider.js";

/** A provider's tokens as stored on the account row: sealed by the vault when encryption is on, scopes comma-joined. */
export function storedTokens(runtime: Runtime, providerId: string, accountId: string, tokens: OAuthTokens): AccountTokens {
  const { vault } = runtime.oauth;
  const context = (field: "accessToken" | "refreshToken" | "idToken") => ({ providerId, accountId, field });
  return {
    accessToken: vault.seal(tokens.accessToken, context("accessToken")),
    refreshToken: vault.seal(tokens.refreshToken, context("refreshToken")),
    idToken: vault.seal(tokens.idToken, context("idToken")),
    accessTokenExpiresAt: tokens.accessTokenExpiresAt,
    refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
    scope: tokens.scopes.length ? tokens.scopes.join(",") : null,
  };
}

/** The account row for a provider account of `userId` (SPEC.md section 3: accountId is the provider's user id). */
export function newProviderAccount(
  runtime: Runtime,
  providerId: string,
  accountId: string,
  userId: string,
  tokens: OAuthTokens,
): Account {
  const now = runtime.now();
  return {
    id: generateId(),
    providerId,
    accountId,
    userId,
    ...storedTokens(runtime, providerId, accountId, tokens),
    password: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** The plain tokens of a stored account (null where absent, or where a sealed one does not open). */
export function openTokens(runtime: Runtime, account: Account) {
  const { vault } = runtime.oauth;
  const context = (field: "accessToken" | "refreshToken" | "idToken") => ({
    providerId: account.providerId,
    accountId: account.accountId,
    field,
  });
  return {
    accessToken: vault.open(account.accessToken, context("accessToken")),
    refreshToken: vault.open(account.refreshToken, context("refreshToken")),
    idToken: vault.open(account.idToken, context("idToken")),
  };
}

/** `scope` as a list (it is stored comma-separated; older rows may use spaces). */
export const scopesOf = (account: Account): string[] => (account.scope ?? "").split(/[\s,]+/).filter(Boolean);

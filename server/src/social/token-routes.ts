import { decodeJwt } from "jose";
import { z } from "zod";
import { defineEndpoint, type EndpointContext } from "../http/endpoint.js";
import { APIError, fillMessage } from "../http/errors.js";
import { HTTP_MESSAGES } from "../http/messages.js";
import type { Account } from "../storage/index.js";
import { openTokens, scopesOf, storedTokens } from "./account-record.js";
import { OAUTH_FIXED_CODES, OAUTH_MESSAGES } from "./messages.js";
import type { OAuthProvider, OAuthTokens } from "./provider.js";

/** An access token this close to its expiry is refreshed before it is handed out. */
const REFRESH_MARGIN_MS = 5_000;

/**
 * Which account: SPEC.md's `{ providerId, accountId? }` (the provider's account id) or the newer `{ accountId }`
 * (the account row's id). `userId` is honoured for server-side calls only; over HTTP the session decides.
 */
const accountSelection = {
  providerId: z.string().min(1).max(64).optional(),
  accountId: z.string().min(1).max(1024).optional(),
  userId: z.string().min(1).max(256).optional(),
};
const selectionBody = z
  .object(accountSelection)
  .refine((b) => b.providerId !== undefined || b.accountId !== undefined, { message: "providerId or accountId is required" });

type Selection = { providerId?: string | undefined; accountId?: string | undefined; userId?: string | undefined };

async function selectedUserId(ctx: EndpointContext, selection: Selection): Promise<string> {
  if (ctx.server && selection.userId) return selection.userId;
  const session = await ctx.getSession({ disableCookieCache: true });
  if (!session) {
    if (selection.userId) throw new APIError("UNAUTHORIZED", HTTP_MESSAGES.UNAUTHORIZED);
    throw new APIError("BAD_REQUEST", OAUTH_MESSAGES.EITHER_USERID_OR_SESSION_IS_REQUIRED);
  }
  if (selection.userId && selection.userId !== session.user.id) throw new APIError("UNAUTHORIZED", HTTP_MESSAGES.UNAUTHORIZED);
  return session.user.id;
}

/** The selected account of the caller and its configured provider. */
async function selectAccount(ctx: EndpointContext, selection: Selection): Promise<{ account: Account; provider: OAuthProvider }> {
  const userId = await selectedUserId(ctx, selection);
  const accounts = await ctx.runtime.stores.accounts.listUserAccounts(userId);
  const { providerId, accountId } = selection;
  const account = providerId
    ? accounts.find((a) => a.providerId === providerId && (!accountId || a.accountId === accountId || a.id === accountId))
    : accounts.find((a) => a.id === accountId);
  if (!account) throw new APIError("BAD_REQUEST", OAUTH_MESSAGES.ACCOUNT_NOT_FOUND);
  const provider = ctx.runtime.oauth.providers.get(account.providerId);
  if (!provider) {
    throw new APIError("BAD_REQUEST", fillMessage(OAUTH_FIXED_CODES.PROVIDER_NOT_FOUND, { id: account.providerId }), {
      code: "PROVIDER_NOT_FOUND",
    });
  }
  return { account, provider };
}

interface PlainTokens {
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Date | null;
  refreshTokenExpiresAt: Date | null;
  scopes: string[];
}

/** Uses the refresh token; stores what comes back (keeping the old refresh and ID tokens when none are sent). */
async function refreshAccount(ctx: EndpointContext, account: Account, provider: OAuthProvider, failure: string): Promise<PlainTokens> {
  const { runtime } = ctx;
  if (!provider.refreshAccessToken) {
    throw new APIError("BAD_REQUEST", fillMessage(OAUTH_FIXED_CODES.TOKEN_REFRESH_NOT_SUPPORTED, { id: provider.id }), {
      code: "TOKEN_REFRESH_NOT_SUPPORTED",
    });
  }
  const current = openTokens(runtime, account);
  if (!current.refreshToken) throw new APIError("BAD_REQUEST", OAUTH_MESSAGES.REFRESH_TOKEN_NOT_FOUND);
  let fresh: OAuthTokens;
  try {
    fresh = await provider.refreshAccessToken(current.refreshToken);
  } catch (error) {
    const err = error as Error;
    runtime.logger.warn({ provider: provider.id, err: err.name, message: err.message }, "token refresh failed");
    throw new APIError("BAD_REQUEST", failure);
  }
  const merged: OAuthTokens = {
    ...fresh,
    refreshToken: fresh.refreshToken ?? current.refreshToken,
    refreshTokenExpiresAt: fresh.refreshToken ? fresh.refreshTokenExpiresAt : account.refreshTokenExpiresAt,
    idToken: fresh.idToken ?? current.idToken,
    scopes: fresh.scopes.length ? fresh.scopes : scopesOf(account),
  };
  await runtime.stores.accounts.updateAccountTokens(
    account.id,
    storedTokens(runtime, account.providerId, account.accountId, merged),
    runtime.now(),
  );
  return merged;
}

/** The account's tokens, refreshed first when the access token is (nearly) expired and a refresh is possible. */
async function liveTokens(ctx: EndpointContext, account: Account, provider: OAuthProvider): Promise<PlainTokens> {
  const current = openTokens(ctx.runtime, account);
  const expiresAt = account.accessTokenExpiresAt;
  const due = expiresAt !== null && expiresAt.getTime() - ctx.runtime.now().getTime() < REFRESH_MARGIN_MS;
  if (due && current.refreshToken && provider.refreshAccessToken) {
    return refreshAccount(ctx, account, provider, OAUTH_MESSAGES.FAILED_TO_GET_ACCESS_TOKEN);
  }
  return {
    ...current,
    accessTokenExpiresAt: account.accessTokenExpiresAt,
    refreshTokenExpiresAt: account.refreshTokenExpiresAt,
    scopes: scopesOf(account),
  };
}

const dateOrNull = z.iso.datetime().nullable();

export const refreshToken = defineEndpoint({
  method: "POST",
  path: "/refresh-token",
  auth: "none",
  body: selectionBody,
  response: z.object({
    accessToken: z.string().nullable(),
    refreshToken: z.string().nullable(),
    accessTokenExpiresAt: dateOrNull,
    refreshTokenExpiresAt: dateOrNull,
    scope: z.string().nullable(),
    idToken: z.string().nullable(),
    providerId: z.string(),
    accountId: z.string(),
  }),
  summary: "Refresh a linked account's access token at its provider (session, or server-side with userId)",
  tags: ["Accounts"],
  async handler(ctx) {
    const { account, provider } = await selectAccount(ctx, ctx.body);
    const tokens = await refreshAccount(ctx, account, provider, OAUTH_MESSAGES.FAILED_TO_REFRESH_ACCESS_TOKEN);
    return {
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      accessTokenExpiresAt: tokens.accessTokenExpiresAt,
      refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
      scope: tokens.scopes.length ? tokens.scopes.join(",") : null,
      idToken: tokens.idToken,
      providerId: account.providerId,
      accountId: account.accountId,
    };
  },
});

export const getAccessToken = defineEndpoint({
  method: "POST",
  path: "/get-access-token",
  auth: "none",
  body: selectionBody,
  response: z.object({
    accessToken: z.string(),
    accessTokenExpiresAt: dateOrNull,
    scopes: z.array(z.string()),
    idToken: z.string().nullable(),
  }),
  summary: "A linked account's access token, refreshed first when it expires within 5 seconds",
  tags: ["Accounts"],
  async handler(ctx) {
    const { account, provider } = await selectAccount(ctx, ctx.body);
    const tokens = await liveTokens(ctx, account, provider);
    if (!tokens.accessToken) throw new APIError("BAD_REQUEST", OAUTH_MESSAGES.FAILED_TO_GET_ACCESS_TOKEN);
    return {
      accessToken: tokens.accessToken,
      accessTokenExpiresAt: tokens.accessTokenExpiresAt,
      scopes: tokens.scopes,
      idToken: tokens.idToken,
    };
  },
});

export const accountInfo = defineEndpoint({
  method: "GET",
  path: "/account-info",
  auth: "session",
  query: z.object({ providerId: accountSelection.providerId, accountId: accountSelection.accountId }),
  response: z.object({
    user: z.object({
      id: z.string(),
      name: z.string(),
      email: z.string().nullable(),
      image: z.string().nullable(),
      emailVerified: z.boolean(),
    }),
    data: z.record(z.string(), z.unknown()),
    account: z.object({ id: z.string(), providerId: z.string(), accountId: z.string() }),
  }),
  summary: "What the provider says about a linked account now (asked with its access token)",
  tags: ["Accounts"],
  async handler(ctx) {
    if (!ctx.query.providerId && !ctx.query.accountId) {
      throw new APIError("BAD_REQUEST", OAUTH_MESSAGES.ACCOUNT_NOT_FOUND);
    }
    const { account, provider } = await selectAccount(ctx, ctx.query);
    const tokens = await liveTokens(ctx, account, provider);
    if (!tokens.accessToken) throw new APIError("BAD_REQUEST", OAUTH_MESSAGES.ACCESS_TOKEN_NOT_FOUND);
    // The stored ID token was verified when it was stored; its claims stand in for a fresh one (Apple has no userinfo).
    let claims: Record<string, unknown> | null = null;
    try {
      claims = tokens.idToken ? (decodeJwt(tokens.idToken) as Record<string, unknown>) : null;
    } catch {
      claims = null;
    }
    try {
      const profile = await provider.getUserProfile({ ...tokens, claims, raw: {} });
      return { user: profile.user, data: profile.data, account: { id: account.id, providerId: account.providerId, accountId: account.accountId } };
    } catch (error) {
      const err = error as Error;
      ctx.runtime.logger.warn({ provider: provider.id, err: err.name, message: err.message }, "account info failed");
      throw new APIError("BAD_REQUEST", OAUTH_MESSAGES.FAILED_TO_GET_USER_INFO);
    }
  },
});

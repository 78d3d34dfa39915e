import { z } from "zod";
import type { EndpointContext } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import { OAuthNetworkError } from "./errors.js";
import { OAUTH_MESSAGES } from "./messages.js";
import type { OAuthProvider, OAuthTokens, ProviderProfile } from "./provider.js";

/** An ID token a client obtained itself (Google One Tap, Sign in with Apple on iOS), posted to sign-in/link routes. */
export const idTokenBody = z.object({
  token: z.string().min(1).max(16_384),
  nonce: z.string().max(512).optional(),
  accessToken: z.string().max(16_384).optional(),
  refreshToken: z.string().max(16_384).optional(),
  /** When the access token expires: milliseconds since the epoch (seconds are accepted too). */
  expiresAt: z.number().positive().optional(),
  user: z
    .object({
      name: z.object({ firstName: z.string().max(256).optional(), lastName: z.string().max(256).optional() }).optional(),
      email: z.string().max(1024).optional(),
    })
    .optional(),
});

export type IdTokenBody = z.output<typeof idTokenBody>;

/**
 * Verifies a posted ID token against the provider's JWKS (signature, iss, aud, exp, nonce): 404 when the provider
 * takes none, 401 invalid token when it fails, 502 when the provider's keys cannot be fetched.
 */
export async function verifyPostedIdToken(
  ctx: EndpointContext,
  provider: OAuthProvider,
  idToken: IdTokenBody,
): Promise<ProviderProfile> {
  if (!provider.verifyIdToken || provider.settings.disableIdTokenSignIn) {
    throw new APIError("NOT_FOUND", OAUTH_MESSAGES.ID_TOKEN_NOT_SUPPORTED);
  }
  try {
    return await provider.verifyIdToken({ token: idToken.token, nonce: idToken.nonce, user: idToken.user });
  } catch (error) {
    ctx.runtime.logger.warn({ provider: provider.id, err: (error as Error).name, message: (error as Error).message }, "id token refused");
    if (error instanceof OAuthNetworkError) throw new APIError(502, OAUTH_MESSAGES.FAILED_TO_REACH_THE_PROVIDER);
    throw new APIError("UNAUTHORIZED", OAUTH_MESSAGES.INVALID_TOKEN);
  }
}

/** The tokens stored for an account made from a posted ID token. */
export function tokensFromIdToken(idToken: IdTokenBody, profile: ProviderProfile): OAuthTokens {
  const expiresAt = idToken.expiresAt === undefined ? null : idToken.expiresAt < 1e12 ? idToken.expiresAt * 1000 : idToken.expiresAt;
  return {
    accessToken: idToken.accessToken ?? null,
    refreshToken: idToken.refreshToken ?? null,
    idToken: idToken.token,
    accessTokenExpiresAt: expiresAt === null ? null : new Date(expiresAt),
    refreshTokenExpiresAt: null,
    scopes: [],
    claims: profile.data,
    raw: {},
  };
}

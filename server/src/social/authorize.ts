import type { EndpointContext } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import { isUnavailableError } from "../storage/index.js";
import { VERIFICATION_MESSAGES } from "../verification/messages.js";
import { OAuthError } from "./errors.js";
import { OAUTH_MESSAGES } from "./messages.js";
import type { OAuthProvider } from "./provider.js";
import { newCodeVerifier, newNonce, newStateId, saveState, STATE_LIFE_SECONDS, type OAuthStatePayload } from "./state.js";
import { redirectURIOf, scopesFor } from "./urls.js";

export interface AuthorizationOptions {
  callbackURL?: string | undefined;
  errorCallbackURL?: string | undefined;
  newUserCallbackURL?: string | undefined;
  requestSignUp?: boolean | undefined;
  scopes?: readonly string[] | undefined;
  loginHint?: string | undefined;
  /** link-social: the signed-in user the provider account will be attached to. */
  link?: { email: string; userId: string } | undefined;
}

/**
 * Starts a redirect flow: a fresh state (32 characters), PKCE verifier (128) and, for OpenID providers, nonce; the
 * state row and cookie; and the provider's authorization URL, which is returned.
 */
export async function startAuthorization(
  ctx: EndpointContext,
  provider: OAuthProvider,
  options: AuthorizationOptions,
): Promise<string> {
  const { runtime } = ctx;
  const state = newStateId();
  const codeVerifier = newCodeVerifier();
  const nonce = provider.usesNonce ? newNonce() : null;
  let url: URL;
  try {
    url = await provider.createAuthorizationURL({
      state,
      codeVerifier,
      nonce,
      redirectURI: redirectURIOf(ctx, provider),
      scopes: scopesFor(provider, options.scopes),
      loginHint: options.loginHint,
    });
  } catch (error) {
    // Only a discovering provider can fail here (its metadata could not be read).
    runtime.logger.warn({ provider: provider.id, err: (error as Error).message }, "provider metadata unavailable");
    if (error instanceof OAuthError) throw new APIError(502, OAUTH_MESSAGES.FAILED_TO_REACH_THE_PROVIDER);
    throw error;
  }
  const payload: OAuthStatePayload = {
    callbackURL: options.callbackURL || "/",
    codeVerifier,
    ...(options.errorCallbackURL ? { errorURL: options.errorCallbackURL } : {}),
    ...(options.newUserCallbackURL ? { newUserURL: options.newUserCallbackURL } : {}),
    ...(options.link ? { link: options.link } : {}),
    expiresAt: runtime.now().getTime() + STATE_LIFE_SECONDS * 1000,
    requestSignUp: options.requestSignUp ?? false,
    ...(nonce ? { idTokenNonce: nonce } : {}),
    providerId: provider.id,
  };
  try {
    await saveState(ctx, state, payload);
  } catch (error) {
    if (isUnavailableError(error)) throw error;
    runtime.logger.error({ err: (error as Error).message }, "oauth state not stored");
    throw new APIError("INTERNAL_SERVER_ERROR", VERIFICATION_MESSAGES.UNABLE_TO_CREATE_VERIFICATION);
  }
  return url.href;
}

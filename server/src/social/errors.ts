import * as oauth from "oauth4webapi";

/**
 * What can go wrong when talking to a provider, one class per cause, so a log line (and a test) tells "the network
 * failed" from "the provider said no" from "the provider answered something we did not expect". Provider code never
 * swallows these: they reach the route, which turns them into a redirect error code and logs them once.
 */
export class OAuthError extends Error {
  override name = "OAuthError";
  constructor(
    readonly providerId: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The provider could not be reached: DNS, refused connection, TLS, timeout. */
export class OAuthNetworkError extends OAuthError {
  override name = "OAuthNetworkError";
}

/** The provider answered with an OAuth error (`{ error, error_description }`, a WWW-Authenticate challenge, ...). */
export class OAuthRefusedError extends OAuthError {
  override name = "OAuthRefusedError";
  constructor(
    providerId: string,
    readonly error: string,
    readonly description: string | undefined,
    readonly status: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(providerId, `${providerId} refused: ${error}${description ? ` (${description})` : ""}`, options);
  }
}

/** The provider answered with an HTTP status it should not have, and no OAuth error to explain it. */
export class OAuthStatusError extends OAuthError {
  override name = "OAuthStatusError";
  constructor(
    providerId: string,
    readonly status: number,
    options?: { cause?: unknown },
  ) {
    super(providerId, `${providerId} answered HTTP ${status}`, options);
  }
}

/** The provider's answer could not be read: not JSON, or missing what the protocol requires. */
export class OAuthBodyError extends OAuthError {
  override name = "OAuthBodyError";
}

/** An ID token failed a check: signature, issuer, audience, expiry or nonce. */
export class OAuthTokenError extends OAuthError {
  override name = "OAuthTokenError";
}

/** Turns whatever a provider call threw (oauth4webapi's errors, fetch's) into one of the classes above. */
export function toOAuthError(providerId: string, error: unknown): OAuthError {
  if (error instanceof OAuthError) return error;
  if (error instanceof oauth.ResponseBodyError) {
    return new OAuthRefusedError(providerId, error.error, error.error_description, error.status, { cause: error });
  }
  if (error instanceof oauth.AuthorizationResponseError) {
    return new OAuthRefusedError(providerId, error.error, error.error_description, undefined, { cause: error });
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const challenge = error.cause[0];
    const code = challenge?.parameters.error ?? challenge?.scheme ?? "unauthorized";
    return new OAuthRefusedError(providerId, code, challenge?.parameters.error_description, error.status, {
      cause: error,
    });
  }
  if (error instanceof oauth.OperationProcessingError) {
    switch (error.code) {
      case oauth.RESPONSE_IS_NOT_CONFORM: {
        const status = error.cause instanceof Response ? error.cause.status : 0;
        return new OAuthStatusError(providerId, status, { cause: error });
      }
      case oauth.JWT_CLAIM_COMPARISON:
      case oauth.JWT_TIMESTAMP_CHECK:
      case oauth.KEY_SELECTION:
        return new OAuthTokenError(providerId, error.message, { cause: error });
      default:
        return new OAuthBodyError(providerId, error.message, { cause: error });
    }
  }
  if (error instanceof oauth.UnsupportedOperationError) {
    return new OAuthBodyError(providerId, error.message, { cause: error });
  }
  const name = (error as { name?: string } | null)?.name;
  if (error instanceof TypeError || name === "TimeoutError" || name === "AbortError") {
    return new OAuthNetworkError(providerId, `${providerId} unreachable: ${(error as Error).message}`, { cause: error });
  }
  return new OAuthError(providerId, error instanceof Error ? error.message : String(error), { cause: error });
}

import { createRemoteJWKSet, decodeJwt, errors as joseErrors, jwtVerify, type JWTPayload } from "jose";
import * as oauth from "oauth4webapi";
import { isLoopbackHttp } from "../config/social-options.js";
import { OAuthBodyError, OAuthNetworkError, OAuthTokenError, toOAuthError } from "./errors.js";
import { PROVIDER_TIMEOUT_MS } from "./http.js";
import { OAuth2Provider, type ProviderSpec } from "./oauth2-provider.js";
import type { CallbackInput, IdTokenInput, OAuthTokens, ProviderProfile } from "./provider.js";

/** Signature algorithms accepted on ID tokens: asymmetric only (a shared-secret HS256 token proves nothing here). */
const ID_TOKEN_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];

export interface OpenIdSpec extends ProviderSpec {
  /** Ask the userinfo endpoint even when the ID token already names an email (generic providers vary). */
  alwaysUserInfo?: boolean;
}

/**
 * OpenID Connect on top of the code flow: a nonce in the request, and the ID token checked on return by
 * oauth4webapi (issuer, audience, expiry, nonce, then its signature against the provider's JWKS). ID tokens posted
 * to /sign-in/social by clients that signed the user in themselves are checked the same way with jose.
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export abstract class OpenIdProvider extends OAuth2Provider {
  override readonly usesNonce: boolean = true;
  protected readonly idTokenAudiences: readonly string[];
  private readonly alwaysUserInfo: boolean;
  private readonly issuerServers = new Map<string, oauth.AuthorizationServer>();
  private readonly remoteKeys = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  constructor(
    spec: OpenIdSpec,
    options: ConstructorParameters<typeof OAuth2Provider>[1] & { idTokenAudiences?: readonly string[] },
    clock: () => Date,
  ) {
    super(spec, options, clock);
    this.alwaysUserInfo = spec.alwaysUserInfo ?? false;
    this.idTokenAudiences = [this.clientId, ...(options.idTokenAudiences ?? [])];
  }

  /**
   * The issuer an ID token must name, given its (not yet verified) claims; null refuses it. Most providers have
   * one issuer; Microsoft's depends on the user's tenant, Google's has two spellings.
   */
  protected expectedIssuer(_claims: JWTPayload, server: oauth.AuthorizationServer): string | null {
    return server.issuer;
  }

  /** Maps verified claims (merged with userinfo when asked) to our user. */
  protected abstract mapClaims(claims: Record<string, unknown>, callback?: Pick<CallbackInput, "user">): ProviderProfile;

  protected override callbackParameters(input: CallbackInput): URLSearchParams {
    const params = super.callbackParameters(input);
    if (input.iss) params.set("iss", input.iss);
    return params;
  }

  /** The server object whose issuer is the one this token must carry (cached: oauth4webapi keys its JWKS cache on it). */
  private serverForIssuer(server: oauth.AuthorizationServer, issuer: string): oauth.AuthorizationServer {
    if (issuer === server.issuer) return server;
    let variant = this.issuerServers.get(issuer);
    if (!variant) {
      variant = { ...server, issuer };
      if (this.issuerServers.size > 100) this.issuerServers.clear();
      this.issuerServers.set(issuer, variant);
    }
    return variant;
  }

  protected override async processCodeResponse(
    as: oauth.AuthorizationServer,
    client: oauth.Client,
    response: Response,
    input: CallbackInput,
  ): Promise<OAuthTokens> {
    const peeked = await response
      .clone()
      .json()
      .catch(() => null);
    const idToken = (peeked as { id_token?: unknown } | null)?.id_token;
    let issuerServer = as;
    if (typeof idToken === "string") {
      const issuer = this.expectedIssuer(this.decode(idToken), as);
      if (!issuer) throw new OAuthTokenError(this.id, "ID token issuer not accepted");
      issuerServer = this.serverForIssuer(as, issuer);
    }
    const result = await oauth.processAuthorizationCodeResponse(issuerServer, client, response, {
      expectedNonce: input.nonce ?? oauth.expectNoNonce,
      requireIdToken: true,
    });
    try {
      await oauth.validateApplicationLevelSignature(issuerServer, response, this.requestOptions(issuerServer.jwks_uri));
    } catch (error) {
      const mapped = toOAuthError(this.id, error);
      if (mapped instanceof OAuthNetworkError) throw mapped;
      throw new OAuthTokenError(this.id, `ID token signature: ${mapped.message}`, { cause: error });
    }
    return this.toTokens(result, oauth.getValidatedIdTokenClaims(result) as Record<string, unknown>);
  }

  private decode(token: string): JWTPayload {
    try {
      return decodeJwt(token);
    } catch (error) {
      throw new OAuthTokenError(this.id, "ID token is not a JWT", { cause: error });
    }
  }

  async getUserProfile(tokens: OAuthTokens, callback?: Pick<CallbackInput, "user">): Promise<ProviderProfile> {
    let claims: Record<string, unknown> = tokens.claims ?? {};
    const as = await this.server();
    if (as.userinfo_endpoint && tokens.accessToken && (this.alwaysUserInfo || typeof claims.email !== "string")) {
      try {
        const client = this.client();
        const response = await oauth.userInfoRequest(as, client, tokens.accessToken, this.requestOptions(as.userinfo_endpoint));
        const subject = typeof claims.sub === "string" ? claims.sub : oauth.skipSubjectCheck;
        const info = await oauth.processUserInfoResponse(as, client, subject, response);
        // The ID token's claims were signed; userinfo only adds what the token lacks.
        claims = { ...info, ...claims };
      } catch (error) {
        throw toOAuthError(this.id, error);
      }
    }
    if (typeof claims.sub !== "string") throw new OAuthBodyError(this.id, "no subject (sub) for the user");
    return this.mapClaims(claims, callback);
  }

  private keysFor(jwksUri: string): ReturnType<typeof createRemoteJWKSet> {
    let keys = this.remoteKeys.get(jwksUri);
    if (!keys) {
      if (!jwksUri.startsWith("https://") && !isLoopbackHttp(jwksUri)) {
        throw new OAuthBodyError(this.id, "the provider's jwks_uri is not https");
      }
      keys = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: PROVIDER_TIMEOUT_MS, cooldownDuration: 30_000 });
      this.remoteKeys.set(jwksUri, keys);
    }
    return keys;
  }

  /** Verifies an ID token a client obtained itself (signature by the provider's JWKS, iss, aud, exp, nonce). */
  async verifyIdToken(input: IdTokenInput): Promise<ProviderProfile> {
    const as = await this.server().catch((error: unknown) => {
      throw toOAuthError(this.id, error);
    });
    if (!as.jwks_uri) throw new OAuthBodyError(this.id, "the provider publishes no JWKS");
    const issuer = this.expectedIssuer(this.decode(input.token), as);
    if (!issuer) throw new OAuthTokenError(this.id, "ID token issuer not accepted");
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(input.token, this.keysFor(as.jwks_uri), {
        issuer,
        audience: [...this.idTokenAudiences],
        algorithms: ID_TOKEN_ALGORITHMS,
        requiredClaims: ["sub", "exp", "iat"],
        currentDate: this.clock(),
        clockTolerance: 30,
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWKSTimeout || error instanceof TypeError) {
        throw new OAuthNetworkError(this.id, `${this.id} JWKS unreachable: ${(error as Error).message}`, { cause: error });
      }
      throw new OAuthTokenError(this.id, `ID token refused: ${(error as Error).message}`, { cause: error });
    }
    // A nonce binds the token to the sign-in that asked for it: when either side has one, they must agree.
    if ((input.nonce !== undefined || payload.nonce !== undefined) && payload.nonce !== input.nonce) {
      throw new OAuthTokenError(this.id, "ID token nonce mismatch");
    }
    const name = input.user?.name;
    const user = name ? JSON.stringify({ name }) : undefined;
    return this.mapClaims(payload as Record<string, unknown>, { user });
  }
}

/** `email_verified` arrives as a boolean, or (Apple) as the string "true". */
export function claimIsTrue(value: unknown): boolean {
  return value === true || value === "true";
}

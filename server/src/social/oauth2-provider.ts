import * as oauth from "oauth4webapi";
import { isLoopbackHttp, type SocialProviderOptions } from "../config/social-options.js";
import { toOAuthError } from "./errors.js";
import { PROVIDER_TIMEOUT_MS, USER_AGENT } from "./http.js";
import {
  splitScopes,
  type AuthorizationInput,
  type CallbackInput,
  type OAuthProvider,
  type OAuthTokens,
  type ProviderProfile,
  type ProviderSettings,
} from "./provider.js";

export interface ProviderEndpoints {
  authorization: string;
  token: string;
  userInfo?: string | undefined;
  jwks?: string | undefined;
  issuer?: string | undefined;
}

/** How the client proves itself at the token endpoint. */
export type ClientAuthMethod = "client_secret_basic" | "client_secret_post" | "none";

/** What a provider file declares about itself; the base class does the protocol from it. */
export interface ProviderSpec {
  id: string;
  name: string;
  endpoints: ProviderEndpoints;
  defaultScopes: readonly string[];
  /** How scopes are joined in the authorization URL (TikTok wants commas). */
  scopeSeparator?: string;
  /** Send an S256 PKCE challenge (RFC 7636) and the verifier with the code. */
  pkce: boolean;
  clientAuth: ClientAuthMethod;
  /** Whether the provider has a refresh grant. */
  refresh: boolean;
}

/**
 * Re-reads a token endpoint's JSON answer through `adapt`, for providers that bend the protocol (an error sent
 * with 200, a scope sent as an array, ...). Answers that are not JSON objects pass through untouched.
 */
export async function adaptTokenResponse(
  response: Response,
  adapt: (body: Record<string, unknown>, status: number) => { status: number; body: Record<string, unknown> },
): Promise<Response> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    return new Response(text, { status: response.status, headers: response.headers });
  }
  const adapted = adapt(body as Record<string, unknown>, response.status);
  return Response.json(adapted.body, { status: adapted.status, headers: { "cache-control": "no-store" } });
}

/** The OAuth 2.0 authorization code flow (RFC 6749 section 4.1) through oauth4webapi. Providers extend it. */
export abstract class OAuth2Provider implements OAuthProvider {
  readonly id: string;
  readonly name: string;
  readonly usesNonce: boolean = false;
  readonly defaultScopes: readonly string[];
  readonly settings: ProviderSettings;
  readonly refreshAccessToken?: (refreshToken: string) => Promise<OAuthTokens>;
  protected readonly endpoints: ProviderEndpoints;
  protected readonly clientId: string;
  protected readonly clientSecret: string | undefined;
  protected readonly pkce: boolean;
  protected readonly prompt: string | undefined;
  private readonly spec: ProviderSpec;
  private readonly staticServer: oauth.AuthorizationServer;

  constructor(
    spec: ProviderSpec,
    options: Pick<SocialProviderOptions, "clientId" | "clientSecret" | "endpoints" | "prompt"> &
      Partial<Omit<SocialProviderOptions, "clientId" | "clientSecret" | "endpoints" | "prompt">>,
    protected readonly clock: () => Date,
  ) {
    this.spec = spec;
    this.id = spec.id;
    this.name = spec.name;
    this.defaultScopes = spec.defaultScopes;
    this.clientId = options.clientId;
    this.clientSecret = options.clientSecret;
    this.pkce = spec.pkce;
    this.prompt = options.prompt;
    // Any endpoint may be pointed elsewhere (tests, self-hosted instances, private deployments).
    const overrides = Object.fromEntries(Object.entries(options.endpoints ?? {}).filter(([, v]) => v !== undefined));
    this.endpoints = { ...spec.endpoints, ...overrides };
    this.settings = {
      scopes: options.scopes ?? [],
      disableDefaultScope: options.disableDefaultScope ?? false,
      redirectURI: options.redirectURI,
      disableSignUp: options.disableSignUp ?? false,
      disableImplicitSignUp: options.disableImplicitSignUp ?? false,
      disableIdTokenSignIn: options.disableIdTokenSignIn ?? false,
    };
    // One object per provider: oauth4webapi caches the provider's JWKS per authorization-server object.
    this.staticServer = {
      issuer: this.endpoints.issuer ?? new URL(this.endpoints.authorization).origin,
      authorization_endpoint: this.endpoints.authorization,
      token_endpoint: this.endpoints.token,
      ...(this.endpoints.userInfo ? { userinfo_endpoint: this.endpoints.userInfo } : {}),
      ...(this.endpoints.jwks ? { jwks_uri: this.endpoints.jwks } : {}),
    };
    if (spec.refresh) this.refreshAccessToken = (token) => this.refresh(token);
  }

  /** The provider's metadata: static here, discovered by the generic OpenID provider. */
  protected async server(): Promise<oauth.AuthorizationServer> {
    return this.staticServer;
  }

  /** oauth4webapi's client, with our clock (tests move it by hand) as its notion of now. */
  protected client(): oauth.Client {
    return {
      client_id: this.clientId,
      [oauth.clockSkew]: Math.round((this.clock().getTime() - Date.now()) / 1000),
    };
  }

  protected clientAuthentication(): oauth.ClientAuth {
    if (!this.clientSecret || this.spec.clientAuth === "none") return oauth.None();
    return this.spec.clientAuth === "client_secret_post"
      ? oauth.ClientSecretPost(this.clientSecret)
      : oauth.ClientSecretBasic(this.clientSecret);
  }

  /** Options of every oauth4webapi call: a timeout, our User-Agent, plain http only to loopback addresses. */
  protected requestOptions(url: string | undefined) {
    return {
      signal: () => AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      headers: { "user-agent": USER_AGENT },
      [oauth.allowInsecureRequests]: url !== undefined && isLoopbackHttp(url),
      [oauth.customFetch]: (input: string, init: oauth.CustomFetchOptions<"GET" | "POST", unknown>) =>
        this.protocolFetch(input, init),
    };
  }

  /** The fetch behind every oauth4webapi call (token, discovery, userinfo, JWKS); a provider that bends the protocol adapts it. */
  protected protocolFetch(url: string, init: oauth.CustomFetchOptions<"GET" | "POST", unknown>): Promise<Response> {
    return fetch(url, init as RequestInit);
  }

  /** Provider-specific authorization parameters (Google's access_type, Apple's response_mode, ...). */
  protected authorizationParams(_input: AuthorizationInput): Record<string, string> {
    return {};
  }

  /** Provider-specific token-request parameters (VK's device_id, ...). */
  protected tokenParams(_input: CallbackInput): Record<string, string> {
    return {};
  }

  /** Provider-specific refresh-request parameters. */
  protected refreshParams(): Record<string, string> {
    return {};
  }

  async createAuthorizationURL(input: AuthorizationInput): Promise<URL> {
    const as = await this.server();
    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", this.clientId);
    url.searchParams.set("redirect_uri", input.redirectURI);
    url.searchParams.set("state", input.state);
    if (input.scopes.length) url.searchParams.set("scope", input.scopes.join(this.spec.scopeSeparator ?? " "));
    if (this.pkce) {
      url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(input.codeVerifier));
      url.searchParams.set("code_challenge_method", "S256");
    }
    if (input.nonce) url.searchParams.set("nonce", input.nonce);
    if (input.loginHint) url.searchParams.set("login_hint", input.loginHint);
    if (this.prompt) url.searchParams.set("prompt", this.prompt);
    for (const [key, value] of Object.entries(this.authorizationParams(input))) url.searchParams.set(key, value);
    return url;
  }

  /** The callback parameters oauth4webapi checks (RFC 9207's `iss` only where the issuer is known). */
  protected callbackParameters(input: CallbackInput): URLSearchParams {
    return new URLSearchParams({ code: input.code, state: input.state });
  }

  async validateAuthorizationCode(input: CallbackInput): Promise<OAuthTokens> {
    try {
      const as = await this.server();
      const client = this.client();
      const params = oauth.validateAuthResponse(as, client, this.callbackParameters(input), input.state);
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        this.clientAuthentication(),
        params,
        input.redirectURI,
        // nopkce is marked deprecated to make it stand out: a few providers reject a verifier they never saw.
        this.pkce ? input.codeVerifier : oauth.nopkce,
        { ...this.requestOptions(as.token_endpoint), additionalParameters: this.tokenParams(input) },
      );
      return await this.processCodeResponse(as, client, response, input);
    } catch (error) {
      throw toOAuthError(this.id, error);
    }
  }

  /** Reads the token response (an OpenID provider also verifies its ID token here). */
  protected async processCodeResponse(
    as: oauth.AuthorizationServer,
    client: oauth.Client,
    response: Response,
    _input: CallbackInput,
  ): Promise<OAuthTokens> {
    const result = await oauth.processAuthorizationCodeResponse(as, client, response);
    return this.toTokens(result, null);
  }

  private async refresh(refreshToken: string): Promise<OAuthTokens> {
    try {
      const as = await this.server();
      const client = this.client();
      const response = await oauth.refreshTokenGrantRequest(as, client, this.clientAuthentication(), refreshToken, {
        ...this.requestOptions(as.token_endpoint),
        additionalParameters: this.refreshParams(),
      });
      const result = await oauth.processRefreshTokenResponse(as, client, response);
      return this.toTokens(result, (oauth.getValidatedIdTokenClaims(result) as Record<string, unknown>) ?? null);
    } catch (error) {
      throw toOAuthError(this.id, error);
    }
  }

  protected toTokens(result: oauth.TokenEndpointResponse, claims: Record<string, unknown> | null): OAuthTokens {
    const now = this.clock().getTime();
    const seconds = (value: unknown) => {
      const n = typeof value === "string" ? Number(value) : value;
      return typeof n === "number" && Number.isFinite(n) && n > 0 ? new Date(now + n * 1000) : null;
    };
    return {
      accessToken: result.access_token,
      refreshToken: result.refresh_token ?? null,
      idToken: result.id_token ?? null,
      accessTokenExpiresAt: seconds(result.expires_in),
      // GitHub and LinkedIn say refresh_token_expires_in, TikTok refresh_expires_in.
      refreshTokenExpiresAt: seconds(result.refresh_token_expires_in ?? result.refresh_expires_in),
      scopes: splitScopes(result.scope),
      claims,
      raw: { ...result },
    };
  }

  abstract getUserProfile(tokens: OAuthTokens, callback?: Pick<CallbackInput, "user">): Promise<ProviderProfile>;
}

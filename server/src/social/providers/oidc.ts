import * as oauth from "oauth4webapi";
import type { OidcProviderOptions } from "../../config/social-options.js";
import { isLoopbackHttp } from "../../config/social-options.js";
import { claimIsTrue, OpenIdProvider } from "../openid-provider.js";
import { asString, type ProviderProfile, requireId } from "../provider.js";

/** Discovered metadata is kept this long, then read again (keys rotate through jwks_uri, not here). */
const DISCOVERY_TTL_MS = 3_600_000;
const DISCOVERY_PATH = "/.well-known/openid-configuration";

/**
 * Any OpenID Connect provider, configured by its issuer: endpoints come from discovery
 * (`{issuer}/.well-known/openid-configuration`), each still overridable. Claims are the standard ones.
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html
 */
export class GenericOidcProvider extends OpenIdProvider {
  private readonly issuer: string;
  private readonly overrides: OidcProviderOptions["endpoints"];
  private discovered: { at: number; server: Promise<oauth.AuthorizationServer> } | null = null;

  constructor(options: OidcProviderOptions, clock: () => Date) {
    super(
      {
        id: options.id,
        name: options.name ?? options.id,
        // Placeholders until discovery answers; server() below is what the flows read.
        endpoints: { authorization: options.issuer, token: options.issuer, issuer: options.issuer },
        defaultScopes: ["openid", "email", "profile"],
        pkce: options.pkce,
        clientAuth: options.tokenEndpointAuthMethod,
        refresh: true,
        alwaysUserInfo: true,
      },
      { ...options, endpoints: {} },
      clock,
    );
    this.issuer = options.issuer;
    this.overrides = options.endpoints;
  }

  protected override server(): Promise<oauth.AuthorizationServer> {
    const now = Date.now();
    if (this.discovered && now - this.discovered.at < DISCOVERY_TTL_MS) return this.discovered.server;
    const server = this.discover();
    this.discovered = { at: now, server };
    // A failed discovery is not cached: the next sign-in asks again.
    server.catch(() => {
      if (this.discovered?.server === server) this.discovered = null;
    });
    return server;
  }

  private async discover(): Promise<oauth.AuthorizationServer> {
    const issuer = new URL(this.issuer);
    const response = await oauth.discoveryRequest(issuer, {
      ...this.requestOptions(new URL(issuer.href.replace(/\/$/, "") + DISCOVERY_PATH).href),
      algorithm: "oidc",
    });
    const metadata = await oauth.processDiscoveryResponse(issuer, response);
    const o = this.overrides;
    return {
      ...metadata,
      ...(o.authorization ? { authorization_endpoint: o.authorization } : {}),
      ...(o.token ? { token_endpoint: o.token } : {}),
      ...(o.userInfo ? { userinfo_endpoint: o.userInfo } : {}),
      ...(o.jwks ? { jwks_uri: o.jwks } : {}),
    };
  }

  protected override requestOptions(url: string | undefined) {
    // Discovered endpoints may only be plain http when the issuer itself is a loopback address.
    return { ...super.requestOptions(url), [oauth.allowInsecureRequests]: isLoopbackHttp(this.issuer) };
  }

  protected mapClaims(claims: Record<string, unknown>): ProviderProfile {
    return {
      user: {
        id: requireId(this.id, claims.sub),
        email: asString(claims.email),
        emailVerified: claimIsTrue(claims.email_verified),
        name: asString(claims.name) ?? asString(claims.preferred_username) ?? "",
        image: asString(claims.picture),
      },
      data: claims,
    };
  }
}

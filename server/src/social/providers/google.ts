import type { JWTPayload } from "jose";
import type { AuthorizationServer } from "oauth4webapi";
import type { SocialProvidersOptions } from "../../config/social-options.js";
import { OAuthRefusedError } from "../errors.js";
import { claimIsTrue, OpenIdProvider } from "../openid-provider.js";
import { asString, type AuthorizationInput, type ProviderProfile, requireId } from "../provider.js";

const AUTHORIZATION_ENDPOINT = "https://accounts.google.com/o/oauth2/v2/auth";
const TOKEN_ENDPOINT = "https://oauth2.googleapis.com/token";
const USERINFO_ENDPOINT = "https://openidconnect.googleapis.com/v1/userinfo";
const JWKS_ENDPOINT = "https://www.googleapis.com/oauth2/v3/certs";
const ISSUER = "https://accounts.google.com";
/** Google also signs ID tokens with the issuer spelled without the scheme. */
const ISSUER_WITHOUT_SCHEME = "accounts.google.com";

type GoogleOptions = NonNullable<SocialProvidersOptions["google"]>;

/** Google: OpenID Connect with PKCE; `access_type=offline` for a refresh token, `hd` to keep to one Workspace domain. */
export class GoogleProvider extends OpenIdProvider {
  private readonly accessType: string;
  private readonly hd: string | undefined;

  constructor(options: GoogleOptions, clock: () => Date) {
    super(
      {
        id: "google",
        name: "Google",
        endpoints: {
          authorization: AUTHORIZATION_ENDPOINT,
          token: TOKEN_ENDPOINT,
          userInfo: USERINFO_ENDPOINT,
          jwks: JWKS_ENDPOINT,
          issuer: ISSUER,
        },
        defaultScopes: ["openid", "email", "profile"],
        pkce: true,
        clientAuth: "client_secret_post",
        refresh: true,
      },
      options,
      clock,
    );
    this.accessType = options.accessType;
    this.hd = options.hd;
  }

  protected override authorizationParams(_input: AuthorizationInput): Record<string, string> {
    return {
      access_type: this.accessType,
      include_granted_scopes: "true",
      ...(this.hd ? { hd: this.hd } : {}),
    };
  }

  protected override expectedIssuer(claims: JWTPayload, server: AuthorizationServer): string | null {
    if (server.issuer === ISSUER && claims.iss === ISSUER_WITHOUT_SCHEME) return ISSUER_WITHOUT_SCHEME;
    return server.issuer;
  }

  protected mapClaims(claims: Record<string, unknown>): ProviderProfile {
    // With `hd` set, only accounts of that Workspace domain are accepted (the parameter alone is only a hint).
    if (this.hd && claims.hd !== this.hd) throw new OAuthRefusedError(this.id, "hd_mismatch", `not a ${this.hd} account`, undefined);
    return {
      user: {
        id: requireId(this.id, claims.sub),
        email: asString(claims.email),
        emailVerified: claimIsTrue(claims.email_verified),
        name: asString(claims.name) ?? "",
        image: asString(claims.picture),
      },
      data: claims,
    };
  }
}

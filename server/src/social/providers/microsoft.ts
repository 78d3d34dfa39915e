import type { JWTPayload } from "jose";
import type { AuthorizationServer } from "oauth4webapi";
import type { SocialProvidersOptions } from "../../config/social-options.js";
import { claimIsTrue, OpenIdProvider } from "../openid-provider.js";
import { asString, type ProviderProfile, requireId } from "../provider.js";

const LOGIN = "https://login.microsoftonline.com";
const authorizationEndpoint = (tenant: string) => `${LOGIN}/${tenant}/oauth2/v2.0/authorize`;
const tokenEndpoint = (tenant: string) => `${LOGIN}/${tenant}/oauth2/v2.0/token`;
const jwksEndpoint = (tenant: string) => `${LOGIN}/${tenant}/discovery/v2.0/keys`;
/** The issuer names the user's tenant id, whatever tenant alias the application signs in with. */
const issuerOf = (tenantId: string) => `${LOGIN}/${tenantId}/v2.0`;
const USERINFO_ENDPOINT = "https://graph.microsoft.com/oidc/userinfo";

/** Personal Microsoft accounts all live in this tenant. */
const CONSUMERS_TENANT_ID = "9188040d-6c67-4c5b-b112-36a304b66dad";
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type MicrosoftOptions = NonNullable<SocialProvidersOptions["microsoft"]>;

/**
 * Microsoft Entra ID (work, school and personal accounts). The tenant option picks who may sign in: "common",
 * "organizations", "consumers" or one tenant. With the shared aliases the ID token's issuer carries the user's own
 * tenant id (`tid`), so the expected issuer is built from that claim and the alias's rule.
 */
export class MicrosoftProvider extends OpenIdProvider {
  private readonly tenant: string;
  private readonly fixedIssuer: boolean;

  constructor(options: MicrosoftOptions, clock: () => Date) {
    const tenant = options.tenantId;
    super(
      {
        id: "microsoft",
        name: "Microsoft",
        endpoints: {
          authorization: authorizationEndpoint(tenant),
          token: tokenEndpoint(tenant),
          userInfo: USERINFO_ENDPOINT,
          jwks: jwksEndpoint(tenant),
          issuer: issuerOf(GUID.test(tenant) ? tenant.toLowerCase() : "{tenantid}"),
        },
        defaultScopes: ["openid", "profile", "email", "offline_access", "User.Read"],
        pkce: true,
        clientAuth: "client_secret_post",
        refresh: true,
      },
      options,
      clock,
    );
    this.tenant = tenant.toLowerCase();
    this.fixedIssuer = options.endpoints.issuer !== undefined || GUID.test(tenant);
  }

  protected override expectedIssuer(claims: JWTPayload, server: AuthorizationServer): string | null {
    if (this.fixedIssuer) return server.issuer;
    const tid = typeof claims.tid === "string" ? claims.tid.toLowerCase() : "";
    if (!GUID.test(tid)) return null;
    if (this.tenant === "consumers" && tid !== CONSUMERS_TENANT_ID) return null;
    if (this.tenant === "organizations" && tid === CONSUMERS_TENANT_ID) return null;
    return issuerOf(tid);
  }

  protected mapClaims(claims: Record<string, unknown>): ProviderProfile {
    const email = asString(claims.email) ?? (String(claims.preferred_username ?? "").includes("@") ? asString(claims.preferred_username) : null);
    // The email claim of a work account is whatever an administrator typed: it counts as verified only when
    // Microsoft says the domain owner verified it (xms_edov), or for personal accounts, whose address is their login.
    const verified =
      asString(claims.email) !== null &&
      (claimIsTrue(claims.xms_edov) || claimIsTrue(claims.email_verified) || claims.tid === CONSUMERS_TENANT_ID);
    return {
      user: {
        id: requireId(this.id, claims.sub),
        email,
        emailVerified: verified,
        name: asString(claims.name) ?? "",
        // The photo is a separate binary Graph call (/me/photo/$value); not fetched.
        image: null,
      },
      data: claims,
    };
  }
}

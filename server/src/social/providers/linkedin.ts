import type { SocialProviderOptions } from "../../config/social-options.js";
import { requestJson } from "../http.js";
import { OAuth2Provider } from "../oauth2-provider.js";
import { asString, joinName, requireId, type OAuthTokens, type ProviderProfile } from "../provider.js";

const AUTHORIZATION_ENDPOINT = "https://www.linkedin.com/oauth/v2/authorization";
const TOKEN_ENDPOINT = "https://www.linkedin.com/oauth/v2/accessToken";
const USERINFO_ENDPOINT = "https://api.linkedin.com/v2/userinfo";
const ISSUER = "https://www.linkedin.com/oauth";

/**
 * LinkedIn ("Sign In with LinkedIn using OpenID Connect"). Quirks: no PKCE for web applications; the client
 * secret goes in the form body; the profile is read from the userinfo endpoint (standard claims), the ID token that
 * comes with it is checked for issuer and audience by oauth4webapi but not relied on.
 */
export class LinkedInProvider extends OAuth2Provider {
  constructor(options: SocialProviderOptions, clock: () => Date) {
    super(
      {
        id: "linkedin",
        name: "LinkedIn",
        endpoints: { authorization: AUTHORIZATION_ENDPOINT, token: TOKEN_ENDPOINT, userInfo: USERINFO_ENDPOINT, issuer: ISSUER },
        defaultScopes: ["openid", "profile", "email"],
        pkce: false,
        clientAuth: "client_secret_post",
        refresh: true,
      },
      options,
      clock,
    );
  }

  async getUserProfile(tokens: OAuthTokens): Promise<ProviderProfile> {
    const profile = await requestJson(this.id, this.endpoints.userInfo!, { accessToken: tokens.accessToken ?? "" });
    return {
      user: {
        id: requireId(this.id, profile.sub),
        email: asString(profile.email),
        emailVerified: profile.email_verified === true,
        name: asString(profile.name) ?? joinName(asString(profile.given_name), asString(profile.family_name)),
        image: asString(profile.picture),
      },
      data: profile,
    };
  }
}

import type { SocialProviderOptions } from "../../config/social-options.js";
import { requestJson } from "../http.js";
import { OAuth2Provider } from "../oauth2-provider.js";
import { asString, placeholderEmail, requireId, type OAuthTokens, type ProviderProfile } from "../provider.js";

const AUTHORIZATION_ENDPOINT = "https://apis.roblox.com/oauth/v1/authorize";
const TOKEN_ENDPOINT = "https://apis.roblox.com/oauth/v1/token";
const USERINFO_ENDPOINT = "https://apis.roblox.com/oauth/v1/userinfo";
const ISSUER = "https://apis.roblox.com/oauth/";

/**
 * Roblox. Quirks: the userinfo endpoint needs the `openid` scope; the display name is `nickname`, the handle
 * `preferred_username`; Roblox never shares an email, so the user gets a placeholder address (provider.ts).
 */
export class RobloxProvider extends OAuth2Provider {
  constructor(options: SocialProviderOptions, clock: () => Date) {
    super(
      {
        id: "roblox",
        name: "Roblox",
        endpoints: { authorization: AUTHORIZATION_ENDPOINT, token: TOKEN_ENDPOINT, userInfo: USERINFO_ENDPOINT, issuer: ISSUER },
        defaultScopes: ["openid", "profile"],
        pkce: true,
        clientAuth: "client_secret_basic",
        refresh: true,
      },
      options,
      clock,
    );
  }

  async getUserProfile(tokens: OAuthTokens): Promise<ProviderProfile> {
    const profile = await requestJson(this.id, this.endpoints.userInfo!, { accessToken: tokens.accessToken ?? "" });
    const id = requireId(this.id, profile.sub);
    return {
      user: {
        id,
        email: placeholderEmail(this.id, id),
        emailVerified: false,
        name: asString(profile.nickname) ?? asString(profile.preferred_username) ?? asString(profile.name) ?? "",
        image: asString(profile.picture),
      },
      data: profile,
    };
  }
}

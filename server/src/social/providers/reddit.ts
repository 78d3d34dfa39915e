import type { SocialProviderOptions } from "../../config/social-options.js";
import { requestJson } from "../http.js";
import { OAuth2Provider } from "../oauth2-provider.js";
import { asString, placeholderEmail, requireId, type OAuthTokens, type ProviderProfile } from "../provider.js";

const AUTHORIZATION_ENDPOINT = "https://www.reddit.com/api/v1/authorize";
const TOKEN_ENDPOINT = "https://www.reddit.com/api/v1/access_token";
const PROFILE_ENDPOINT = "https://oauth.reddit.com/api/v1/me";

/**
 * Reddit. Quirks: client authentication is HTTP Basic only; a refresh token needs `duration=permanent`; the API
 * refuses requests without an application User-Agent (http.ts sends one); `icon_img` comes HTML-escaped (`&amp;`);
 * Reddit never shares an email, so the user gets a placeholder address (provider.ts).
 */
export class RedditProvider extends OAuth2Provider {
  constructor(options: SocialProviderOptions, clock: () => Date) {
    super(
      {
        id: "reddit",
        name: "Reddit",
        endpoints: { authorization: AUTHORIZATION_ENDPOINT, token: TOKEN_ENDPOINT, userInfo: PROFILE_ENDPOINT },
        defaultScopes: ["identity"],
        pkce: false,
        clientAuth: "client_secret_basic",
        refresh: true,
      },
      options,
      clock,
    );
  }

  protected override authorizationParams(): Record<string, string> {
    return { duration: "permanent" };
  }

  async getUserProfile(tokens: OAuthTokens): Promise<ProviderProfile> {
    const profile = await requestJson(this.id, this.endpoints.userInfo!, { accessToken: tokens.accessToken ?? "" });
    const id = requireId(this.id, profile.id);
    return {
      user: {
        id,
        email: placeholderEmail(this.id, id),
        emailVerified: false,
        name: asString(profile.name) ?? "",
        image: asString(profile.icon_img)?.replace(/&amp;/g, "&") ?? null,
      },
      data: profile,
    };
  }
}

import type { SocialProviderOptions } from "../../config/social-options.js";
import { requestJson } from "../http.js";
import { OAuth2Provider } from "../oauth2-provider.js";
import { asString, joinName, requireId, type OAuthTokens, type ProviderProfile } from "../provider.js";

const AUTHORIZATION_ENDPOINT = "https://zoom.us/oauth/authorize";
const TOKEN_ENDPOINT = "https://zoom.us/oauth/token";
const USER_ENDPOINT = "https://api.zoom.us/v2/users/me";

/**
 * Zoom. Quirks: scopes are chosen on the app in Zoom's marketplace, so none are sent by default; the address is
 * verified when `verified` is 1; the name is `display_name`, else first and last name.
 */
export class ZoomProvider extends OAuth2Provider {
  constructor(options: SocialProviderOptions, clock: () => Date) {
    super(
      {
        id: "zoom",
        name: "Zoom",
        endpoints: { authorization: AUTHORIZATION_ENDPOINT, token: TOKEN_ENDPOINT, userInfo: USER_ENDPOINT },
        defaultScopes: [],
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
    return {
      user: {
        id: requireId(this.id, profile.id),
        email: asString(profile.email),
        emailVerified: profile.verified === 1 || profile.verified === true,
        name: asString(profile.display_name) ?? joinName(asString(profile.first_name), asString(profile.last_name)),
        image: asString(profile.pic_url),
      },
      data: profile,
    };
  }
}

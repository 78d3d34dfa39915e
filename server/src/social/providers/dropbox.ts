import type { SocialProviderOptions } from "../../config/social-options.js";
import { requestJson } from "../http.js";
import { OAuth2Provider } from "../oauth2-provider.js";
import { asRecord, asString, requireId, type OAuthTokens, type ProviderProfile } from "../provider.js";

const AUTHORIZATION_ENDPOINT = "https://www.dropbox.com/oauth2/authorize";
const TOKEN_ENDPOINT = "https://api.dropboxapi.com/oauth2/token";
const ACCOUNT_ENDPOINT = "https://api.dropboxapi.com/2/users/get_current_account";

/**
 * Dropbox. Quirks: a refresh token is only issued with `token_access_type=offline`; the profile is an RPC call,
 * a POST whose body is the JSON `null`; the name is nested (`name.display_name`).
 */
export class DropboxProvider extends OAuth2Provider {
  constructor(options: SocialProviderOptions, clock: () => Date) {
    super(
      {
        id: "dropbox",
        name: "Dropbox",
        endpoints: { authorization: AUTHORIZATION_ENDPOINT, token: TOKEN_ENDPOINT, userInfo: ACCOUNT_ENDPOINT },
        defaultScopes: ["account_info.read"],
        pkce: true,
        clientAuth: "client_secret_basic",
        refresh: true,
      },
      options,
      clock,
    );
  }

  protected override authorizationParams(): Record<string, string> {
    return { token_access_type: "offline" };
  }

  async getUserProfile(tokens: OAuthTokens): Promise<ProviderProfile> {
    const profile = await requestJson(this.id, this.endpoints.userInfo!, {
      method: "POST",
      accessToken: tokens.accessToken ?? "",
      headers: { "content-type": "application/json" },
      body: "null",
    });
    return {
      user: {
        id: requireId(this.id, profile.account_id),
        email: asString(profile.email),
        emailVerified: profile.email_verified === true,
        name: asString(asRecord(profile.name).display_name) ?? "",
        image: asString(profile.profile_photo_url),
      },
      data: profile,
    };
  }
}

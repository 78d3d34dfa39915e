import type { SocialProviderOptions } from "../../config/social-options.js";
import { OAuthRefusedError } from "../errors.js";
import { requestJson } from "../http.js";
import { OAuth2Provider } from "../oauth2-provider.js";
import { asString, requireId, type OAuthTokens, type ProviderProfile } from "../provider.js";

const AUTHORIZATION_ENDPOINT = "https://gitlab.com/oauth/authorize";
const TOKEN_ENDPOINT = "https://gitlab.com/oauth/token";
const USER_ENDPOINT = "https://gitlab.com/api/v4/user";
const ISSUER = "https://gitlab.com";

/**
 * GitLab (gitlab.com, or a self-managed instance: point every endpoint at it). Quirks: the address is confirmed when
 * `confirmed_at` is set; a blocked or deactivated account still gets a token, so `state` must be "active".
 */
export class GitLabProvider extends OAuth2Provider {
  constructor(options: SocialProviderOptions, clock: () => Date) {
    super(
      {
        id: "gitlab",
        name: "GitLab",
        endpoints: { authorization: AUTHORIZATION_ENDPOINT, token: TOKEN_ENDPOINT, userInfo: USER_ENDPOINT, issuer: ISSUER },
        defaultScopes: ["read_user"],
        pkce: true,
        clientAuth: "client_secret_post",
        refresh: true,
      },
      options,
      clock,
    );
  }

  async getUserProfile(tokens: OAuthTokens): Promise<ProviderProfile> {
    const profile = await requestJson(this.id, this.endpoints.userInfo!, { accessToken: tokens.accessToken ?? "" });
    if (profile.state !== undefined && profile.state !== "active") {
      throw new OAuthRefusedError(this.id, "account_not_active", `state ${String(profile.state)}`, undefined);
    }
    return {
      user: {
        id: requireId(this.id, profile.id),
        email: asString(profile.email),
        emailVerified: asString(profile.confirmed_at) !== null,
        name: asString(profile.name) ?? asString(profile.username) ?? "",
        image: asString(profile.avatar_url),
      },
      data: profile,
    };
  }
}

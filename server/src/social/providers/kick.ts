import type { CustomFetchOptions } from "oauth4webapi";
import type { SocialProviderOptions } from "../../config/social-options.js";
import { requestJson } from "../http.js";
import { adaptTokenResponse, OAuth2Provider } from "../oauth2-provider.js";
import { asRecord, asString, requireId, type OAuthTokens, type ProviderProfile } from "../provider.js";

const AUTHORIZATION_ENDPOINT = "https://id.kick.com/oauth/authorize";
const TOKEN_ENDPOINT = "https://id.kick.com/oauth/token";
const USERS_ENDPOINT = "https://api.kick.com/public/v1/users";

/**
 * Kick. Quirks: PKCE is mandatory; the token answer gives the access token's life as `expiry` (seconds), not
 * `expires_in`; the profile is the first entry of `data`, with `user_id` and `profile_picture`;
 * Kick does not say whether the email was verified, so it is stored unverified.
 */
export class KickProvider extends OAuth2Provider {
  constructor(options: SocialProviderOptions, clock: () => Date) {
    super(
      {
        id: "kick",
        name: "Kick",
        endpoints: { authorization: AUTHORIZATION_ENDPOINT, token: TOKEN_ENDPOINT, userInfo: USERS_ENDPOINT },
        defaultScopes: ["user:read"],
        pkce: true,
        clientAuth: "client_secret_post",
        refresh: true,
      },
      options,
      clock,
    );
  }

  protected override async protocolFetch(url: string, init: CustomFetchOptions<"GET" | "POST", unknown>): Promise<Response> {
    const response = await fetch(url, init as RequestInit);
    return adaptTokenResponse(response, (body, status) => ({
      status,
      body: body.expires_in === undefined && body.expiry !== undefined ? { ...body, expires_in: Number(body.expiry) } : body,
    }));
  }

  async getUserProfile(tokens: OAuthTokens): Promise<ProviderProfile> {
    const answer = await requestJson(this.id, this.endpoints.userInfo!, { accessToken: tokens.accessToken ?? "" });
    const user = asRecord(Array.isArray(answer.data) ? answer.data[0] : undefined);
    return {
      user: {
        id: requireId(this.id, user.user_id),
        email: asString(user.email),
        emailVerified: false,
        name: asString(user.name) ?? "",
        image: asString(user.profile_picture),
      },
      data: user,
    };
  }
}

import type { CustomFetchOptions } from "oauth4webapi";
import type { SocialProviderOptions } from "../../config/social-options.js";
import { requestJson } from "../http.js";
import { adaptTokenResponse, OAuth2Provider } from "../oauth2-provider.js";
import { asRecord, asString, type OAuthTokens, type ProviderProfile, requireId } from "../provider.js";

const AUTHORIZATION_ENDPOINT = "https://id.twitch.tv/oauth2/authorize";
const TOKEN_ENDPOINT = "https://id.twitch.tv/oauth2/token";
const USERS_ENDPOINT = "https://api.twitch.tv/helix/users";
const ISSUER = "https://id.twitch.tv/oauth2";

/**
 * Twitch (Helix API). Quirks: the token answer lists `scope` as a JSON array (the protocol says a space-separated
 * string); every Helix call needs the application's `Client-Id` header beside the token; the user is `data[0]` of a
 * list; the email field only ever holds the user's verified address.
 */
export class TwitchProvider extends OAuth2Provider {
  constructor(options: SocialProviderOptions, clock: () => Date) {
    super(
      {
        id: "twitch",
        name: "Twitch",
        endpoints: { authorization: AUTHORIZATION_ENDPOINT, token: TOKEN_ENDPOINT, userInfo: USERS_ENDPOINT, issuer: ISSUER },
        defaultScopes: ["user:read:email"],
        pkce: false,
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
      body: Array.isArray(body.scope) ? { ...body, scope: body.scope.join(" ") } : body,
    }));
  }

  async getUserProfile(tokens: OAuthTokens): Promise<ProviderProfile> {
    const answer = await requestJson(this.id, this.endpoints.userInfo!, {
      accessToken: tokens.accessToken ?? "",
      headers: { "client-id": this.clientId },
    });
    const user = asRecord(Array.isArray(answer.data) ? answer.data[0] : undefined);
    const email = asString(user.email);
    return {
      user: {
        id: requireId(this.id, user.id),
        email,
        emailVerified: email !== null,
        name: asString(user.display_name) ?? asString(user.login) ?? "",
        image: asString(user.profile_image_url),
      },
      data: user,
    };
  }
}

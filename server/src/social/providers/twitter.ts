import type { SocialProviderOptions } from "../../config/social-options.js";
import { requestJson } from "../http.js";
import { OAuth2Provider } from "../oauth2-provider.js";
import { asRecord, asString, placeholderEmail, type OAuthTokens, type ProviderProfile, requireId } from "../provider.js";

const AUTHORIZATION_ENDPOINT = "https://x.com/i/oauth2/authorize";
const TOKEN_ENDPOINT = "https://api.x.com/2/oauth2/token";
const PROFILE_ENDPOINT = "https://api.x.com/2/users/me";
const PROFILE_FIELDS = "profile_image_url,confirmed_email";

/**
 * X (Twitter) OAuth 2.0. Quirks: PKCE is mandatory; the profile is `data` and lists only the `user.fields` asked
 * for; the email (`confirmed_email`, confirmed by X) comes only to applications granted the `users.email` scope,
 * otherwise the user gets a placeholder address (provider.ts). Pictures come in a 48 px `_normal` size; the
 * 400 px one has the same URL with `_400x400`.
 */
export class TwitterProvider extends OAuth2Provider {
  constructor(options: SocialProviderOptions, clock: () => Date) {
    super(
      {
        id: "twitter",
        name: "X",
        endpoints: { authorization: AUTHORIZATION_ENDPOINT, token: TOKEN_ENDPOINT, userInfo: PROFILE_ENDPOINT },
        defaultScopes: ["users.read", "tweet.read", "offline.access", "users.email"],
        pkce: true,
        clientAuth: "client_secret_basic",
        refresh: true,
      },
      options,
      clock,
    );
  }

  async getUserProfile(tokens: OAuthTokens): Promise<ProviderProfile> {
    const url = new URL(this.endpoints.userInfo!);
    url.searchParams.set("user.fields", PROFILE_FIELDS);
    const answer = await requestJson(this.id, url.href, { accessToken: tokens.accessToken ?? "" });
    const data = asRecord(answer.data);
    const id = requireId(this.id, data.id);
    const confirmed = asString(data.confirmed_email);
    return {
      user: {
        id,
        email: confirmed ?? placeholderEmail(this.id, id),
        emailVerified: confirmed !== null,
        name: asString(data.name) ?? asString(data.username) ?? "",
        image: asString(data.profile_image_url)?.replace("_normal.", "_400x400.") ?? null,
      },
      data,
    };
  }
}

import type { ClientAuth } from "oauth4webapi";
import type { SocialProviderOptions } from "../../config/social-options.js";
import { OAuthRefusedError } from "../errors.js";
import { requestJson } from "../http.js";
import { OAuth2Provider } from "../oauth2-provider.js";
import {
  asRecord,
  asString,
  placeholderEmail,
  requireId,
  type AuthorizationInput,
  type OAuthTokens,
  type ProviderProfile,
} from "../provider.js";

const AUTHORIZATION_ENDPOINT = "https://www.tiktok.com/v2/auth/authorize/";
const TOKEN_ENDPOINT = "https://open.tiktokapis.com/v2/oauth/token/";
const USER_ENDPOINT = "https://open.tiktokapis.com/v2/user/info/";
const USER_FIELDS = "open_id,union_id,avatar_url,avatar_large_url,display_name,username";

/**
 * TikTok Login Kit. Quirks: the client id is called `client_key` (in the authorization URL and, with the secret, in
 * the token request body); scopes are comma-separated; the profile lists only the `fields` asked for and reports
 * failures as HTTP 200 with `error.code` other than "ok"; TikTok never shares an email, so the user gets a
 * placeholder address (provider.ts).
 */
export class TikTokProvider extends OAuth2Provider {
  constructor(options: SocialProviderOptions, clock: () => Date) {
    super(
      {
        id: "tiktok",
        name: "TikTok",
        endpoints: { authorization: AUTHORIZATION_ENDPOINT, token: TOKEN_ENDPOINT, userInfo: USER_ENDPOINT },
        defaultScopes: ["user.info.basic", "user.info.profile"],
        scopeSeparator: ",",
        pkce: true,
        clientAuth: "client_secret_post",
        refresh: true,
      },
      options,
      clock,
    );
  }

  override async createAuthorizationURL(input: AuthorizationInput): Promise<URL> {
    const url = await super.createAuthorizationURL(input);
    url.searchParams.delete("client_id");
    url.searchParams.set("client_key", this.clientId);
    return url;
  }

  protected override clientAuthentication(): ClientAuth {
    return (_as, _client, body) => {
      body.set("client_key", this.clientId);
      if (this.clientSecret) body.set("client_secret", this.clientSecret);
    };
  }

  async getUserProfile(tokens: OAuthTokens): Promise<ProviderProfile> {
    const url = new URL(this.endpoints.userInfo!);
    url.searchParams.set("fields", USER_FIELDS);
    const answer = await requestJson(this.id, url.href, { accessToken: tokens.accessToken ?? "" });
    const error = asRecord(answer.error);
    if (error.code !== undefined && error.code !== "ok") {
      throw new OAuthRefusedError(this.id, String(error.code), asString(error.message) ?? undefined, 200);
    }
    const user = asRecord(asRecord(answer.data).user);
    const id = requireId(this.id, user.open_id ?? tokens.raw.open_id);
    return {
      user: {
        id,
        email: placeholderEmail(this.id, id),
        emailVerified: false,
        name: asString(user.display_name) ?? asString(user.username) ?? "",
        image: asString(user.avatar_large_url) ?? asString(user.avatar_url),
      },
      data: user,
    };
  }
}

import type { CustomFetchOptions } from "oauth4webapi";
import type { SocialProviderOptions } from "../../config/social-options.js";
import { requestJson } from "../http.js";
import { adaptTokenResponse, OAuth2Provider } from "../oauth2-provider.js";
import {
  asRecord,
  asString,
  joinName,
  requireId,
  type CallbackInput,
  type OAuthTokens,
  type ProviderProfile,
} from "../provider.js";

const AUTHORIZATION_ENDPOINT = "https://id.vk.com/authorize";
const TOKEN_ENDPOINT = "https://id.vk.com/oauth2/auth";
const USER_INFO_ENDPOINT = "https://id.vk.com/oauth2/user_info";

/**
 * VK ID. Quirks: PKCE is mandatory; the callback carries a `device_id` that the token request must repeat (with the
 * state); the email may arrive in the token response itself (as VK's classic API always sent it) rather than in the
 * profile; the classic token response also has no `token_type`, which is Bearer; the profile is a POST of the
 * client id and access token as a form. VK does not say the email was verified. Refreshing needs the device id
 * again, which is not kept, so there is no refresh.
 */
export class VkProvider extends OAuth2Provider {
  constructor(options: SocialProviderOptions, clock: () => Date) {
    super(
      {
        id: "vk",
        name: "VK",
        endpoints: { authorization: AUTHORIZATION_ENDPOINT, token: TOKEN_ENDPOINT, userInfo: USER_INFO_ENDPOINT },
        defaultScopes: ["email"],
        pkce: true,
        clientAuth: "client_secret_post",
        refresh: false,
      },
      options,
      clock,
    );
  }

  protected override tokenParams(input: CallbackInput): Record<string, string> {
    return { ...(input.deviceId ? { device_id: input.deviceId } : {}), state: input.state };
  }

  protected override async protocolFetch(url: string, init: CustomFetchOptions<"GET" | "POST", unknown>): Promise<Response> {
    const response = await fetch(url, init as RequestInit);
    return adaptTokenResponse(response, (body, status) => ({
      status,
      body: body.access_token !== undefined && body.token_type === undefined ? { ...body, token_type: "bearer" } : body,
    }));
  }

  async getUserProfile(tokens: OAuthTokens): Promise<ProviderProfile> {
    const answer = await requestJson(this.id, this.endpoints.userInfo!, {
      method: "POST",
      form: { client_id: this.clientId, access_token: tokens.accessToken ?? "" },
    });
    const user = asRecord(answer.user);
    return {
      user: {
        id: requireId(this.id, user.user_id ?? tokens.raw.user_id),
        email: asString(user.email) ?? asString(tokens.raw.email),
        emailVerified: false,
        name: joinName(asString(user.first_name), asString(user.last_name)),
        image: asString(user.avatar),
      },
      data: user,
    };
  }
}

import type { SocialProviderOptions } from "../../config/social-options.js";
import { requestJson } from "../http.js";
import { OAuth2Provider } from "../oauth2-provider.js";
import { asRecord, asString, type OAuthTokens, type ProviderProfile, requireId } from "../provider.js";

const AUTHORIZATION_ENDPOINT = "https://www.facebook.com/v21.0/dialog/oauth";
const TOKEN_ENDPOINT = "https://graph.facebook.com/v21.0/oauth/access_token";
const PROFILE_ENDPOINT = "https://graph.facebook.com/v21.0/me";
const PROFILE_FIELDS = "id,name,email,picture.width(200).height(200)";

/**
 * Facebook (Graph API). Quirks: the profile lists only the fields asked for (`fields=`); the picture is nested
 * (`picture.data.url`); the email may be missing and Facebook does not say it was verified, so it is not taken as
 * verified (list the provider in accountLinking.trustedProviders to link by it anyway). No refresh grant: tokens are
 * long-lived instead.
 */
export class FacebookProvider extends OAuth2Provider {
  constructor(options: SocialProviderOptions, clock: () => Date) {
    super(
      {
        id: "facebook",
        name: "Facebook",
        endpoints: { authorization: AUTHORIZATION_ENDPOINT, token: TOKEN_ENDPOINT, userInfo: PROFILE_ENDPOINT },
        defaultScopes: ["email", "public_profile"],
        pkce: true,
        clientAuth: "client_secret_post",
        refresh: false,
      },
      options,
      clock,
    );
  }

  async getUserProfile(tokens: OAuthTokens): Promise<ProviderProfile> {
    const url = new URL(this.endpoints.userInfo!);
    url.searchParams.set("fields", PROFILE_FIELDS);
    const profile = await requestJson(this.id, url.href, { accessToken: tokens.accessToken ?? "" });
    return {
      user: {
        id: requireId(this.id, profile.id),
        email: asString(profile.email),
        emailVerified: false,
        name: asString(profile.name) ?? "",
        image: asString(asRecord(asRecord(profile.picture).data).url),
      },
      data: profile,
    };
  }
}

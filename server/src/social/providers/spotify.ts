import type { SocialProviderOptions } from "../../config/social-options.js";
import { requestJson } from "../http.js";
import { OAuth2Provider } from "../oauth2-provider.js";
import { asRecord, asString, type OAuthTokens, type ProviderProfile, requireId } from "../provider.js";

const AUTHORIZATION_ENDPOINT = "https://accounts.spotify.com/authorize";
const TOKEN_ENDPOINT = "https://accounts.spotify.com/api/token";
const PROFILE_ENDPOINT = "https://api.spotify.com/v1/me";

/**
 * Spotify. Quirk: Spotify documents the profile's email as unverified ("no proof it belongs to the user"), so it is
 * stored unverified; the picture is the first of `images`.
 */
export class SpotifyProvider extends OAuth2Provider {
  constructor(options: SocialProviderOptions, clock: () => Date) {
    super(
      {
        id: "spotify",
        name: "Spotify",
        endpoints: { authorization: AUTHORIZATION_ENDPOINT, token: TOKEN_ENDPOINT, userInfo: PROFILE_ENDPOINT },
        defaultScopes: ["user-read-email"],
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
    const images = Array.isArray(profile.images) ? profile.images : [];
    return {
      user: {
        id: requireId(this.id, profile.id),
        email: asString(profile.email),
        emailVerified: false,
        name: asString(profile.display_name) ?? requireId(this.id, profile.id),
        image: asString(asRecord(images[0]).url),
      },
      data: profile,
    };
  }
}

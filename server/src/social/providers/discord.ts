import type { SocialProviderOptions } from "../../config/social-options.js";
import { requestJson } from "../http.js";
import { OAuth2Provider } from "../oauth2-provider.js";
import { asString, type OAuthTokens, type ProviderProfile, requireId } from "../provider.js";

const AUTHORIZATION_ENDPOINT = "https://discord.com/oauth2/authorize";
const TOKEN_ENDPOINT = "https://discord.com/api/oauth2/token";
const USER_ENDPOINT = "https://discord.com/api/users/@me";
const CDN = "https://cdn.discordapp.com";

/**
 * Discord. Quirk: the profile carries an avatar hash, not a URL; the URL is built from the user id and the hash
 * (`a_` hashes are animated GIFs), and a user without one gets a default avatar picked from the id (new usernames,
 * discriminator "0") or from the old discriminator.
 */
export class DiscordProvider extends OAuth2Provider {
  constructor(options: SocialProviderOptions, clock: () => Date) {
    super(
      {
        id: "discord",
        name: "Discord",
        endpoints: { authorization: AUTHORIZATION_ENDPOINT, token: TOKEN_ENDPOINT, userInfo: USER_ENDPOINT },
        defaultScopes: ["identify", "email"],
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
    const id = requireId(this.id, profile.id);
    return {
      user: {
        id,
        email: asString(profile.email),
        emailVerified: profile.verified === true,
        name: asString(profile.global_name) ?? asString(profile.username) ?? "",
        image: discordAvatar(id, asString(profile.avatar), asString(profile.discriminator)),
      },
      data: profile,
    };
  }
}

export function discordAvatar(id: string, hash: string | null, discriminator: string | null): string {
  if (hash) return `${CDN}/avatars/${id}/${hash}.${hash.startsWith("a_") ? "gif" : "png"}`;
  let index = 0;
  if (discriminator && discriminator !== "0") index = Number(discriminator) % 5;
  else if (/^\d+$/.test(id)) index = Number((BigInt(id) >> 22n) % 6n);
  return `${CDN}/embed/avatars/${index}.png`;
}

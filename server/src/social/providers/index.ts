import type { SocialProviderId, SocialProvidersOptions } from "../../config/social-options.js";
import type { OAuthProvider } from "../provider.js";
import { AppleProvider } from "./apple.js";
import { DiscordProvider } from "./discord.js";
import { DropboxProvider } from "./dropbox.js";
import { FacebookProvider } from "./facebook.js";
import { GitHubProvider } from "./github.js";
import { GitLabProvider } from "./gitlab.js";
import { GoogleProvider } from "./google.js";
import { KickProvider } from "./kick.js";
import { LinkedInProvider } from "./linkedin.js";
import { MicrosoftProvider } from "./microsoft.js";
import { GenericOidcProvider } from "./oidc.js";
import { RedditProvider } from "./reddit.js";
import { RobloxProvider } from "./roblox.js";
import { SpotifyProvider } from "./spotify.js";
import { TikTokProvider } from "./tiktok.js";
import { TwitchProvider } from "./twitch.js";
import { TwitterProvider } from "./twitter.js";
import { VkProvider } from "./vk.js";
import { ZoomProvider } from "./zoom.js";

type Clock = () => Date;

const BUILT_IN: { [K in SocialProviderId]: (options: NonNullable<SocialProvidersOptions[K]>, clock: Clock) => OAuthProvider } = {
  apple: (o, c) => new AppleProvider(o, c),
  discord: (o, c) => new DiscordProvider(o, c),
  facebook: (o, c) => new FacebookProvider(o, c),
  github: (o, c) => new GitHubProvider(o, c),
  microsoft: (o, c) => new MicrosoftProvider(o, c),
  google: (o, c) => new GoogleProvider(o, c),
  spotify: (o, c) => new SpotifyProvider(o, c),
  twitch: (o, c) => new TwitchProvider(o, c),
  twitter: (o, c) => new TwitterProvider(o, c),
  dropbox: (o, c) => new DropboxProvider(o, c),
  kick: (o, c) => new KickProvider(o, c),
  linkedin: (o, c) => new LinkedInProvider(o, c),
  gitlab: (o, c) => new GitLabProvider(o, c),
  tiktok: (o, c) => new TikTokProvider(o, c),
  reddit: (o, c) => new RedditProvider(o, c),
  roblox: (o, c) => new RobloxProvider(o, c),
  vk: (o, c) => new VkProvider(o, c),
  zoom: (o, c) => new ZoomProvider(o, c),
};

/** The configured providers by id, built once at start. */
export function createProviders(options: SocialProvidersOptions, clock: Clock): ReadonlyMap<string, OAuthProvider> {
  const providers = new Map<string, OAuthProvider>();
  for (const id of Object.keys(BUILT_IN) as SocialProviderId[]) {
    const settings = options[id];
    if (settings) providers.set(id, (BUILT_IN[id] as (o: typeof settings, c: Clock) => OAuthProvider)(settings, clock));
  }
  for (const settings of options.oidc) providers.set(settings.id, new GenericOidcProvider(settings, clock));
  return providers;
}

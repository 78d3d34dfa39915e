import { z } from "zod";

/**
 * Options of social sign-in (`socialProviders`) and of linked accounts (`account`). Kept beside options.ts, which
 * includes them, so the provider list and its per-provider settings stay in one readable place.
 */

/** The built-in providers (SPEC.md section 3, "Social providers allowed"). */
export const SOCIAL_PROVIDER_IDS = [
  "apple",
  "discord",
  "facebook",
  "github",
  "microsoft",
  "google",
  "spotify",
  "twitch",
  "twitter",
  "dropbox",
  "kick",
  "linkedin",
  "gitlab",
  "tiktok",
  "reddit",
  "roblox",
  "vk",
  "zoom",
] as const;

export type SocialProviderId = (typeof SOCIAL_PROVIDER_IDS)[number];

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Plain http is accepted for loopback addresses only (tests, local identity providers); anything else is https. */
export function isLoopbackHttp(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" && LOOPBACK_HOSTS.has(parsed.hostname);
  } catch {
    return false;
  }
}

const endpointURL = z
  .string()
  .url()
  .refine((v) => v.startsWith("https://") || isLoopbackHttp(v), "must be an https:// URL (http:// only on localhost)");

/** Every URL a provider talks to, each overridable (tests, self-hosted GitLab, private deployments). */
const endpointsSchema = z.strictObject({
  authorization: endpointURL.optional(),
  token: endpointURL.optional(),
  /** The profile (or OpenID userinfo) endpoint. */
  userInfo: endpointURL.optional(),
  jwks: endpointURL.optional(),
  /** The ID token issuer (OpenID providers); also the discovery base of a generic OpenID provider. */
  issuer: endpointURL.optional(),
});

const providerFields = {
  clientId: z.string().min(1).max(1024),
  /** Apple: the client-secret JWT you generate from your key (it lives at most six months). */
  clientSecret: z.string().min(1).max(8192).optional(),
  /** Scopes requested on top of the provider's defaults. */
  scopes: z.array(z.string().min(1).max(256)).max(50).default([]),
  /** Request only `scopes`, not the provider's defaults. */
  disableDefaultScope: z.boolean().default(false),
  /** Where the provider sends the user back; default `{baseURL}{basePath}/callback/{id}`. */
  redirectURI: z.string().url().optional(),
  endpoints: endpointsSchema.default({}),
  /** Never create a user from this provider: only existing users (and links) may use it. */
  disableSignUp: z.boolean().default(false),
  /** Create users only when the sign-in asked for it (`requestSignUp: true`). */
  disableImplicitSignUp: z.boolean().default(false),
  /** Refuse `idToken` sign-ins (POST /sign-in/social with an ID token) for this provider. */
  disableIdTokenSignIn: z.boolean().default(false),
  /** Further `aud` values accepted on ID tokens posted to /sign-in/social (the client ids of mobile apps). */
  idTokenAudiences: z.array(z.string().min(1).max(1024)).max(20).default([]),
  /** The `prompt` parameter sent to the provider (e.g. "select_account", "consent"). */
  prompt: z.string().min(1).max(64).optional(),
};

const providerSchema = z.strictObject(providerFields);

const providerId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "must be lower-case letters, digits, _ or - (at most 64)")
  .refine((id) => id !== "credential" && !(SOCIAL_PROVIDER_IDS as readonly string[]).includes(id), {
    message: "must not be a built-in provider id or credential",
  });

/** A generic OpenID Connect provider, found by discovery at `{issuer}/.well-known/openid-configuration`. */
const oidcProviderSchema = z.strictObject({
  ...providerFields,
  id: providerId,
  issuer: endpointURL,
  /** Shown to people (defaults to the id). */
  name: z.string().min(1).max(128).optional(),
  /** How the client authenticates at the token endpoint. */
  tokenEndpointAuthMethod: z.enum(["client_secret_basic", "client_secret_post", "none"]).default("client_secret_basic"),
  pkce: z.boolean().default(true),
});

export const socialProvidersSchema = z
  .strictObject({
    apple: providerSchema.optional(),
    discord: providerSchema.optional(),
    facebook: providerSchema.optional(),
    github: providerSchema.optional(),
    microsoft: providerSchema
      .extend({
        /** "common" (any account), "organizations", "consumers", or a tenant id / domain. */
        tenantId: z.string().regex(/^[A-Za-z0-9.-]{1,128}$/).default("common"),
      })
      .optional(),
    google: providerSchema
      .extend({
        /** "offline" (default) also gets a refresh token. */
        accessType: z.enum(["offline", "online"]).default("offline"),
        /** Restrict sign-in to a Google Workspace domain. */
        hd: z.string().min(1).max(253).optional(),
      })
      .optional(),
    spotify: providerSchema.optional(),
    twitch: providerSchema.optional(),
    twitter: providerSchema.optional(),
    dropbox: providerSchema.optional(),
    kick: providerSchema.optional(),
    linkedin: providerSchema.optional(),
    gitlab: providerSchema.optional(),
    tiktok: providerSchema.optional(),
    reddit: providerSchema.optional(),
    roblox: providerSchema.optional(),
    vk: providerSchema.optional(),
    zoom: providerSchema.optional(),
    oidc: z
      .array(oidcProviderSchema)
      .max(50)
      .default([])
      .refine((list) => new Set(list.map((p) => p.id)).size === list.length, "provider ids must be unique"),
  })
  .prefault({});

export const accountOptionsSchema = z
  .strictObject({
    /** Store provider tokens encrypted (AES-256-GCM, key derived from the secret); see oauth/token-vault.ts. */
    encryptOAuthTokens: z.boolean().default(false),
    accountLinking: z
      .strictObject({
        /** Link a provider account to an existing user with the same email (under the rules below). */
        enabled: z.boolean().default(true),
        /** Providers whose email is trusted even when they do not mark it verified. */
        trustedProviders: z.array(z.string().min(1).max(64)).default([]),
        /** Let link-social attach a provider account whose email differs from the user's. */
        allowDifferentEmails: z.boolean().default(false),
        /** Let unlink-account remove a user's last account (they could then no longer sign in). */
        allowUnlinkingAll: z.boolean().default(false),
      })
      .prefault({}),
  })
  .prefault({});

export type SocialProvidersOptions = z.output<typeof socialProvidersSchema>;
export type SocialProviderOptions = z.output<typeof providerSchema>;
export type OidcProviderOptions = z.output<typeof oidcProviderSchema>;
export type AccountOptions = z.output<typeof accountOptionsSchema>;

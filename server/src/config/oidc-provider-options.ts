import { z } from "zod";

/**
 * Options of the OpenID Provider (`oidcProvider`, server/src/oidc-provider/, README "OpenID Provider"), and the rules
 * a client's registration follows wherever it comes from: the configuration file (`trustedClients`), the admin API,
 * the CLI, or dynamic registration.
 */

/** The scopes the provider itself gives a meaning to (README "OpenID Provider"); any other scope is an API's. */
export const STANDARD_SCOPES = ["openid", "profile", "email", "offline_access", "organizations", "active_organization"] as const;

export const CLIENT_TYPES = ["web", "public", "machine"] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

export const CLIENT_GRANT_TYPES = ["authorization_code", "refresh_token", "client_credentials"] as const;
export type ClientGrantType = (typeof CLIENT_GRANT_TYPES)[number];

export const SIGNING_ALGS = ["RS256", "ES256"] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Schemes never accepted as a redirect, whatever the client type. */
const FORBIDDEN_SCHEMES = new Set(["javascript:", "data:", "vbscript:", "blob:", "file:", "about:", "ftp:", "ws:", "wss:"]);

/**
 * Why a redirect URL is refused for a client of this type, or null when it is acceptable. Compared later by exact
 * string (README "OpenID Provider"), so it is checked as written: absolute, no fragment, no user or password.
 * - `web` (confidential, a server): https, or http on a loopback host (development);
 * - `public` (a browser or native app): the same, plus a private-use scheme of the reverse-domain form
 *   (`com.example.app:/callback`, RFC 8252 7.1); its loopback http URLs match on any port (RFC 8252 7.3).
 */
export function redirectURLProblem(url: string, type: ClientType): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be an absolute URL";
  }
  if (url.length > 2048) return "must be at most 2048 characters";
  if (url.includes("#")) return "must not have a fragment";
  if (parsed.username || parsed.password) return "must not hold a user name or password";
  if (FORBIDDEN_SCHEMES.has(parsed.protocol)) return `must not use ${parsed.protocol}`;
  if (/\s/.test(url)) return "must not contain white space";
  if (parsed.protocol === "https:") return null;
  if (parsed.protocol === "http:") {
    return LOOPBACK_HOSTS.has(parsed.hostname) ? null : "must be https:// (http:// only on localhost, 127.0.0.1 or [::1])";
  }
  if (type === "public" && /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(parsed.protocol)) return null;
  return type === "public"
    ? "must be https://, http:// on a loopback host, or a private-use scheme such as com.example.app:/callback"
    : "must be https:// (http:// only on localhost, 127.0.0.1 or [::1])";
}

/** Whether a URL is http on a loopback host (a native app's redirect, matched on any port). */
export function isLoopbackRedirect(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" && LOOPBACK_HOSTS.has(parsed.hostname);
  } catch {
    return false;
  }
}

/** RFC 6749 3.3 scope-token, bounded. */
export const scopeToken = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, "must be a scope token (printable characters, no space, quote or backslash)");

/** An absolute https (or loopback http) URL shown to users: a client's logo, home page, policy or terms. */
export const displayURL = z
  .string()
  .max(2048)
  .url()
  .refine((v) => {
    const p = new URL(v);
    return p.protocol === "https:" || (p.protocol === "http:" && LOOPBACK_HOSTS.has(p.hostname));
  }, "must be an https:// URL (http:// only on localhost)");

/** An API identifier a client's JWT access tokens may be issued for (RFC 8707 resource indicator). */
export const audienceURI = z
  .string()
  .max(2048)
  .refine((v) => {
    try {
      const p = new URL(v);
      return !v.includes("#") && !FORBIDDEN_SCHEMES.has(p.protocol);
    } catch {
      return false;
    }
  }, "must be an absolute URI without a fragment");

export const clientIdSchema = z
  .string()
  .min(3)
  .max(128)
  .regex(/^[A-Za-z0-9._~-]+$/, "must be letters, digits, '.', '_', '~' or '-'");

/** A client declared in the configuration file (README "OpenID Provider", "Clients"). */
export const trustedClientSchema = z
  .strictObject({
    clientId: clientIdSchema,
    /** web and machine clients: 32+ characters, kept hashed in memory; public clients have none. */
    clientSecret: z.string().min(32, "must be at least 32 characters").max(512).optional(),
    name: z.string().trim().min(1).max(128),
    type: z.enum(CLIENT_TYPES),
    redirectURLs: z.array(z.string()).max(50).default([]),
    postLogoutRedirectURLs: z.array(z.string()).max(50).default([]),
    /** First-party: consent is implied (no consent page), offline_access included. */
    skipConsent: z.boolean().default(false),
    grantTypes: z.array(z.enum(CLIENT_GRANT_TYPES)).min(1).optional(),
    scopes: z.array(scopeToken).max(100).optional(),
    accessTokenFormat: z.enum(["opaque", "jwt"]).optional(),
    audience: z.array(audienceURI).max(20).default([]),
    signingAlg: z.enum(SIGNING_ALGS).default("RS256"),
    logoUri: displayURL.optional(),
    clientUri: displayURL.optional(),
    policyUri: displayURL.optional(),
    tosUri: displayURL.optional(),
  })
  .superRefine((client, ctx) => {
    for (const problem of clientProblems(client, { secretGiven: true })) ctx.addIssue({ code: "custom", message: problem.message, path: problem.path });
  });

export type TrustedClientOption = z.output<typeof trustedClientSchema>;

/** What a client's settings must agree on, wherever they come from. */
export interface ClientSettingsToCheck {
  type: ClientType;
  clientSecret?: string | undefined;
  redirectURLs: readonly string[];
  postLogoutRedirectURLs: readonly string[];
  grantTypes?: readonly ClientGrantType[] | undefined;
  scopes?: readonly string[] | undefined;
}

/**
 * The problems of a client's settings, each with the field it is about. `secretGiven`: the secret comes with the
 * settings (the configuration file) rather than being made by the service (admin API, CLI).
 */
export function clientProblems(
  client: ClientSettingsToCheck,
  opts: { secretGiven: boolean },
): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const grants = client.grantTypes ?? defaultGrantTypes(client.type);
  if (client.type === "public" && client.clientSecret !== undefined) {
    problems.push({ path: ["clientSecret"], message: "a public client has no secret" });
  }
  if (opts.secretGiven && client.type !== "public" && client.clientSecret === undefined) {
    problems.push({ path: ["clientSecret"], message: `a ${client.type} client needs a secret` });
  }
  if (client.type === "machine") {
    if (grants.some((g) => g !== "client_credentials")) {
      problems.push({ path: ["grantTypes"], message: "a machine client has the client_credentials grant only" });
    }
    if (client.redirectURLs.length) problems.push({ path: ["redirectURLs"], message: "a machine client has no redirect URLs" });
    if (!client.scopes?.length) problems.push({ path: ["scopes"], message: "a machine client needs the API scopes it may ask for" });
    for (const [i, scope] of (client.scopes ?? []).entries()) {
      if ((STANDARD_SCOPES as readonly string[]).includes(scope)) {
        problems.push({ path: ["scopes", i], message: `"${scope}" is for users; a machine client has API scopes only` });
      }
    }
  } else {
    if (client.type === "public" && grants.includes("client_credentials")) {
      problems.push({ path: ["grantTypes"], message: "a public client cannot use client_credentials" });
    }
    if (!grants.includes("authorization_code")) {
      problems.push({ path: ["grantTypes"], message: `a ${client.type} client needs the authorization_code grant` });
    }
    if (!client.redirectURLs.length) problems.push({ path: ["redirectURLs"], message: "at least one redirect URL is needed" });
  }
  for (const [i, url] of client.redirectURLs.entries()) {
    const problem = redirectURLProblem(url, client.type);
    if (problem) problems.push({ path: ["redirectURLs", i], message: problem });
  }
  for (const [i, url] of client.postLogoutRedirectURLs.entries()) {
    const problem = redirectURLProblem(url, client.type);
    if (problem) problems.push({ path: ["postLogoutRedirectURLs", i], message: problem });
  }
  return problems;
}

/** The grants a client of this type has unless told otherwise. */
export function defaultGrantTypes(type: ClientType): ClientGrantType[] {
  return type === "machine" ? ["client_credentials"] : ["authorization_code", "refresh_token"];
}

/** The scopes a user-facing client may ask for unless told otherwise. */
export const DEFAULT_USER_SCOPES = ["openid", "profile", "email", "offline_access"];

export const oidcProviderOptionsSchema = z
  .strictObject({
    /** On by default; with no client registered nothing is issued. */
    enabled: z.boolean().default(true),
    /** Clients declared here (for teams that keep configuration in git); read-only in the admin API. */
    trustedClients: z
      .array(trustedClientSchema)
      .max(200)
      .default([])
      .refine((list) => new Set(list.map((c) => c.clientId)).size === list.length, "two trusted clients share a clientId"),
    /** Lifetimes, in seconds. */
    accessTokenExpiresIn: z.number().int().min(60).max(86_400).default(3600),
    idTokenExpiresIn: z.number().int().min(60).max(86_400).default(3600),
    refreshTokenExpiresIn: z.number().int().min(300).max(31_536_000).default(2_592_000),
    codeExpiresIn: z.number().int().min(10).max(600).default(60),
    /** How long a user has to sign in and consent once an application sent them here. */
    interactionExpiresIn: z.number().int().min(60).max(86_400).default(3600),
    /** Seconds a signing key that rotation retired stays in the JWKS, so tokens it signed stay verifiable. */
    keyRotationOverlap: z.number().int().min(0).max(31_536_000).default(604_800),
    /**
     * Seconds a rotated-in key is published before it signs, so relying parties that cached the JWKS (openid-client
     * for a minute, jose's remote key sets up to ten) know it before they meet a token it signed.
     */
    keyActivationDelay: z.number().int().min(0).max(86_400).default(600),
    /** RFC 7591 registration at /oauth2/register: off by default. */
    dynamicClientRegistration: z
      .strictObject({
        enabled: z.boolean().default(false),
        /** When set, a registration must carry it as a bearer token (RFC 7591 initial access token). */
        initialAccessToken: z.string().min(32, "must be at least 32 characters").max(512).optional(),
      })
      .prefault({}),
    /** The web app's pages the provider sends the browser to (relative to email.appURL or BASE_URL). */
    loginPage: z.string().regex(/^\/[^/\\]/, "must be a path starting with /").max(256).default("/sign-in"),
    consentPage: z.string().regex(/^\/[^/\\]/, "must be a path starting with /").max(256).default("/oauth/consent"),
  })
  .prefault({});

export type OidcProviderOptions = z.output<typeof oidcProviderOptionsSchema>;

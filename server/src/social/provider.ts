import { OAuthBodyError } from "./errors.js";

/**
 * The contract every sign-in provider fulfils. Per-flow values (state, PKCE verifier, nonce, scopes, redirect URI)
 * are passed in and never kept by the provider; a provider instance holds only its settled configuration.
 */

/** A provider's user, mapped to the fields of our user (SPEC.md section 3). */
export interface ProviderUser {
  /** The provider's stable id for the user (stored as account.accountId). */
  id: string;
  /** Null when the provider shared none. */
  email: string | null;
  emailVerified: boolean;
  name: string;
  image: string | null;
}

export interface ProviderProfile {
  user: ProviderUser;
  /** What the provider answered, as it answered it (GET /account-info returns it as `data`). */
  data: Record<string, unknown>;
}

export interface OAuthTokens {
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Date | null;
  refreshTokenExpiresAt: Date | null;
  scopes: string[];
  /** The ID token's claims, once verified (signature, iss, aud, exp, nonce); null without an ID token. */
  claims: Record<string, unknown> | null;
  /** The whole token response: some providers put the user's id or email there (TikTok, VK). */
  raw: Record<string, unknown>;
}

export interface AuthorizationInput {
  state: string;
  /** 128 characters; sent as an S256 challenge by providers that take PKCE. */
  codeVerifier: string;
  /** Set for OpenID providers: bound into the ID token and checked on return. */
  nonce: string | null;
  redirectURI: string;
  scopes: readonly string[];
  loginHint?: string | undefined;
}

/** What the provider sent back to /callback/{id}, already checked against the stored state. */
export interface CallbackInput {
  code: string;
  state: string;
  codeVerifier: string;
  nonce: string | null;
  redirectURI: string;
  /** RFC 9207 issuer identifier, when the provider sends one. */
  iss?: string | undefined;
  /** VK ID: the device the user signed in on (required at the token endpoint). */
  deviceId?: string | undefined;
  /** Apple: the `user` JSON posted on the first sign-in only (the user's name). */
  user?: string | undefined;
}

/** An ID token handed to POST /sign-in/social by a client that signed the user in itself (mobile, One Tap). */
export interface IdTokenInput {
  token: string;
  nonce?: string | undefined;
  /** Apple: the name a native app received on the first sign-in. */
  user?: { name?: { firstName?: string | undefined; lastName?: string | undefined } | undefined } | undefined;
}

export interface OAuthProvider {
  readonly id: string;
  readonly name: string;
  /** Whether the authorization request carries a nonce (OpenID providers). */
  readonly usesNonce: boolean;
  /** The scopes asked for when the caller names none besides. */
  readonly defaultScopes: readonly string[];
  readonly settings: ProviderSettings;
  createAuthorizationURL(input: AuthorizationInput): Promise<URL>;
  /** Exchanges the code for tokens (ID tokens are verified here: signature, iss, aud, exp, nonce). */
  validateAuthorizationCode(input: CallbackInput): Promise<OAuthTokens>;
  getUserProfile(tokens: OAuthTokens, callback?: Pick<CallbackInput, "user">): Promise<ProviderProfile>;
  /** Absent when the provider has no refresh grant. */
  refreshAccessToken?(refreshToken: string): Promise<OAuthTokens>;
  /** Absent when the provider issues no ID tokens. Verifies the token and maps its claims. */
  verifyIdToken?(input: IdTokenInput): Promise<ProviderProfile>;
}

/** The per-provider policy the flows read (from the provider's options). */
export interface ProviderSettings {
  scopes: readonly string[];
  disableDefaultScope: boolean;
  redirectURI: string | undefined;
  disableSignUp: boolean;
  disableImplicitSignUp: boolean;
  disableIdTokenSignIn: boolean;
}

/**
 * The address given to users of providers that never share one (TikTok, Reddit, Roblox; X without the email
 * permission): `{accountId}@{provider}.invalid`. The `.invalid` top-level domain is reserved (RFC 2606), so it can
 * never receive mail or belong to anyone else; it is stored unverified and so never links to another user.
 */
export function placeholderEmail(providerId: string, accountId: string): string {
  return `${accountId.toLowerCase().replace(/[^a-z0-9._-]/g, "-")}@${providerId}.invalid`;
}

export function isPlaceholderEmail(email: string): boolean {
  return email.endsWith(".invalid");
}

/** Splits a scope string on spaces or commas (GitHub and TikTok answer comma-separated scopes). */
export function splitScopes(scope: unknown): string[] {
  return typeof scope === "string" ? scope.split(/[\s,]+/).filter(Boolean) : [];
}

/** `given family` from the parts a provider sent, skipping the missing ones. */
export function joinName(...parts: (string | null | undefined)[]): string {
  return parts.filter((p): p is string => typeof p === "string" && p.trim() !== "").join(" ").trim();
}

export const asString = (value: unknown): string | null =>
  typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : null;

export const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The provider's id for the user, which every profile must carry (a number is kept as its decimal string). */
export function requireId(providerId: string, value: unknown): string {
  const id = asString(value);
  if (!id) throw new OAuthBodyError(providerId, `${providerId} answered a profile without a user id`);
  return id;
}

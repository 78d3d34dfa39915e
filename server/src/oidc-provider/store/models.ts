import type { ClientGrantType, ClientType, SigningAlg } from "../../config/oidc-provider-options.js";

/** A client of the OpenID Provider, independent of where it is kept (table, configuration file). */
export interface OidcClient {
  clientId: string;
  name: string;
  type: ClientType;
  /** "sha256:…" of the secret; null for public clients. */
  secretHash: string | null;
  secretCreatedAt: Date | null;
  redirectURLs: string[];
  postLogoutRedirectURLs: string[];
  scopes: string[];
  grantTypes: ClientGrantType[];
  audience: string[];
  skipConsent: boolean;
  accessTokenFormat: "opaque" | "jwt";
  signingAlg: SigningAlg;
  logoUri: string | null;
  clientUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
  disabled: boolean;
  /** "config": declared in the configuration file (never in the table). */
  source: "admin" | "registration" | "config";
  createdAt: Date;
  updatedAt: Date;
}

/** One stored oidc-provider entity (adapter.ts). */
export interface StoredPayload {
  key: string;
  model: string;
  payload: Record<string, unknown>;
  grantId: string | null;
  uid: string | null;
  accountId: string | null;
  clientId: string | null;
  expiresAt: Date | null;
  consumedAt: Date | null;
}

/** A signing key as stored: the private half still sealed. */
export interface StoredSigningKey {
  kid: string;
  alg: SigningAlg;
  publicKey: Record<string, unknown>;
  privateKey: string;
  createdAt: Date;
  retiredAt: Date | null;
  expiresAt: Date | null;
}

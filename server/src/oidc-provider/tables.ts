import type { OrganizationTables } from "../organization/tables.js";
import type { TableSpecs } from "../storage/expected-schema.js";
import type { Database, DbBool, DbDate } from "../storage/schema.js";

/**
 * The OpenID Provider's tables (README "OpenID Provider"): the clients registered through the admin API, the CLI or
 * dynamic registration (those of the configuration file live in memory); everything oidc-provider keeps (tokens,
 * codes, grants, its sessions and interactions: the adapter, adapter.ts); and the signing keys, sealed.
 */
export interface OidcClientTable {
  clientId: string;
  name: string;
  /** "web" (confidential), "public" (no secret, PKCE) or "machine" (client credentials only). */
  type: string;
  /** "sha256:" + base64url(SHA-256(secret)); null for public clients. The secret itself is shown once. */
  secretHash: string | null;
  secretCreatedAt: DbDate | null;
  /** JSON arrays of strings. */
  redirectURLs: string;
  postLogoutRedirectURLs: string;
  scopes: string;
  grantTypes: string;
  audience: string;
  skipConsent: DbBool;
  /** "opaque" or "jwt". */
  accessTokenFormat: string;
  /** "RS256" or "ES256": ID tokens and JWT access tokens. */
  signingAlg: string;
  logoUri: string | null;
  clientUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
  disabled: DbBool;
  /** "admin" (admin API or CLI) or "registration" (RFC 7591). */
  source: string;
  createdAt: DbDate;
  updatedAt: DbDate;
}

/**
 * One row per thing oidc-provider stores (adapter.ts): `model` is its kind (AccessToken, RefreshToken,
 * AuthorizationCode, ClientCredentials, Grant, Session, Interaction, ReplayDetection, ...). The key of a token is
 * the SHA-256 of its value, never the value, and the stored payload holds no copy of it.
 */
export interface OidcPayloadTable {
  /** `{model}:{id}`, the id hashed for tokens. */
  key: string;
  model: string;
  /** JSON. */
  payload: string;
  grantId: string | null;
  /** A Session's uid. */
  uid: string | null;
  /** The user (accountId) and client a grant or token belongs to, for listings and clean-up. */
  accountId: string | null;
  clientId: string | null;
  expiresAt: DbDate | null;
  /** Set once, atomically, when a code or refresh token is used. */
  consumedAt: DbDate | null;
}

/** The provider's signing keys (RS256 and ES256), the private half sealed with a key derived from the secret. */
export interface OidcSigningKeyTable {
  kid: string;
  alg: string;
  /** JSON public JWK. */
  publicKey: string;
  /** Sealed private JWK (secrets.ts). */
  privateKey: string;
  createdAt: DbDate;
  /** Null: signs. Set by rotation: verifies only, published until expiresAt. */
  retiredAt: DbDate | null;
  expiresAt: DbDate | null;
}

export interface OidcTables {
  oidcClient: OidcClientTable;
  oidcPayload: OidcPayloadTable;
  oidcSigningKey: OidcSigningKeyTable;
}

const text = { type: "text" } as const;
const requiredText = { type: "text", notNull: true } as const;
const date = { type: "date" } as const;
const requiredDate = { type: "date", notNull: true } as const;

export const OIDC_TABLE_SPECS: TableSpecs<OidcTables> = {
  oidcClient: {
    columns: {
      clientId: requiredText,
      name: requiredText,
      type: requiredText,
      secretHash: text,
      secretCreatedAt: date,
      redirectURLs: requiredText,
      postLogoutRedirectURLs: requiredText,
      scopes: requiredText,
      grantTypes: requiredText,
      audience: requiredText,
      skipConsent: { type: "bool", notNull: true },
      accessTokenFormat: requiredText,
      signingAlg: requiredText,
      logoUri: text,
      clientUri: text,
      policyUri: text,
      tosUri: text,
      disabled: { type: "bool", notNull: true },
      source: requiredText,
      createdAt: requiredDate,
      updatedAt: requiredDate,
    },
    indexes: [],
  },
  oidcPayload: {
    columns: {
      key: requiredText,
      model: requiredText,
      payload: requiredText,
      grantId: text,
      uid: text,
      accountId: text,
      clientId: text,
      expiresAt: date,
      consumedAt: date,
    },
    indexes: [
      { name: "oidcPayload_grantId_idx", columns: ["grantId"] },
      { name: "oidcPayload_uid_idx", columns: ["uid"], onlyNotNull: true },
      // A user's grant for a client, found at every authorization (migrations/0020-oidc-grant-lookup-index.ts).
      { name: "oidcPayload_accountId_model_clientId_idx", columns: ["accountId", "model", "clientId"] },
      { name: "oidcPayload_clientId_idx", columns: ["clientId"] },
      { name: "oidcPayload_expiresAt_idx", columns: ["expiresAt"] },
    ],
  },
  oidcSigningKey: {
    columns: {
      kid: requiredText,
      alg: requiredText,
      publicKey: requiredText,
      privateKey: requiredText,
      createdAt: requiredDate,
      retiredAt: date,
      expiresAt: date,
    },
    indexes: [],
  },
};

/** What the module's store reads: its tables, the core ones, and the organizations (the `organizations` claim). */
export interface OidcDatabase extends Database, OrganizationTables, OidcTables {}

import {
  DEFAULT_USER_SCOPES,
  defaultGrantTypes,
  isLoopbackRedirect,
  STANDARD_SCOPES,
  type ClientGrantType,
  type ClientType,
  type TrustedClientOption,
} from "../config/oidc-provider-options.js";
import { hashClientSecret } from "./secrets.js";
import type { OidcClient } from "./store/index.js";

/** Our settings of a client, carried to oidc-provider in one extra metadata property (extraClientMetadata). */
export interface GatehouseClientMetadata {
  type: ClientType;
  /** Every scope the client may ask for, the APIs' included (oidc-provider's `scope` holds the standard ones only). */
  scopes: string[];
  skipConsent: boolean;
  accessTokenFormat: "opaque" | "jwt";
  audience: string[];
  source: OidcClient["source"];
}

export const GATEHOUSE_METADATA = "gatehouse";

/** A client declared in the configuration file, as a client (its secret hashed like any other). */
export function configClient(option: TrustedClientOption, startedAt: Date): OidcClient {
  const scopes = option.scopes ?? (option.type === "machine" ? [] : DEFAULT_USER_SCOPES);
  return {
    clientId: option.clientId,
    name: option.name,
    type: option.type,
    secretHash: option.clientSecret === undefined ? null : hashClientSecret(option.clientSecret),
    secretCreatedAt: option.clientSecret === undefined ? null : startedAt,
    redirectURLs: [...option.redirectURLs],
    postLogoutRedirectURLs: [...option.postLogoutRedirectURLs],
    scopes: [...scopes],
    grantTypes: [...(option.grantTypes ?? defaultGrantTypes(option.type))],
    audience: [...option.audience],
    skipConsent: option.skipConsent,
    accessTokenFormat: option.accessTokenFormat ?? (option.type === "machine" ? "jwt" : "opaque"),
    signingAlg: option.signingAlg,
    logoUri: option.logoUri ?? null,
    clientUri: option.clientUri ?? null,
    policyUri: option.policyUri ?? null,
    tosUri: option.tosUri ?? null,
    disabled: false,
    source: "config",
    createdAt: startedAt,
    updatedAt: startedAt,
  };
}

/** A native app's redirects (loopback http on any port, or a private-use scheme): RFC 8252 applies. */
function isNative(client: OidcClient): boolean {
  return client.type === "public" && client.redirectURLs.some((url) => isLoopbackRedirect(url) || !/^https?:/.test(url));
}

/** The client as oidc-provider's metadata (RFC 7591 names). */
export function engineMetadata(client: OidcClient): Record<string, unknown> {
  const gatehouse: GatehouseClientMetadata = {
    type: client.type,
    scopes: client.scopes,
    skipConsent: client.skipConsent,
    accessTokenFormat: client.accessTokenFormat,
    audience: client.audience,
    source: client.source,
  };
  const metadata: Record<string, unknown> = {
    client_id: client.clientId,
    client_name: client.name,
    redirect_uris: client.redirectURLs,
    post_logout_redirect_uris: client.postLogoutRedirectURLs,
    grant_types: client.grantTypes,
    response_types: client.grantTypes.includes("authorization_code") ? ["code"] : [],
    token_endpoint_auth_method: client.type === "public" ? "none" : "client_secret_basic",
    application_type: isNative(client) ? "native" : "web",
    scope: client.scopes.filter((s) => (STANDARD_SCOPES as readonly string[]).includes(s)).join(" ") || "openid",
    id_token_signed_response_alg: client.signingAlg,
    [GATEHOUSE_METADATA]: gatehouse,
  };
  if (client.secretHash) metadata.client_secret = client.secretHash;
  if (client.logoUri) metadata.logo_uri = client.logoUri;
  if (client.clientUri) metadata.client_uri = client.clientUri;
  if (client.policyUri) metadata.policy_uri = client.policyUri;
  if (client.tosUri) metadata.tos_uri = client.tosUri;
  return metadata;
}

const stringList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
const optionalString = (value: unknown): string | null => (typeof value === "string" && value ? value : null);

/**
 * A client registered by RFC 7591 (oidc-provider's metadata, after its own validation) as our client row: never
 * first-party, opaque access tokens, the user scopes only. The secret oidc-provider made is kept hashed.
 */
export function registeredClient(metadata: Record<string, unknown>, now: Date): OidcClient {
  const secret = optionalString(metadata.client_secret);
  const publicClient = metadata.token_endpoint_auth_method === "none";
  const scope = optionalString(metadata.scope);
  const grants = stringList(metadata.grant_types).filter((g): g is ClientGrantType =>
    g === "authorization_code" || g === "refresh_token",
  );
  return {
    clientId: String(metadata.client_id),
    name: optionalString(metadata.client_name) ?? String(metadata.client_id),
    type: publicClient ? "public" : "web",
    secretHash: secret ? (secret.startsWith("sha256:") ? secret : hashClientSecret(secret)) : null,
    secretCreatedAt: secret ? now : null,
    redirectURLs: stringList(metadata.redirect_uris),
    postLogoutRedirectURLs: stringList(metadata.post_logout_redirect_uris),
    scopes: scope ? scope.split(" ").filter((s) => (STANDARD_SCOPES as readonly string[]).includes(s)) : [...DEFAULT_USER_SCOPES],
    grantTypes: grants.length ? grants : ["authorization_code"],
    audience: [],
    skipConsent: false,
    accessTokenFormat: "opaque",
    signingAlg: metadata.id_token_signed_response_alg === "ES256" ? "ES256" : "RS256",
    logoUri: optionalString(metadata.logo_uri),
    clientUri: optionalString(metadata.client_uri),
    policyUri: optionalString(metadata.policy_uri),
    tosUri: optionalString(metadata.tos_uri),
    disabled: false,
    source: "registration",
    createdAt: now,
    updatedAt: now,
  };
}

/** Our settings from a client oidc-provider built. */
export function gatehouseSettings(client: { [key: string]: unknown }): GatehouseClientMetadata {
  const value = client[GATEHOUSE_METADATA] as Partial<GatehouseClientMetadata> | undefined;
  return {
    type: value?.type ?? "web",
    scopes: Array.isArray(value?.scopes) ? value.scopes : String(client.scope ?? "").split(" ").filter(Boolean),
    skipConsent: value?.skipConsent === true,
    accessTokenFormat: value?.accessTokenFormat === "jwt" ? "jwt" : "opaque",
    audience: Array.isArray(value?.audience) ? value.audience : [],
    source: value?.source ?? "registration",
  };
}

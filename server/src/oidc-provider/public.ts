import { z } from "zod";
import { CLIENT_GRANT_TYPES, CLIENT_TYPES, SIGNING_ALGS } from "../config/oidc-provider-options.js";
import type { OidcClient } from "./store/index.js";

/** A client as the admin API shows it: everything but its secret (and the secret's hash). */
export const oidcClientSchema = z
  .object({
    clientId: z.string(),
    name: z.string(),
    type: z.enum(CLIENT_TYPES),
    redirectURLs: z.array(z.string()),
    postLogoutRedirectURLs: z.array(z.string()),
    scopes: z.array(z.string()).describe("The scopes the client may ask for"),
    grantTypes: z.array(z.enum(CLIENT_GRANT_TYPES)),
    skipConsent: z.boolean().describe("First-party: consent is implied"),
    accessTokenFormat: z.enum(["opaque", "jwt"]),
    audience: z.array(z.string()).describe("The APIs (resource indicators) its JWT access tokens may be issued for"),
    signingAlg: z.enum(SIGNING_ALGS),
    logoUri: z.string().nullable(),
    clientUri: z.string().nullable(),
    policyUri: z.string().nullable(),
    tosUri: z.string().nullable(),
    disabled: z.boolean(),
    source: z.enum(["admin", "config", "registration"]).describe("config: declared in the configuration file, read-only here"),
    hasSecret: z.boolean(),
    secretCreatedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "OidcClient", description: "A client of the OpenID Provider, never with its secret" });

export function publicClient(client: OidcClient) {
  return {
    clientId: client.clientId,
    name: client.name,
    type: client.type,
    redirectURLs: client.redirectURLs,
    postLogoutRedirectURLs: client.postLogoutRedirectURLs,
    scopes: client.scopes,
    grantTypes: client.grantTypes,
    skipConsent: client.skipConsent,
    accessTokenFormat: client.accessTokenFormat,
    audience: client.audience,
    signingAlg: client.signingAlg,
    logoUri: client.logoUri,
    clientUri: client.clientUri,
    policyUri: client.policyUri,
    tosUri: client.tosUri,
    disabled: client.disabled,
    source: client.source,
    hasSecret: client.secretHash !== null,
    secretCreatedAt: client.secretCreatedAt?.toISOString() ?? null,
    createdAt: client.createdAt.toISOString(),
    updatedAt: client.updatedAt.toISOString(),
  };
}

/** What a user gave one application (all their grants to it, together). */
export const oidcGrantSchema = z
  .object({
    clientId: z.string(),
    clientName: z.string(),
    logoUri: z.string().nullable(),
    clientUri: z.string().nullable(),
    scopes: z.array(z.string()).describe("Everything the user allowed the application"),
    createdAt: z.iso.datetime().describe("When the user first allowed it"),
    updatedAt: z.iso.datetime().describe("The last authorization that renewed it"),
  })
  .meta({ id: "OidcGrant", description: "An application the user signed in to with this account, and what it may access" });

export const redirectAnswerSchema = z.object({ redirect: z.literal(true), url: z.string() });

import { z } from "zod";
import {
  audienceURI,
  CLIENT_GRANT_TYPES,
  CLIENT_TYPES,
  clientIdSchema,
  clientProblems,
  DEFAULT_USER_SCOPES,
  defaultGrantTypes,
  displayURL,
  scopeToken,
  SIGNING_ALGS,
} from "../config/oidc-provider-options.js";
import { randomString } from "../crypto/random.js";
import { APIError, fillMessage } from "../http/errors.js";
import { HTTP_FIXED_CODES } from "../http/messages.js";
import { OIDC_MESSAGES } from "./messages.js";
import { hashClientSecret, newClientSecret } from "./secrets.js";
import type { OidcClient, OidcRepositories } from "./store/index.js";

/**
 * Registering, changing and removing clients: one set of rules for the admin API and the CLI (README "OpenID
 * Provider", "Clients"). A secret is made here, returned once, and stored as its hash.
 */
const urlList = z.array(z.string().max(2048)).max(50);

const settingsFields = {
  name: z.string().trim().min(1).max(128),
  redirectURLs: urlList.optional(),
  postLogoutRedirectURLs: urlList.optional(),
  scopes: z.array(scopeToken).max(100).optional(),
  grantTypes: z.array(z.enum(CLIENT_GRANT_TYPES)).min(1).max(3).optional(),
  skipConsent: z.boolean().optional(),
  accessTokenFormat: z.enum(["opaque", "jwt"]).optional(),
  audience: z.array(audienceURI).max(20).optional(),
  signingAlg: z.enum(SIGNING_ALGS).optional(),
  logoUri: displayURL.nullable().optional(),
  clientUri: displayURL.nullable().optional(),
  policyUri: displayURL.nullable().optional(),
  tosUri: displayURL.nullable().optional(),
};

export const createClientInput = z.object({
  ...settingsFields,
  type: z.enum(CLIENT_TYPES),
  /** Unset: a random one. */
  clientId: clientIdSchema.optional(),
});
export type CreateClientInput = z.output<typeof createClientInput>;

export const updateClientInput = z.object({
  clientId: clientIdSchema,
  ...settingsFields,
  name: settingsFields.name.optional(),
  disabled: z.boolean().optional(),
});
export type UpdateClientInput = z.output<typeof updateClientInput>;

/** The problems of the settings as VALIDATION_ERROR issues (the route's schema checked each field already). */
function check(client: OidcClient): void {
  const problems = clientProblems(client, { secretGiven: false });
  if (problems.length) {
    throw new APIError("BAD_REQUEST", fillMessage(HTTP_FIXED_CODES.VALIDATION_ERROR, { source: "body" }), {
      code: "VALIDATION_ERROR",
      extra: { issues: problems.map((p) => ({ path: ["body", ...p.path.map(String)].join("."), message: p.message })) },
    });
  }
}

export async function createClient(
  stores: OidcRepositories,
  configClients: ReadonlyMap<string, OidcClient>,
  input: CreateClientInput,
  now: Date,
): Promise<{ client: OidcClient; clientSecret: string | null }> {
  const clientId = input.clientId ?? `gh_${randomString(24)}`;
  if (configClients.has(clientId) || (await stores.oidcClients.findClient(clientId))) {
    throw new APIError(409, OIDC_MESSAGES.OIDC_CLIENT_ID_IS_TAKEN);
  }
  const secret = input.type === "public" ? null : newClientSecret();
  const client: OidcClient = {
    clientId,
    name: input.name,
    type: input.type,
    secretHash: secret ? hashClientSecret(secret) : null,
    secretCreatedAt: secret ? now : null,
    redirectURLs: input.redirectURLs ?? [],
    postLogoutRedirectURLs: input.postLogoutRedirectURLs ?? [],
    scopes: input.scopes ?? (input.type === "machine" ? [] : [...DEFAULT_USER_SCOPES]),
    grantTypes: input.grantTypes ?? defaultGrantTypes(input.type),
    audience: input.audience ?? [],
    skipConsent: input.skipConsent ?? false,
    accessTokenFormat: input.accessTokenFormat ?? (input.type === "machine" ? "jwt" : "opaque"),
    signingAlg: input.signingAlg ?? "RS256",
    logoUri: input.logoUri ?? null,
    clientUri: input.clientUri ?? null,
    policyUri: input.policyUri ?? null,
    tosUri: input.tosUri ?? null,
    disabled: false,
    source: "admin",
    createdAt: now,
    updatedAt: now,
  };
  check(client);
  try {
    await stores.oidcClients.insertClient(client);
  } catch (error) {
    // Two creations of the same id at once: the primary key decides.
    if (await stores.oidcClients.findClient(clientId)) throw new APIError(409, OIDC_MESSAGES.OIDC_CLIENT_ID_IS_TAKEN);
    throw error;
  }
  return { client, clientSecret: secret };
}

/** A stored client the admin API may change; 404 when unknown, 403 for a client of the configuration file. */
export async function changeableClient(
  stores: OidcRepositories,
  configClients: ReadonlyMap<string, OidcClient>,
  clientId: string,
): Promise<OidcClient> {
  if (configClients.has(clientId)) throw new APIError("FORBIDDEN", OIDC_MESSAGES.OIDC_CLIENT_IS_DECLARED_IN_THE_CONFIGURATION);
  const client = await stores.oidcClients.findClient(clientId);
  if (!client) throw new APIError("NOT_FOUND", OIDC_MESSAGES.OIDC_CLIENT_NOT_FOUND);
  return client;
}

/** The fields an update changes (for the log and the event). */
export function applyUpdate(client: OidcClient, input: UpdateClientInput, now: Date): { client: OidcClient; fields: string[] } {
  const next: OidcClient = { ...client };
  const fields: string[] = [];
  for (const key of Object.keys(input) as (keyof UpdateClientInput)[]) {
    if (key === "clientId" || input[key] === undefined) continue;
    (next as unknown as Record<string, unknown>)[key] = input[key];
    fields.push(key);
  }
  next.updatedAt = now;
  check(next);
  return { client: next, fields };
}

export async function rotateClientSecret(
  stores: OidcRepositories,
  client: OidcClient,
  now: Date,
): Promise<{ client: OidcClient; clientSecret: string }> {
  if (client.type === "public") throw new APIError("BAD_REQUEST", OIDC_MESSAGES.PUBLIC_CLIENTS_HAVE_NO_SECRET);
  const clientSecret = newClientSecret();
  const next = { ...client, secretHash: hashClientSecret(clientSecret), secretCreatedAt: now, updatedAt: now };
  if (!(await stores.oidcClients.updateClient(next))) throw new APIError("NOT_FOUND", OIDC_MESSAGES.OIDC_CLIENT_NOT_FOUND);
  return { client: next, clientSecret };
}

/** Removes a client with its grants and tokens (call inside a transaction); false when it was gone. */
export async function deleteClient(stores: OidcRepositories, clientId: string): Promise<boolean> {
  const deleted = await stores.oidcClients.deleteClient(clientId);
  await stores.oidcPayloads.deleteClientPayloads(clientId);
  return deleted;
}

/** Every client: the configuration file's first, then the table's, oldest first. */
export async function listAllClients(stores: OidcRepositories, configClients: ReadonlyMap<string, OidcClient>): Promise<OidcClient[]> {
  return [...configClients.values(), ...(await stores.oidcClients.listClients())];
}

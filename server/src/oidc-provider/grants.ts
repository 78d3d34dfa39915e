import type { OidcRepositories } from "./store/index.js";
import type { OidcService } from "./service.js";

/** How long a grant lives from its last authorization (service.ts GRANT_LIFE). */
export const GRANT_LIFE = 365 * 86_400;
/** An authorization that changes nothing in a grant renewed less than this long ago (seconds) leaves it as it is. */
export const GRANT_REWRITE_AFTER = 86_400;

/**
 * Sets a grant to expire GRANT_LIFE from `now` (its next save writes that). oidc-provider sets a grant's expiry only
 * when it is made (its Grant model has an `expiresIn`, so save() leaves `exp` alone): without this a grant lived a
 * year from its first authorization, whatever came after.
 */
export function renewGrant(grant: object, now: Date): void {
  (grant as { exp?: number }).exp = Math.floor(now.getTime() / 1000) + GRANT_LIFE;
}

export interface GrantView {
  clientId: string;
  clientName: string;
  logoUri: string | null;
  clientUri: string | null;
  scopes: string[];
  createdAt: string;
  updatedAt: string;
}

/** Every scope a stored grant holds: its OpenID scopes and each API's. */
function grantScopes(payload: Record<string, unknown>): string[] {
  const scopes = new Set<string>();
  const openid = payload.openid as { scope?: unknown } | undefined;
  if (typeof openid?.scope === "string") for (const s of openid.scope.split(" ")) if (s) scopes.add(s);
  const resources = payload.resources as Record<string, unknown> | undefined;
  for (const value of Object.values(resources ?? {})) if (typeof value === "string") for (const s of value.split(" ")) if (s) scopes.add(s);
  return [...scopes];
}

/** The applications a user granted, one entry per application (its grants merged), newest first. */
export async function listGrants(service: OidcService, userId: string): Promise<GrantView[]> {
  const stores = service.stores as OidcRepositories;
  const rows = await stores.oidcPayloads.listUserGrants(userId, service.runtime.now());
  const byClient = new Map<string, { scopes: Set<string>; created: number; updated: number }>();
  for (const row of rows) {
    if (!row.clientId) continue;
    const iat = typeof row.payload.iat === "number" ? row.payload.iat * 1000 : Date.now();
    const renewed = row.expiresAt ? row.expiresAt.getTime() - GRANT_LIFE * 1000 : iat;
    const entry = byClient.get(row.clientId) ?? { scopes: new Set<string>(), created: iat, updated: renewed };
    for (const scope of grantScopes(row.payload)) entry.scopes.add(scope);
    entry.created = Math.min(entry.created, iat);
    entry.updated = Math.max(entry.updated, renewed, iat);
    byClient.set(row.clientId, entry);
  }
  const views: GrantView[] = [];
  for (const [clientId, entry] of byClient) {
    const client = await service.findClient(clientId);
    if (!client) continue;
    views.push({
      clientId,
      clientName: client.name,
      logoUri: client.logoUri,
      clientUri: client.clientUri,
      scopes: [...entry.scopes],
      createdAt: new Date(entry.created).toISOString(),
      updatedAt: new Date(entry.updated).toISOString(),
    });
  }
  return views.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.clientId.localeCompare(b.clientId));
}

/**
 * Revokes everything a user granted an application: its grants and every token issued under them (codes, access
 * and refresh tokens), in the caller's transaction. Answers the number of grants revoked.
 */
export async function revokeClientGrants(stores: OidcRepositories, userId: string, clientId: string, now: Date): Promise<number> {
  const ids = await stores.oidcPayloads.userClientGrantIds(userId, clientId, now);
  for (const id of ids) await stores.oidcPayloads.deleteGrantAndTokens(id);
  return ids.length;
}

import { engineMetadata, registeredClient } from "./clients.js";
import type { OidcErrorClass } from "./engine-types.js";
import { tokenKey } from "./secrets.js";
import type { ExtraRow } from "../storage/extra-rows.js";
import type { User } from "../storage/models.js";
import type { OidcClient, OidcRepositories, StoredPayload } from "./store/index.js";

/**
 * oidc-provider's storage over our tables (its adapter interface: upsert, find, findByUid, consume, destroy,
 * revokeByGrantId), on SQLite and PostgreSQL alike:
 * - tokens (codes, access, refresh, client-credentials tokens...) are stored under the SHA-256 of their value, and
 *   their payload keeps no copy of it: a copy of the table holds no usable token;
 * - expired rows are never answered (and swept hourly);
 * - consume marks a code or refresh token used in one conditional statement: of two requests presenting it at once
 *   only one gets it; the other fails with invalid_grant and the whole grant (every token issued under it) is
 *   revoked, as oidc-provider does itself when it sees a code or refresh token used a second time. At the token
 *   endpoint that statement is the one that writes the response's tokens (deferConsume, service.ts);
 * - a code, access or refresh token is read with its grant and its user in one statement, which the request's
 *   next reads (Grant.find, findAccount) take instead of reading again (RequestReads);
 * - clients come from the configuration file (static, given to oidc-provider directly) or the oidcClient table;
 * - the rows of a token endpoint response (its access, refresh or client-credentials token) are held, not written:
 *   service.ts writes them once the response is built, with its security event, in one statement (IssuedTokens).
 */
const TOKEN_MODELS = new Set([
  "AccessToken",
  "RefreshToken",
  "AuthorizationCode",
  "ClientCredentials",
  "DeviceCode",
  "BackchannelAuthenticationRequest",
  "RegistrationAccessToken",
  "InitialAccessToken",
  "PushedAuthorizationRequest",
]);

/**
 * Only the token endpoint saves these (the provider issues no token from the authorization endpoint: `code` is its
 * one response type), always after naming the token in its context (`ctx.oidc.entity`).
 */
const ISSUED_MODELS = new Set(["AccessToken", "RefreshToken", "ClientCredentials"]);

/**
 * The tokens whose grant and user are read with them (findTokenBundle): what the token endpoint (a code or a refresh
 * token) and userinfo (an access token) find first, before the grant and the user.
 */
const BUNDLED_MODELS = new Set(["AuthorizationCode", "RefreshToken", "AccessToken"]);

/**
 * What one request read with a token (its grant, its user), for the reads that follow in the same request: a
 * token request reads the token, then its grant, then its user, and those two come with the first read. Kept on
 * the request only; any write of a key through the adapter drops it.
 */
export interface RequestReads {
  payloads: Map<string, StoredPayload>;
  users: Map<string, User>;
  /**
   * The code or refresh token this token request spends, marked used with its response's rows (service.ts
   * commitTokenResponse) rather than on its own: one statement fewer, and a token marked used always has its
   * response's tokens written.
   */
  consume?: { key: string; model: string };
}

/** Rows held at once at most: more means some were never taken (a token saved outside a token response). */
const MAX_HELD = 10_000;

/**
 * The new rows of token endpoint responses, by token id, from the adapter's upsert until the response is built:
 * the token endpoint's hook (service.ts) takes its response's rows by the ids of the tokens its context names and
 * writes them, with the response's security event, in one statement, so the event exists if and only if the tokens
 * do; a response that fails drops them (nothing was handed out). A token row nobody takes is never written: the
 * token does not work (so a save outside a token response fails closed, and MAX_HELD bounds the memory).
 */
export class IssuedTokens {
  private readonly rows = new Map<string, StoredPayload>();

  hold(id: string, row: StoredPayload): void {
    if (this.rows.size >= MAX_HELD) this.rows.delete(this.rows.keys().next().value!);
    this.rows.set(id, row);
  }

  /** The rows held for these token ids (removed from here). */
  take(ids: readonly (string | undefined)[]): StoredPayload[] {
    const taken: StoredPayload[] = [];
    for (const id of ids) {
      const row = id === undefined ? undefined : this.rows.get(id);
      if (!row) continue;
      this.rows.delete(id!);
      taken.push(row);
    }
    return taken;
  }

  get size(): number {
    return this.rows.size;
  }
}

/** A grant revoked because one of its codes or refresh tokens was used twice: whose it was (the security event). */
export interface RevokedGrant {
  grantId: string;
  accountId: string | null;
  clientId: string | null;
  /** Its security event was written with the revocation (AdapterDeps.revokedGrantRows), in the same transaction. */
  eventWritten?: boolean;
}

export interface AdapterDeps {
  stores: OidcRepositories;
  now(): Date;
  InvalidGrant: OidcErrorClass;
  /** A stored client, or null (the configuration's clients are given to oidc-provider directly). */
  findStoredClient(clientId: string): Promise<OidcClient | null>;
  /** Called after a registered client is written (dynamic registration). */
  onClientRegistered?(client: OidcClient): void;
  /** Called when a grant is destroyed (oidc-provider's revocation of a replayed code's or refresh token's grant). */
  onGrantDestroyed?(revoked: RevokedGrant): void;
  /**
   * The rows to write with a grant revoked for a replay (its oidc_grant.revoked event, from the request that
   * revokes it), in the revocation's transaction: the event exists if and only if the revocation was committed.
   */
  revokedGrantRows?(revoked: RevokedGrant): readonly ExtraRow[];
  /** The rows to write with a token deleted by a client's revocation (its oidc_token.revoked event), by token id. */
  revokedTokenRows?(id: string): readonly ExtraRow[];
  /** Where the token endpoint's new rows wait for its response (absent: written at once). */
  issued?: IssuedTokens;
  /** The reads of the request being answered (absent: every read goes to the database). */
  requestReads?(): RequestReads | undefined;
  /**
   * Whether marking this code or refresh token used is left to the write of the request's response (true: the
   * request keeps it in its RequestReads.consume), else it is marked at once.
   */
  deferConsume?(key: string, model: string): boolean;
}

/**
 * The answer to a code or refresh token presented when it was used already (a replay, or the loser of two requests
 * presenting it at once): invalid_grant, and its grant revoked with everything issued under it and the revocation's
 * security event (revokedGrantRows) in one transaction, as oidc-provider revokes a replayed code's grant itself.
 */
export async function replayError(
  deps: Pick<AdapterDeps, "stores" | "InvalidGrant" | "revokedGrantRows">,
  model: string,
  key: string,
): Promise<Error & { revokedGrant?: RevokedGrant }> {
  const { stores } = deps;
  const grantId = await stores.oidcPayloads.grantIdOf(key);
  const error = new deps.InvalidGrant(`${model === "AuthorizationCode" ? "authorization code" : "refresh token"} already used`);
  if (grantId) {
    const owner = await stores.oidcPayloads.grantOwner(grantId);
    const revoked: RevokedGrant = { grantId, accountId: owner?.accountId ?? null, clientId: owner?.clientId ?? null };
    const rows = deps.revokedGrantRows?.(revoked) ?? [];
    await stores.oidcPayloads.deleteGrantAndTokens(grantId, rows);
    Object.assign(error, { revokedGrant: { ...revoked, eventWritten: rows.length > 0 } });
  }
  return error;
}

export interface EngineAdapter {
  upsert(id: string, payload: Record<string, unknown>, expiresIn: number): Promise<void>;
  find(id: string): Promise<Record<string, unknown> | undefined>;
  findByUid(uid: string): Promise<Record<string, unknown> | undefined>;
  findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

const str = (value: unknown): string | null => (typeof value === "string" && value ? value : null);

export function adapterFactory(deps: AdapterDeps): (model: string) => EngineAdapter {
  const { stores } = deps;
  return (model) => {
    const hashed = TOKEN_MODELS.has(model);
    const held = ISSUED_MODELS.has(model) ? deps.issued : undefined;
    const bundled = BUNDLED_MODELS.has(model);
    const keyOf = (id: string) => `${model}:${hashed ? tokenKey(id) : id}`;
    const revealed = (id: string, row: StoredPayload): Record<string, unknown> => {
      const payload: Record<string, unknown> = { ...row.payload };
      if (hashed) payload.jti = id;
      if (row.consumedAt) payload.consumed = Math.floor(row.consumedAt.getTime() / 1000);
      return payload;
    };

    if (model === "Client") {
      return {
        async upsert(_id, payload) {
          const client = registeredClient(payload, deps.now());
          await stores.oidcClients.upsertClient(client);
          deps.onClientRegistered?.(client);
        },
        async find(id) {
          const client = await deps.findStoredClient(id);
          return client && !client.disabled ? engineMetadata(client) : undefined;
        },
        findByUid: async () => undefined,
        findByUserCode: async () => undefined,
        async consume() {},
        async destroy(id) {
          await stores.oidcClients.deleteClient(id);
        },
        async revokeByGrantId() {},
      };
    }

    return {
      async upsert(id, payload, expiresIn) {
        const key = keyOf(id);
        deps.requestReads?.()?.payloads.delete(key);
        const stored: Record<string, unknown> = { ...payload };
        if (hashed) delete stored.jti;
        delete stored.consumed;
        const session = payload.session as { accountId?: unknown } | undefined;
        const params = payload.params as { client_id?: unknown } | undefined;
        const now = deps.now();
        const row: StoredPayload = {
          key,
          model,
          payload: stored,
          grantId: str(payload.grantId),
          uid: model === "Session" ? str(payload.uid) : null,
          accountId: str(payload.accountId) ?? str(session?.accountId),
          clientId: str(payload.clientId) ?? str(params?.client_id),
          expiresAt: typeof expiresIn === "number" && expiresIn > 0 ? new Date(now.getTime() + expiresIn * 1000) : null,
          consumedAt: null,
        };
        if (held) held.hold(id, row);
        else await stores.oidcPayloads.upsertPayload(row);
      },
      async find(id) {
        if (typeof id !== "string" || id.length === 0 || id.length > 4096) return undefined;
        const key = keyOf(id);
        const reads = deps.requestReads?.();
        const seen = reads?.payloads.get(key);
        if (seen) return revealed(id, seen);
        if (bundled && reads) {
          const bundle = await stores.oidcPayloads.findTokenBundle(key, deps.now());
          if (!bundle) return undefined;
          if (bundle.grant) reads.payloads.set(bundle.grant.key, bundle.grant);
          if (bundle.user) reads.users.set(bundle.user.id, bundle.user);
          return revealed(id, bundle.token);
        }
        const row = await stores.oidcPayloads.findPayload(key, deps.now());
        return row ? revealed(id, row) : undefined;
      },
      async findByUid(uid) {
        const row = await stores.oidcPayloads.findPayloadByUid(model, uid, deps.now());
        return row ? revealed(String(row.payload.jti ?? ""), row) : undefined;
      },
      findByUserCode: async () => undefined,
      async consume(id) {
        const key = keyOf(id);
        deps.requestReads?.()?.payloads.delete(key);
        if (deps.deferConsume?.(key, model)) return;
        if (await stores.oidcPayloads.consumePayload(key, deps.now())) return;
        // Used already (a concurrent request won): the code or token was presented twice, so everything issued
        // under its grant goes, and this request fails as a replay.
        throw await replayError(deps, model, key);
      },
      async destroy(id) {
        const key = keyOf(id);
        deps.requestReads?.()?.payloads.delete(key);
        // A grant oidc-provider revokes (a replayed code or refresh token: service.ts revokeGrantPolicy) goes with
        // its security event, in one transaction; oidc-provider deletes its tokens beside it, each kind in a
        // statement of its own (the same rows in one transaction here could deadlock with those on PostgreSQL).
        const owner = model === "Grant" && deps.onGrantDestroyed ? await stores.oidcPayloads.grantOwner(id) : null;
        if (!owner) {
          // A client revoking one of its tokens: the token goes with its security event, in one transaction.
          await stores.oidcPayloads.deletePayload(key, (hashed && deps.revokedTokenRows?.(id)) || []);
          return;
        }
        const revoked: RevokedGrant = { grantId: id, ...owner };
        const rows = deps.revokedGrantRows?.(revoked) ?? [];
        await stores.oidcPayloads.deletePayload(key, rows);
        deps.onGrantDestroyed!({ ...revoked, eventWritten: rows.length > 0 });
      },
      async revokeByGrantId(grantId) {
        deps.requestReads?.()?.payloads.clear();
        await stores.oidcPayloads.deleteByGrantId(model, grantId);
      },
    };
  };
}

import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import { STANDARD_SCOPES } from "../config/oidc-provider-options.js";
import { isBanned } from "../credentials/rules.js";
import { buildEventRow, eventInsert, type EventFields, type EventSource } from "../events/emit.js";
import type { EventData } from "../events/types.js";
import { parseCookies, serializeCookie } from "../http/cookies.js";
import { renderErrorPage } from "../http/error-page.js";
import type { Runtime } from "../runtime.js";
import { isUnavailableError } from "../storage/database.js";
import { StorageUnavailableError } from "../storage/secondary/types.js";
import type { SessionAndUser } from "../storage/sessions.js";
import { adapterFactory, IssuedTokens, replayError, type AdapterDeps, type RequestReads, type RevokedGrant } from "./adapter.js";
import { emitOidcEvent } from "./events.js";
import { GRANT_LIFE, GRANT_REWRITE_AFTER, renewGrant } from "./grants.js";
import { readGrantContext, SCOPE_CLAIMS, userClaims, writeGrantContext } from "./claims.js";
import { configClient, engineMetadata, GATEHOUSE_METADATA, gatehouseSettings } from "./clients.js";
import {
  loadEngine,
  type EngineClient,
  type EngineContext,
  type EngineGrant,
  type EngineProvider,
  type EngineToken,
  type OidcEngine,
} from "./engine-types.js";
import { loadKeySet, type KeySet } from "./keys.js";
import { languageOf, loggedOutPage, logoutPage } from "./pages.js";
import { clientSecretMatches, newClientSecret, oidcKeys } from "./secrets.js";
import type { OidcClient, OidcRepositories, StoredPayload } from "./store/index.js";

/** How often a running provider looks for new signing keys (a rotation by the CLI, another instance's first key). */
const KEY_CHECK_INTERVAL_MS = 60_000;

/** The stores the provider reads and writes: its own, and core's users and sessions. */
type ServiceStores = Runtime["stores"] & OidcRepositories;

export interface OidcPaths {
  basePath: string;
  authorize: string;
  token: string;
  userinfo: string;
  introspect: string;
  revoke: string;
  endSession: string;
  register: string;
  jwks: string;
  interaction: string;
  discovery: string;
}

export function oidcPaths(basePath: string): OidcPaths {
  return {
    basePath,
    authorize: `${basePath}/oauth2/authorize`,
    token: `${basePath}/oauth2/token`,
    userinfo: `${basePath}/oauth2/userinfo`,
    introspect: `${basePath}/oauth2/introspect`,
    revoke: `${basePath}/oauth2/revoke`,
    endSession: `${basePath}/oauth2/end-session`,
    register: `${basePath}/oauth2/register`,
    jwks: `${basePath}/jwks`,
    interaction: `${basePath}/oauth2/interaction`,
    discovery: "/.well-known/openid-configuration",
  };
}

/** The grants a request revoked because one of their codes or refresh tokens was used again. */
const REPLAYED = Symbol("grants revoked for a replay");

/**
 * Where a request to oidc-provider comes from, for its security events: the client address (the mount set
 * X-Forwarded-For to it) and user agent. No session: the client, not a signed-in user, is calling.
 */
function eventSource(runtime: Runtime, ctx: EngineContext): EventSource & { runtime: Runtime } {
  const userAgent = ctx.get("user-agent");
  return {
    ip: String(ctx.get("x-forwarded-for") || ""),
    headers: new Headers(userAgent ? { "user-agent": userAgent } : {}),
    session: null,
    runtime,
  };
}

/** The security events of replays: the grant, revoked, and whose it was (the subject; no actor). */
async function reportReplays(runtime: Runtime, ctx: EngineContext, grants: RevokedGrant[]): Promise<void> {
  const source = eventSource(runtime, ctx);
  for (const grant of grants) {
    runtime.logger.warn({ grantId: grant.grantId, userId: grant.accountId, clientId: grant.clientId }, "OpenID grant revoked: a code or refresh token was used twice");
    // Written with the revocation when the adapter saw it (replayEvent); otherwise (a grant already gone) now.
    if (!grant.eventWritten) await emitOidcEvent(runtime.stores, source, "oidc_grant.revoked", replayEvent(grant));
  }
}

/** The security event of a grant revoked because one of its codes or refresh tokens was used twice. */
const replayEvent = (grant: RevokedGrant): EventFields<"oidc_grant.revoked"> => ({
  userId: grant.accountId,
  actorId: null,
  data: { clientId: grant.clientId ?? "", reason: "replay" },
});

type GrantType = EventData<"oidc_token.issued">["grantType"];
const GRANT_TYPES: ReadonlySet<string> = new Set<GrantType>(["authorization_code", "refresh_token", "client_credentials"]);

/**
 * A token endpoint response built (its tokens in the body): writes the token rows the adapter held for it and its
 * security event (oidc_token.issued) in one statement, before the answer leaves; throws when that write failed (no
 * token may then be handed out). A response that is not a success writes nothing: its held rows are dropped.
 *
 * The code or refresh token the request spends (`consume`, left by the adapter: deferConsume) is marked used in that
 * same statement, or alone when the response failed. When another request had marked it first, nothing is written
 * and the answer becomes the replay's (invalid_grant, the grant revoked: replayError); answers that grant.
 */
async function commitTokenResponse(
  runtime: Runtime,
  ctx: EngineContext,
  rows: StoredPayload[],
  replay: Pick<AdapterDeps, "stores" | "InvalidGrant" | "revokedGrantRows">,
  consume?: RequestReads["consume"],
): Promise<RevokedGrant | undefined> {
  const stores = runtime.stores as Runtime["stores"] & OidcRepositories;
  const now = runtime.now();
  const body = ctx.body as { access_token?: unknown; refresh_token?: unknown; id_token?: unknown; scope?: unknown } | undefined;
  let written: boolean;
  if (ctx.status !== 200 || typeof body?.access_token !== "string") {
    written = !consume || (await stores.oidcPayloads.consumePayload(consume.key, now));
  } else {
    written = await stores.oidcPayloads.insertTokens(rows, eventInsert(stores, tokenEvent(runtime, ctx)), consume && { key: consume.key, now });
  }
  if (written || !consume) return undefined;
  const error = (await replayError(replay, consume.model, consume.key)) as Error & {
    revokedGrant?: RevokedGrant;
    status?: number;
    error?: string;
    error_description?: string;
  };
  ctx.status = error.status ?? 400;
  ctx.type = "application/json";
  ctx.body = { error: error.error ?? "invalid_grant", error_description: error.error_description ?? error.message };
  return error.revokedGrant;
}

/** oidc-provider's models whose instances are stored (their IN_PAYLOAD lists what of an instance is). */
const STORED_MODELS = [
  "AccessToken",
  "AuthorizationCode",
  "RefreshToken",
  "ClientCredentials",
  "DeviceCode",
  "BackchannelAuthenticationRequest",
  "InitialAccessToken",
  "RegistrationAccessToken",
  "PushedAuthorizationRequest",
  "Session",
  "Grant",
  "Interaction",
  "ReplayDetection",
] as const;

/** oidc-provider's name of a model in its events (its helpers/_/snake_case): `AccessToken` → `access_token`. */
export const modelEventPrefix = (kind: string) => kind.replace(/([A-Z][a-z])/g, (x) => `_${x}`.toLowerCase()).replace(/^_+/, "");

/**
 * Two things oidc-provider's models work out again at every call, though they never change (together about 8% of
 * the event loop's time in a token request, in bench/ profiles); each model keeps them, worked out once:
 * - the properties it stores: a static `IN_PAYLOAD` getter builds a new array from its mixins' lists at every call,
 *   and the library calls it once per property of every token it reads or saves; the list built once, frozen,
 *   replaces the getter;
 * - the name of its events: `emit(name)` announces `${snakeCase(this.kind)}.${name}` (`access_token.saved`,
 *   `refresh_token.consumed`), snake-casing the model's name with two regular expressions at each save and consume;
 *   a model's `kind` is its class's name (its constructor refuses any other), so the prefix is made once per model.
 */
function keepModelConstants(provider: EngineProvider): void {
  type Model = { IN_PAYLOAD?: unknown; name: string; prototype: { emit?: unknown } };
  for (const name of STORED_MODELS) {
    const model = (provider as unknown as Record<string, Model | undefined>)[name];
    if (!model) continue;
    const list = model.IN_PAYLOAD;
    if (Array.isArray(list)) Object.defineProperty(model, "IN_PAYLOAD", { value: Object.freeze([...list]), configurable: true });
    if (typeof model.prototype.emit === "function") {
      const prefix = `${modelEventPrefix(model.name)}.`;
      Object.defineProperty(model.prototype, "emit", {
        value(this: unknown, eventName: string) {
          provider.emit(prefix + eventName, this);
        },
        configurable: true,
        writable: true,
      });
    }
  }
}

/** The security event of a successful token response (oidc_token.issued), for the grants that have one. */
function tokenEvent(runtime: Runtime, ctx: EngineContext) {
  const body = ctx.body as { refresh_token?: unknown; id_token?: unknown; scope?: unknown };
  const { entities, params } = ctx.oidc;
  const access = entities.AccessToken ?? entities.ClientCredentials;
  const grantType = String(params.grant_type ?? "");
  return GRANT_TYPES.has(grantType)
    ? buildEventRow(eventSource(runtime, ctx), "oidc_token.issued", {
        // The user the tokens act for (none for client credentials); the client is in the data, not an actor.
        userId: access?.accountId ?? null,
        actorId: null,
        data: {
          clientId: ctx.oidc.client?.clientId ?? "",
          grantType: grantType as GrantType,
          scopes: typeof body.scope === "string" ? body.scope.split(" ").filter(Boolean) : [],
          // oidc-provider's rule (its has_format mixin): the resource server's format, else opaque.
          accessToken: (access?.resourceServer as { accessTokenFormat?: string } | undefined)?.accessTokenFormat === "jwt" ? "jwt" : "opaque",
          refreshToken: typeof body.refresh_token === "string",
          idToken: typeof body.id_token === "string",
          grantId: access?.grantId ?? null,
        },
      })
    : null;
}

/**
 * The token a client's revocation (RFC 7009) names, when it is the client's own: oidc-provider names the token in
 * the context before checking it is the client's and destroying it; a token of another client is refused (400), an
 * unknown one answered 200 without a name.
 */
function revokedToken(ctx: EngineContext): EngineToken | undefined {
  const { entities } = ctx.oidc;
  const token = entities.RefreshToken ?? entities.AccessToken ?? entities.ClientCredentials;
  return token && token.clientId === ctx.oidc.client?.clientId ? token : undefined;
}

const revocationEvent = (token: EngineToken): EventFields<"oidc_token.revoked"> => ({
  userId: token.accountId ?? null,
  actorId: null,
  data: { clientId: token.clientId ?? "", kind: token.kind === "RefreshToken" ? "refresh_token" : "access_token" },
});

/** Marks a revocation whose event the adapter wrote with the token's deletion. */
const REVOCATION_WRITTEN = Symbol("revocation event written");

/**
 * The security event of a client's revocation, once the token is gone, unless the adapter wrote it with the
 * deletion (a stored token: revokedTokenRows below); a token already gone, say.
 */
async function reportRevocation(runtime: Runtime, ctx: EngineContext): Promise<void> {
  if (ctx.status !== 200 || (ctx as EngineContext & { [REVOCATION_WRITTEN]?: boolean })[REVOCATION_WRITTEN]) return;
  const token = revokedToken(ctx);
  if (!token) return;
  await emitOidcEvent(runtime.stores, eventSource(runtime, ctx), "oidc_token.revoked", revocationEvent(token));
}

/** What a request read with its token (adapter.ts RequestReads), kept on its context. */
const READS = Symbol("request reads");

/** Marks a request whose failure was the database or Redis being unreachable. */
const UNAVAILABLE = Symbol("storage unavailable");

/** The Gatehouse session a request to the provider carries, read once per request. */
const GATEHOUSE_SESSION = Symbol("gatehouse session");
type WithSession = EngineContext & { [GATEHOUSE_SESSION]?: Promise<SessionAndUser | null> };

/**
 * One per Gatehouse instance: oidc-provider built on first need (it needs the issuer, which without BASE_URL is
 * fixed when the server listens, and the signing keys, read from the database), rebuilt when the keys change.
 */
export class OidcService {
  readonly paths: OidcPaths;
  /** The clients of the configuration file, by id. */
  readonly configClients: ReadonlyMap<string, OidcClient>;
  private built: Promise<{ provider: EngineProvider; keys: KeySet; issuer: string }> | null = null;
  private lastKeyCheck = 0;
  private keyCheck: Promise<void> | null = null;
  private closed = false;

  constructor(readonly runtime: Runtime) {
    this.paths = oidcPaths(runtime.config.basePath);
    const startedAt = runtime.now();
    this.configClients = new Map(runtime.config.oidcProvider.trustedClients.map((c) => [c.clientId, configClient(c, startedAt)]));
  }

  get stores(): ServiceStores {
    return this.runtime.stores as ServiceStores;
  }

  /** The issuer: BASE_URL (or the base fixed at listen time); null when there is none (library use without baseURL). */
  issuer(): string | null {
    return this.runtime.base.url();
  }

  engine(): Promise<OidcEngine> {
    return loadEngine();
  }

  /** The running provider (built on first need; a key change found by the periodic check rebuilds it). */
  async provider(): Promise<EngineProvider> {
    const issuer = this.issuer();
    if (!issuer) throw new Error("baseURL is not set: the OpenID Provider needs BASE_URL as its issuer");
    if (!this.built) {
      this.built = this.build(issuer);
      this.built.catch(() => {
        this.built = null;
      });
    } else if (Date.now() - this.lastKeyCheck > KEY_CHECK_INTERVAL_MS && !this.keyCheck) {
      this.keyCheck = this.checkKeys().finally(() => {
        this.keyCheck = null;
      });
    }
    return (await this.built).provider;
  }

  /** The signing keys the running provider uses. */
  async keySet(): Promise<KeySet> {
    await this.provider();
    return (await this.built!).keys;
  }

  /** Reads the keys again now and rebuilds the provider when they changed (after a rotation in this process). */
  async reloadKeys(): Promise<void> {
    this.lastKeyCheck = 0;
    if (!this.built) return;
    await this.checkKeys();
  }

  private async checkKeys(): Promise<void> {
    this.lastKeyCheck = Date.now();
    const current = this.built;
    if (!current) return;
    try {
      const { keys, issuer } = await current;
      const fresh = await this.loadKeys();
      if (fresh.fingerprint !== keys.fingerprint && this.built === current && !this.closed) {
        const next = this.assemble(issuer, fresh);
        this.built = Promise.resolve(next);
        this.runtime.logger.info({ keys: fresh.fingerprint.split(",").length }, "OpenID Provider signing keys changed");
      }
    } catch (error) {
      this.runtime.logger.warn({ err: (error as Error).message }, "OpenID Provider key check failed");
    }
  }

  private loadKeys(): Promise<KeySet> {
    return loadKeySet({ stores: this.stores, secret: this.runtime.config.secret, now: () => this.runtime.now() });
  }

  private async build(issuer: string) {
    const [keys, lib] = await Promise.all([this.loadKeys(), this.engine()]);
    this.engineModule = lib;
    this.lastKeyCheck = Date.now();
    return this.assemble(issuer, keys);
  }

  private engineModule: OidcEngine | null = null;

  private assemble(issuer: string, keys: KeySet) {
    return { provider: this.createProvider(issuer, keys), keys, issuer };
  }

  /** A client by id: the configuration file's, else the table's (null when unknown). */
  async findClient(clientId: string): Promise<OidcClient | null> {
    return this.configClients.get(clientId) ?? (await this.stores.oidcClients.findClient(clientId));
  }

  /** The web app's URL a page path is relative to (email.appURL, else the base). */
  appURL(path: string): string {
    const base = (this.runtime.config.email.appURL ?? this.issuer() ?? "").replace(/\/+$/, "");
    return base + path;
  }

  /** The Gatehouse session of a request reaching oidc-provider (its cookie), from the database; null when none. */
  gatehouseSession(ctx: EngineContext): Promise<SessionAndUser | null> {
    const holder = ctx as WithSession;
    holder[GATEHOUSE_SESSION] ??= this.runtime.sessions
      .readSession(
        {
          cookie: (() => {
            const cookies = parseCookies(ctx.req.headers.cookie);
            return (name: string) => cookies.get(name);
          })(),
          // A session that ended is cleared on the next request to the service itself; nothing is set here.
          setCookie: () => {},
        },
        { disableCookieCache: true, refresh: false },
      )
      .catch(() => null);
    return holder[GATEHOUSE_SESSION];
  }

  close(): void {
    this.closed = true;
  }

  private createProvider(issuer: string, keys: KeySet): EngineProvider {
    // Loaded by build() before this runs.
    const lib = this.engineModuleSync();
    const { runtime, paths } = this;
    const { config } = runtime;
    const options = config.oidcProvider;
    const stores = this.stores;
    const { errors, interactionPolicy } = lib;
    const secure = issuer.startsWith("https:");
    const gatehouseSession = (ctx: EngineContext) => this.gatehouseSession(ctx);
    const appURL = (path: string) => this.appURL(path);

    // The request being answered, for the adapter (which oidc-provider calls without it).
    const requests = new AsyncLocalStorage<EngineContext>();
    const requestReads = (): RequestReads | undefined => {
      const ctx = requests.getStore() as (EngineContext & { [READS]?: RequestReads }) | undefined;
      return ctx ? (ctx[READS] ??= { payloads: new Map(), users: new Map() }) : undefined;
    };

    const findAccount = async (ctx: EngineContext | undefined, sub: string, token?: EngineToken) => {
      // The user a token request's first read brought with its token (adapter.ts), else from the database.
      const user = requestReads()?.users.get(sub) ?? (await stores.users.findUserById(sub));
      if (!user || isBanned(user, runtime.now())) return undefined;
      return {
        accountId: user.id,
        async claims(_use: string, scope: string) {
          const scopes = new Set((scope ?? "").split(" ").filter(Boolean));
          return userClaims(stores, user, scopes, async () => {
            // At the authorization endpoint: the session that is signing in; later: the grant's recorded context.
            if (!token && ctx) return (await gatehouseSession(ctx))?.session.activeOrganizationId ?? null;
            const grantId = token?.grantId ?? ctx?.oidc.entities.Grant?.jti;
            return grantId ? ((await readGrantContext(stores, grantId, runtime.now()))?.activeOrganizationId ?? null) : null;
          });
        },
      };
    };

    const policy = interactionPolicy.base();
    // A provider session is worth nothing without the Gatehouse session it came from: signed out of Gatehouse (or
    // signed in as someone else), the user signs in again (prompt=none: login_required).
    policy.get("login").checks.add(
      new interactionPolicy.Check("gatehouse_session", "End-User authentication is required", "login_required", async (ctx) => {
        const session = await gatehouseSession(ctx);
        // An administrator's impersonation session never signs the user in to an application (the interaction
        // route refuses it).
        return !session || session.session.impersonatedBy !== null || session.user.id !== ctx.oidc.session?.accountId;
      }),
      1,
    );

    const settingsOf = (client: EngineClient | undefined) => gatehouseSettings(client ?? {});

    // The token endpoint's new rows, until its response is built (below).
    const issued = new IssuedTokens();
    // The event of a grant revoked for a replay, from the request revoking it, written with the revocation.
    const revokedGrantRows = (revoked: RevokedGrant) => {
      const ctx = requests.getStore();
      return ctx ? eventInsert(stores, buildEventRow(eventSource(runtime, ctx), "oidc_grant.revoked", replayEvent(revoked))) : [];
    };
    const replay = { stores, InvalidGrant: errors.InvalidGrant, revokedGrantRows };
    const configuration: Record<string, unknown> = {
      adapter: adapterFactory({
        stores,
        issued,
        requestReads,
        // At the token endpoint the code or refresh token is marked used with the response's tokens (below).
        deferConsume: (key, model) => {
          const ctx = requests.getStore();
          const reads = requestReads();
          if (ctx?.oidc?.route !== "token" || !reads || reads.consume || (model !== "AuthorizationCode" && model !== "RefreshToken")) return false;
          reads.consume = { key, model };
          return true;
        },
        now: () => runtime.now(),
        InvalidGrant: errors.InvalidGrant,
        findStoredClient: (id) => stores.oidcClients.findClient(id),
        onClientRegistered: (client) =>
          runtime.logger.info({ clientId: client.clientId, source: "registration" }, "OpenID client registered"),
        revokedGrantRows,
        // A client's revocation of one of its stored tokens: its event, from that request, written with the deletion.
        revokedTokenRows: (id) => {
          const ctx = requests.getStore();
          if (ctx?.oidc?.route !== "revocation") return [];
          const token = revokedToken(ctx);
          if (!token || token.jti !== id) return [];
          (ctx as EngineContext & { [REVOCATION_WRITTEN]?: boolean })[REVOCATION_WRITTEN] = true;
          return eventInsert(stores, buildEventRow(eventSource(runtime, ctx), "oidc_token.revoked", revocationEvent(token)));
        },
        onGrantDestroyed: (revoked) => {
          if (recentlyDestroyed.size >= 1000) recentlyDestroyed.clear();
          recentlyDestroyed.set(revoked.grantId, revoked);
        },
      }),
      // A grant goes with its tokens only when one of its codes or refresh tokens is replayed (the token endpoint
      // revokes for nothing else); a client revoking a refresh token, or a logout, ends tokens and keeps the consent.
      revokeGrantPolicy: (ctx: EngineContext) => ctx.oidc.route === "token",
      clients: [...this.configClients.values()].map(engineMetadata),
      clientDefaults: {
        grant_types: ["authorization_code"],
        id_token_signed_response_alg: "RS256",
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
      claims: SCOPE_CLAIMS,
      scopes: [...STANDARD_SCOPES],
      conformIdTokenClaims: false,
      allowOmittingSingleRegisteredRedirectUri: false,
      acceptQueryParamAccessTokens: false,
      cookies: {
        keys: oidcKeys(config.secret).cookieKeys,
        names: {
          session: `${config.advanced.cookiePrefix}.oidc_session`,
          interaction: `${config.advanced.cookiePrefix}.oidc_interaction`,
          resume: `${config.advanced.cookiePrefix}.oidc_resume`,
        },
        long: { httpOnly: true, sameSite: "lax", secure },
        short: { httpOnly: true, sameSite: "lax", secure },
      },
      discovery: {
        claim_types_supported: ["normal"],
        ui_locales_supported: ["en", "de", "es", "fr", "pl", "ru", "tr", "uk"],
      },
      enabledJWA: {
        idTokenSigningAlgValues: ["RS256", "ES256"],
        userinfoSigningAlgValues: ["RS256", "ES256"],
        introspectionSigningAlgValues: ["RS256", "ES256"],
        authorizationSigningAlgValues: ["RS256", "ES256"],
        requestObjectSigningAlgValues: ["RS256", "ES256", "PS256", "EdDSA"],
        clientAuthSigningAlgValues: ["RS256", "ES256", "PS256", "EdDSA"],
      },
      clientAuthMethods: ["client_secret_basic", "client_secret_post", "none"],
      responseTypes: ["code"],
      subjectTypes: ["public"],
      pkce: { methods: ["S256"], required: () => true },
      rotateRefreshToken: true,
      extraClientMetadata: {
        properties: [GATEHOUSE_METADATA],
        validator(ctx: EngineContext | undefined, key: string, _value: unknown, metadata: Record<string, unknown>) {
          if (key !== GATEHOUSE_METADATA || !ctx || ctx.oidc?.route !== "registration") return;
          // A registration never sets our settings: never first-party, opaque tokens, its own scopes only.
          if (Array.isArray(metadata.grant_types) && metadata.grant_types.includes("client_credentials")) {
            throw new errors.InvalidClientMetadata("client_credentials is not available to registered clients");
          }
          const scope = typeof metadata.scope === "string" ? metadata.scope.split(" ") : ["openid", "profile", "email", "offline_access"];
          metadata.scope = scope.filter((s) => (STANDARD_SCOPES as readonly string[]).includes(s)).join(" ");
          metadata[GATEHOUSE_METADATA] = {
            type: metadata.token_endpoint_auth_method === "none" ? "public" : "web",
            scopes: String(metadata.scope).split(" ").filter(Boolean),
            skipConsent: false,
            accessTokenFormat: "opaque",
            audience: [],
            source: "registration",
          };
        },
      },
      features: {
        devInteractions: { enabled: false },
        claimsParameter: { enabled: true },
        clientCredentials: { enabled: true },
        introspection: {
          enabled: true,
          // A client sees its own tokens only.
          // A confidential client sees its own tokens, and an API (a client naming the token's audience in its
          // own) the tokens issued for it.
          allowedPolicy: async (_ctx: EngineContext, client: EngineClient, token: EngineToken & { aud?: string }) =>
            client.clientAuthMethod !== "none" &&
            (token.clientId === client.clientId || (typeof token.aud === "string" && settingsOf(client).audience.includes(token.aud))),
        },
        revocation: { enabled: true },
        userinfo: { enabled: true },
        pushedAuthorizationRequests: { enabled: false },
        backchannelLogout: { enabled: false },
        rpInitiatedLogout: {
          enabled: true,
          async logoutSource(ctx: EngineContext, form: string) {
            const client = ctx.oidc.client;
            ctx.type = "html";
            ctx.body = logoutPage(languageOf(ctx.get("accept-language")), form, client ? String(client.clientName ?? client.clientId) : null);
          },
          async postLogoutSuccessSource(ctx: EngineContext) {
            ctx.type = "html";
            ctx.body = loggedOutPage(languageOf(ctx.get("accept-language")), appURL("/"));
          },
        },
        registration: {
          enabled: options.dynamicClientRegistration.enabled,
          initialAccessToken: options.dynamicClientRegistration.initialAccessToken ?? false,
          issueRegistrationAccessToken: false,
          secretFactory: () => newClientSecret(),
        },
        registrationManagement: { enabled: false },
        resourceIndicators: {
          enabled: true,
          // A JWT client's tokens are for its API (its first audience, else the issuer); a machine client's always.
          defaultResource(ctx: EngineContext, client: EngineClient) {
            const settings = settingsOf(client);
            if (settings.accessTokenFormat !== "jwt" && settings.type !== "machine") return undefined;
            return settings.audience[0] ?? issuer;
          },
          useGrantedResource: (ctx: EngineContext) => settingsOf(ctx.oidc.client).accessTokenFormat === "jwt",
          async getResourceServerInfo(ctx: EngineContext, resource: string, client: EngineClient) {
            const settings = settingsOf(client);
            const allowed = settings.audience.length ? settings.audience : [issuer];
            if (!allowed.includes(resource)) throw new errors.InvalidTarget("this client may not ask for tokens for that resource");
            const apiScopes = settings.scopes.filter((s) => s !== "offline_access");
            // Asking for a scope the client was not given is an error, not a silent drop.
            const refused = [...ctx.oidc.requestParamScopes].filter((s) => !apiScopes.includes(s) && s !== "offline_access");
            if (refused.length) throw new errors.InvalidScope("requested scope is not allowed", refused.join(" "));
            return {
              scope: apiScopes.join(" "),
              audience: resource,
              accessTokenTTL: options.accessTokenExpiresIn,
              accessTokenFormat: settings.accessTokenFormat,
              ...(settings.accessTokenFormat === "jwt"
                ? { jwt: { sign: { alg: String(client.idTokenSignedResponseAlg ?? "RS256") } } }
                : {}),
            };
          },
        },
      },
      routes: {
        authorization: paths.authorize,
        token: paths.token,
        userinfo: paths.userinfo,
        introspection: paths.introspect,
        revocation: paths.revoke,
        end_session: paths.endSession,
        registration: paths.register,
        jwks: paths.jwks,
        code_verification: `${paths.basePath}/oauth2/device`,
        device_authorization: `${paths.basePath}/oauth2/device/auth`,
        pushed_authorization_request: `${paths.basePath}/oauth2/par`,
        backchannel_authentication: `${paths.basePath}/oauth2/backchannel`,
      },
      ttl: {
        AccessToken: options.accessTokenExpiresIn,
        AuthorizationCode: options.codeExpiresIn,
        ClientCredentials: options.accessTokenExpiresIn,
        IdToken: options.idTokenExpiresIn,
        RefreshToken: options.refreshTokenExpiresIn,
        Interaction: options.interactionExpiresIn,
        Session: config.session.expiresIn,
        Grant: GRANT_LIFE,
      },
      interactions: {
        policy,
        url: (_ctx: EngineContext, interaction: { uid: string }) => `${paths.interaction}/${interaction.uid}`,
      },
      // One consent per user and application, whichever browser gave it; a first-party client's is implied.
      async loadExistingGrant(ctx: EngineContext) {
        const { oidc } = ctx;
        const client = oidc.client!;
        const accountId = oidc.session?.accountId;
        if (!accountId) return undefined;
        const { provider } = oidc;
        const resultGrant = (oidc.result?.consent as { grantId?: string } | undefined)?.grantId;
        const ids = resultGrant ? [resultGrant] : await stores.oidcPayloads.userClientGrantIds(accountId, client.clientId, runtime.now());
        let grant;
        for (const id of ids) {
          grant = await provider.Grant.find(id);
          if (grant) break;
        }
        if (settingsOf(client).skipConsent) {
          const found = grant;
          grant ??= new provider.Grant({ accountId, clientId: client.clientId });
          const before = found ? JSON.stringify(grant) : null;
          grantRequested(grant, oidc, settingsOf(client).scopes);
          // A grant is written when it is new or gains something, and otherwise renewed at most once a day (it lives
          // a year from its last authorization, give or take that day): an authorization that changes nothing writes
          // no row, where every one used to (on PostgreSQL each write leaves a dead row version in every index).
          const now = runtime.now();
          const expiresAt = (grant as { exp?: unknown }).exp;
          const recent = typeof expiresAt === "number" && expiresAt - now.getTime() / 1000 > GRANT_LIFE - GRANT_REWRITE_AFTER;
          if (!found || JSON.stringify(grant) !== before || !recent) {
            if (found) renewGrant(grant, now);
            await grant.save(GRANT_LIFE);
          }
        }
        return grant;
      },
      findAccount,
      renderError(ctx: EngineContext, out: { error?: string }) {
        ctx.type = "html";
        ctx.body = renderErrorPage(String(out.error ?? "server_error"), languageOf(ctx.get("accept-language")));
      },
      clientBasedCORS(ctx: EngineContext, origin: string, client: EngineClient) {
        // A browser application may call the token, userinfo and revocation endpoints from its own origins.
        return client.redirectUris.some((uri) => {
          try {
            return new URL(uri).origin === origin;
          } catch {
            return false;
          }
        });
      },
      jwks: { keys: keys.privateJwks },
    };

    const provider = new lib.default(issuer, configuration);
    provider.proxy = true;
    // Client secrets are stored hashed: oidc-provider compares the hash of the secret presented.
    provider.Client.prototype.compareClientSecret = function compareClientSecret(this: { clientSecret?: string }, actual: unknown) {
      return this.clientSecret ? clientSecretMatches(this.clientSecret, actual) : false;
    };
    // Redirect URIs match exactly, as written (RFC 9700 4.1.3): no URL normalisation, so a host or scheme in
    // another case, a trailing slash or a default port written out is another URI. A native app's loopback
    // redirect matches on any port (RFC 8252 7.3).
    provider.Client.prototype.redirectUriAllowed = function redirectUriAllowed(this: EngineClient, value: unknown) {
      return typeof value === "string" && exactOrLoopback(this.redirectUris, value, this.applicationType === "native");
    };
    provider.Client.prototype.postLogoutRedirectUriAllowed = function postLogoutRedirectUriAllowed(this: EngineClient, value: unknown) {
      return typeof value === "string" && exactOrLoopback(this.postLogoutRedirectUris ?? [], value, this.applicationType === "native");
    };

    keepModelConstants(provider);

    const findClient = (clientId: string) => this.findClient(clientId);
    // Grants the adapter destroyed, until the request that destroyed them reports it (below).
    const recentlyDestroyed = new Map<string, RevokedGrant>();
    provider.use(async (ctx, next) => {
      // A first-party client's consent is implied, offline_access included: OpenID Connect wants prompt=consent for
      // offline_access (oidc-provider drops the scope otherwise), so it is added for such a client, whose consent
      // is then given without a page.
      if (ctx.method === "GET" && ctx.path === paths.authorize) await impliedConsent(ctx, findClient);
      const tokenRequest = ctx.path === paths.token;
      let held: StoredPayload[] = [];
      try {
        // The request, for what the adapter writes with it (a revoked grant's security event).
        await requests.run(ctx, next);
      } finally {
        // The rows the adapter held for this response's tokens (every token it saves is named in the context).
        if (tokenRequest && ctx.oidc) {
          const { AccessToken, RefreshToken, ClientCredentials } = ctx.oidc.entities;
          held = issued.take([AccessToken?.jti, RefreshToken?.jti, ClientCredentials?.jti]);
        }
      }
      if (tokenRequest && ctx.oidc?.route === "token") {
        try {
          const consume = (ctx as EngineContext & { [READS]?: RequestReads })[READS]?.consume;
          const revoked = await requests.run(ctx, () => commitTokenResponse(runtime, ctx, held, replay, consume));
          if (revoked) replayed(ctx, revoked);
        } catch (error) {
          // Not written: no token leaves. A storage outage is answered 503 below, anything else 500.
          if (error instanceof StorageUnavailableError || isUnavailableError(error)) {
            (ctx as EngineContext & { [UNAVAILABLE]?: boolean })[UNAVAILABLE] = true;
            runtime.logger.warn({ err: (error as Error).message, path: ctx.path }, "storage unavailable");
          } else {
            runtime.logger.error({ err: { name: (error as Error).name, message: (error as Error).message } }, "OpenID tokens not stored");
            ctx.status = 500;
            ctx.type = "application/json";
            ctx.body = { error: "server_error", error_description: "the tokens could not be stored" };
          }
        }
      }
      if (ctx.oidc?.route === "revocation") await reportRevocation(runtime, ctx);
      const revoked = (ctx as EngineContext & { [REPLAYED]?: RevokedGrant[] })[REPLAYED];
      if (revoked?.length) await reportReplays(runtime, ctx, revoked);
      if ((ctx as EngineContext & { [UNAVAILABLE]?: boolean })[UNAVAILABLE]) {
        ctx.status = 503;
        ctx.set("Retry-After", "1");
        ctx.type = "application/json";
        ctx.body = { error: "temporarily_unavailable", error_description: "the service is temporarily unavailable" };
        return;
      }
      const route = ctx.oidc?.route;
      // Our settings ride in one extra metadata property: a registration's answer does not show it.
      if (route === "registration" && ctx.body && typeof ctx.body === "object") delete (ctx.body as Record<string, unknown>)[GATEHOUSE_METADATA];
      // Each authorization records the Gatehouse session's active organization for the grant (the
      // active_organization claim of the tokens issued from it).
      if ((route === "authorization" || route === "resume") && ctx.oidc.entities.AuthorizationCode && ctx.oidc.grant) {
        const gatehouse = await gatehouseSession(ctx);
        const grant = ctx.oidc.grant;
        await writeGrantContext(
          stores,
          {
            grantId: grant.jti,
            accountId: grant.accountId,
            clientId: grant.clientId,
            expiresAt: grant.exp ? new Date(grant.exp * 1000) : null,
          },
          { activeOrganizationId: gatehouse?.session.activeOrganizationId ?? null },
        ).catch((error: Error) => runtime.logger.warn({ err: error.message }, "OpenID grant context not recorded"));
      }
      // Signing out at an application's request (RP-initiated logout, confirmed) signs the browser out of
      // Gatehouse as well.
      if (route === "end_session_confirm" && ctx.oidc.params.logout && ctx.status === 303) {
        const cookies = parseCookies(ctx.req.headers.cookie);
        const token = runtime.sessions.sessionTokenOf({ cookie: (n) => cookies.get(n), setCookie: () => {} });
        if (token) await stores.sessions.deleteSessionByToken(token);
        runtime.sessions.clearSessionCookies({
          cookie: (n) => cookies.get(n),
          setCookie: (name, value, attributes) => ctx.append("Set-Cookie", serializeCookie(name, value, attributes)),
        });
      }
    });

    const replayed = (ctx: EngineContext, grant: RevokedGrant) => {
      const holder = ctx as EngineContext & { [REPLAYED]?: RevokedGrant[] };
      (holder[REPLAYED] ??= []).push(grant);
    };
    // oidc-provider saw a code or refresh token used again and revoked its grant.
    provider.on("grant.revoked", (ctx: EngineContext, grantId: string) => {
      const grant = recentlyDestroyed.get(grantId);
      recentlyDestroyed.delete(grantId);
      replayed(ctx, grant ?? { grantId, accountId: null, clientId: ctx.oidc?.client?.clientId ?? null });
    });
    // Two requests used it at once: the adapter's consume refused the second and revoked the grant itself.
    provider.on("grant.error", (ctx: EngineContext, error: Error & { revokedGrant?: RevokedGrant }) => {
      if (error.revokedGrant) replayed(ctx, error.revokedGrant);
    });
    provider.on("server_error", (ctx: EngineContext, error: Error) => {
      // A database or Redis outage is answered 503, as everywhere in the service (the hook above rewrites it).
      if (error instanceof StorageUnavailableError || isUnavailableError(error)) {
        (ctx as EngineContext & { [UNAVAILABLE]?: boolean })[UNAVAILABLE] = true;
        runtime.logger.warn({ err: error.message, path: ctx.path }, "storage unavailable");
        return;
      }
      runtime.logger.error({ err: { name: error.name, message: error.message, stack: error.stack } }, "OpenID Provider error");
    });
    return provider;
  }

  private engineModuleSync(): OidcEngine {
    if (!this.engineModule) throw new Error("oidc-provider is not loaded");
    return this.engineModule;
  }

  /** Loads oidc-provider (once) and keeps it for createProvider. */
  async ready(): Promise<void> {
    this.engineModule ??= await this.engine();
  }
}

async function impliedConsent(ctx: EngineContext, findClient: (id: string) => Promise<OidcClient | null>): Promise<void> {
  const query = (ctx as unknown as { query: Record<string, unknown> }).query;
  const { scope, prompt, client_id: clientId } = query;
  if (typeof scope !== "string" || typeof clientId !== "string" || !scope.split(" ").includes("offline_access")) return;
  if (prompt !== undefined && typeof prompt !== "string") return;
  const prompts = prompt ? prompt.split(" ") : [];
  if (prompts.includes("consent") || prompts.includes("none")) return;
  const client = await findClient(clientId).catch(() => null);
  if (!client?.skipConsent) return;
  (ctx as unknown as { query: Record<string, unknown> }).query = { ...query, prompt: [...prompts, "consent"].join(" ") };
}

/**
 * Adds to a grant what the request asks for, within the scopes the client is allowed: the OpenID scopes and
 * claims, and each resource's (API) scopes. For a first-party client's implied consent and for a consent given.
 */
export function grantRequested(
  grant: EngineGrant,
  oidc: Pick<EngineContext["oidc"], "requestParamOIDCScopes" | "requestParamScopes" | "resourceServers"> & { requestParamClaims?: Set<string> },
  allowedScopes: readonly string[],
  accepted?: ReadonlySet<string>,
): void {
  const allowed = new Set(allowedScopes);
  const take = (scope: string) => allowed.has(scope) && (!accepted || accepted.has(scope) || scope === "openid");
  const openid = [...oidc.requestParamOIDCScopes].filter(take);
  if (openid.length) grant.addOIDCScope(openid.join(" "));
  if (oidc.requestParamClaims?.size) grant.addOIDCClaims([...oidc.requestParamClaims]);
  for (const [resource, server] of Object.entries(oidc.resourceServers)) {
    const scopes = (server as { scopes?: Set<string> }).scopes ?? new Set<string>();
    const api = [...oidc.requestParamScopes].filter((s) => scopes.has(s) && take(s));
    if (api.length) grant.addResourceScope(resource, api.join(" "));
  }
}

function exactOrLoopback(registered: readonly string[], value: string, native: boolean): boolean {
  if (registered.includes(value)) return true;
  if (!native) return false;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:" || !["localhost", "127.0.0.1", "[::1]"].includes(parsed.hostname)) return false;
  // The same URI as registered, but for the port: compare the registered text with the port taken out of both.
  const withoutPort = (url: string) => url.replace(/^(http:\/\/(?:localhost|127\.0\.0\.1|\[::1\]))(:\d+)?(?=[/?]|$)/, "$1");
  return registered.some((uri) => uri.startsWith("http://") && withoutPort(uri) === withoutPort(value));
}

const services = new WeakMap<object, OidcService>();

/** The provider of this Gatehouse instance (one per runtime). */
export function oidcService(runtime: Runtime): OidcService {
  let service = services.get(runtime);
  if (!service) {
    service = new OidcService(runtime);
    services.set(runtime, service);
  }
  return service;
}

/** A request and response just good enough for oidc-provider's interactionDetails (it reads cookies only). */
export function cookieOnlyRequest(cookieHeader: string | null): { req: IncomingMessage; res: ServerResponse } {
  const req = { headers: cookieHeader ? { cookie: cookieHeader } : {}, socket: {}, url: "/", method: "GET" } as unknown as IncomingMessage;
  const res = {
    getHeader: () => undefined,
    setHeader: () => undefined,
    removeHeader: () => undefined,
    headersSent: false,
  } as unknown as ServerResponse;
  return { req, res };
}

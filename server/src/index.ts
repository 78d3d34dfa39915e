import type { z } from "zod";
import { resolveConfig, type Config, type GatehouseOptions } from "./config/index.js";
import { createPasswordHasher, type PasswordHasher } from "./credentials/password.js";
import { createHttpHandler, type ServerEnv } from "./http/app.js";
import type { NodeFastPath } from "./http/fast-path.js";
import type { Endpoint } from "./http/endpoint.js";
import { APIError } from "./http/errors.js";
import { HTTP_MESSAGES } from "./http/messages.js";
import { createOriginMatcher } from "./http/origin.js";
import { createPublicBase } from "./http/public-base.js";
import { runEndpoint } from "./http/pipeline.js";
import { createLogger, type Logger } from "./logger.js";
import { createMetrics, type Metrics } from "./metrics/metrics.js";
import { activeEndpoints, createStores, migrateDatabase, MODULES, type AnyModule } from "./modules.js";
import { outboxMailer, refusingMailer, smtpMailer, type Mailer } from "./email/mailer.js";
import { createOAuthRuntime } from "./social/registry.js";
import { ENDPOINTS, type Endpoints } from "./routes.js";
import type { Runtime } from "./runtime.js";
import { createSessionService } from "./session/session-service.js";
import { openDatabase, type DatabaseHandle } from "./storage/index.js";
import { memoryStorage } from "./storage/secondary/memory.js";
import { redisStorage } from "./storage/secondary/redis.js";
import type { SecondaryStorage } from "./storage/secondary/types.js";

export { APIError } from "./http/errors.js";
export { ConfigError, type Config, type GatehouseOptions } from "./config/index.js";
export type { SecondaryStorage } from "./storage/secondary/types.js";
export type { Logger } from "./logger.js";
export type { Mailer, OutgoingMail } from "./email/mailer.js";
export type { Metrics, SignInResult, RateLimitKind, WebhookDeliveryResult } from "./metrics/metrics.js";
export { defineModule, type GatehouseModule } from "./gatehouse-module.js";
export { MODULES } from "./modules.js";

export interface CreateGatehouseContext {
  /** NODE_ENV as read at start (production enables secure defaults and requires a secret). */
  nodeEnv?: string | undefined;
  /** Secret used outside production when options.secret is absent. */
  fallbackSecret?: string | undefined;
  logger?: Logger;
  /** Replace the secondary storage (for example with a shared one in tests). */
  secondaryStorage?: SecondaryStorage;
  /** Replace the password hasher (tests use a fast one for bulk seeding). */
  hasher?: PasswordHasher;
  /** Replace the mailer (by default SMTP when configured, else the development outbox). */
  mailer?: Mailer;
  /**
   * The installed modules (modules.ts; by default MODULES): their tables are migrated and their stores built; the
   * routes of those the configuration turns on answer.
   */
  modules?: readonly AnyModule[];
  now?: () => Date;
  /**
   * Whether the modules' background work (the webhook dispatcher, the audit log's prune) starts now (the default)
   * or waits for `startBackground()`: the bundled server starts it once its migrations are applied, so that it never
   * reads a table not made yet; the one-shot commands (migrate, import, ...) never start it.
   */
  background?: boolean;
}

export interface CallInput<B = unknown, Q = unknown> {
  body?: B;
  query?: Q;
  /** Request headers (the Cookie header carries the session for routes that need one). */
  headers?: ConstructorParameters<typeof Headers>[0];
  params?: Record<string, string>;
}

/** What a route answers, without the redirect and raw-page wrappers of its HTTP form. */
type EndpointData<E> = E extends Endpoint<infer _B, infer _Q, infer R> ? Exclude<Awaited<R>, { __redirect: unknown }> : never;
type EndpointBody<E> = E extends Endpoint<infer B, infer _Q, infer _R> ? z.input<B> : never;
type EndpointQuery<E> = E extends Endpoint<infer _B, infer Q, infer _R> ? z.input<Q> : never;

/** The typed server-side API: every route (server-only ones included) as an in-process call. */
export type GatehouseApi = {
  [K in keyof Endpoints]: (
    input?: CallInput<EndpointBody<Endpoints[K]>, EndpointQuery<Endpoints[K]>>,
  ) => Promise<EndpointData<Endpoints[K]>>;
} & {
  /** Like the plain call, but also returns the response headers (Set-Cookie, Location). */
  withHeaders<K extends keyof Endpoints>(
    name: K,
    input?: CallInput<EndpointBody<Endpoints[K]>, EndpointQuery<Endpoints[K]>>,
  ): Promise<{ data: EndpointData<Endpoints[K]>; headers: Headers }>;
};

export interface Gatehouse {
  config: Config;
  /** The web-standard handler: mount it in any framework that speaks Request/Response. */
  handler(request: Request): Promise<Response>;
  /** Same, with the socket's address (used by the bundled node:http server). */
  fetch(request: Request, env?: ServerEnv): Promise<Response>;
  /** node:http shortcut for the hottest route; returns false for requests it leaves to fetch(). */
  nodeFastPath: NodeFastPath;
  api: GatehouseApi;
  runtime: Runtime;
  /** The raw database handle, for the CLI and tests; handlers reach the database through `runtime.stores` only. */
  database: DatabaseHandle;
  /**
   * Prometheus metrics (`metrics.enabled`): `render()` is the text `GET /metrics` answers, for an application that
   * mounts `handler` itself and serves it its own way.
   */
  metrics: Metrics;
  /** Applies pending database migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  /** Starts the modules' background work when createGatehouse was told to wait (`background: false`); once only. */
  startBackground(): void;
  close(): Promise<void>;
}

export function createGatehouse(options: GatehouseOptions = {}, context: CreateGatehouseContext = {}): Gatehouse {
  const config = resolveConfig(options, { nodeEnv: context.nodeEnv, fallbackSecret: context.fallbackSecret });
  const logger = context.logger ?? createLogger(config.logger.level);
  const database: DatabaseHandle = openDatabase(
    { url: config.database.url, poolSize: config.database.poolSize, schema: config.database.schema },
    logger,
  );
  const storage = context.secondaryStorage ?? (config.redis ? redisStorage(config.redis.url, logger, config.redis.keyPrefix) : memoryStorage());
  const metrics = createMetrics(config);
  metrics.watchDatabase(database);
  const hasher =
    context.hasher ??
    createPasswordHasher({
      concurrency: config.hashConcurrency,
      nice: config.password.workerNice,
      observe: metrics.passwordHashObserver,
    });
  metrics.watchPasswordHasher(hasher);
  const now = context.now ?? (() => new Date());
  const mailer =
    context.mailer ??
    (config.email.smtpUrl
      ? smtpMailer(config.email.smtpUrl, config.email.from, logger)
      : config.production
        ? refusingMailer(logger)
        : outboxMailer(logger));
  const modules = context.modules ?? MODULES;
  const stores = createStores(database.db, {
    dialect: database.dialect,
    modules,
    preparedQuery: database.preparedQuery,
    coalesceReads: database.dialect === "postgres" ? config.database.coalesceSessionReads || undefined : undefined,
  });
  const base = createPublicBase(config.baseURL);
  const runtime: Runtime = {
    config,
    stores,
    storage,
    hasher,
    logger,
    origins: createOriginMatcher(config.trustedOriginList, base.listeningOrigins),
    base,
    sessions: createSessionService(config, stores, now),
    mailer,
    oauth: createOAuthRuntime(config, now),
    metrics,
    modules,
    now,
  };
  // Core's routes and those of the modules the configuration turns on.
  const endpoints = activeEndpoints(ENDPOINTS, modules, config);
  const http = createHttpHandler(runtime, Object.values(endpoints));
  // Paths the turned-on modules answer before the router (the OpenID Provider's endpoints: GatehouseModule.mount).
  const mounts = modules.flatMap((module) => (module.mount && module.enabled(config) ? [module.mount(runtime)] : []));
  const mountOf = (url: string) => {
    if (!mounts.length) return undefined;
    const start = url.startsWith("/") ? 0 : url.indexOf("/", url.indexOf("//") + 2);
    const end = url.indexOf("?", start);
    const pathname = url.slice(start, end === -1 ? undefined : end);
    return mounts.find((mount) => mount.owns(pathname));
  };
  const fetch = (request: Request, env?: ServerEnv) => {
    const mount = mountOf(request.url);
    return mount ? mount.fetch(request, env?.remoteAddress) : http.fetch(request, env);
  };
  const nodeFastPath: NodeFastPath = (req, res) => {
    const mount = mountOf(req.url ?? "/");
    if (!mount) return http.nodeFastPath(req, res);
    mount.node(req, res, req.socket.remoteAddress);
    return true;
  };
  const internalBase = config.baseURL ?? "http://localhost";

  const call = async (name: string, input: CallInput = {}) => {
    const endpoint = endpoints[name]!;
    const headers = new Headers(input.headers);
    if (endpoint.auth !== "none" && !headers.has("cookie")) throw new APIError("BAD_REQUEST", HTTP_MESSAGES.HEADERS_IS_REQUIRED);
    const url = new URL(config.basePath + endpoint.path, internalBase);
    for (const [key, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return runEndpoint(runtime, endpoint, {
      method: endpoint.method,
      url,
      headers,
      params: input.params ?? {},
      ip: "",
      body: input.body,
      server: true,
    });
  };

  const api = new Proxy({} as GatehouseApi, {
    get(_target, property) {
      if (property === "withHeaders") {
        return async (name: string, input?: CallInput) => {
          const result = await call(name, input);
          return { data: result.data, headers: result.headers };
        };
      }
      if (typeof property !== "string" || !(property in endpoints)) return undefined;
      return async (input?: CallInput) => (await call(property, input)).data;
    },
  });

  const sweep = setInterval(() => {
    const t = now();
    Promise.all([stores.sessions.deleteExpiredSessions(t), stores.verifications.deleteExpiredVerifications(t)]).catch(
      (error: Error) => logger.warn({ err: error.message }, "expired-row sweep failed"),
    );
  }, 3_600_000);
  sweep.unref();
  // The modules' background work (the audit log's prune, the webhook dispatcher), stopped by close().
  const started: { stop(): void | Promise<void> }[] = [];
  let backgroundStarted = false;
  let closed = false;
  const startBackground = () => {
    if (backgroundStarted || closed) return;
    backgroundStarted = true;
    for (const module of modules) {
      const running = module.start?.(runtime);
      if (running) started.push(running);
    }
  };
  if (context.background !== false) startBackground();

  return {
    config,
    handler: (request) => fetch(request),
    fetch,
    nodeFastPath,
    api,
    runtime,
    database,
    metrics,
    migrate: () => migrateDatabase(database, modules),
    startBackground,
    async close() {
      closed = true;
      clearInterval(sweep);
      for (const mount of mounts) mount.close?.();
      await Promise.allSettled(started.map((running) => running.stop()));
      await Promise.allSettled([
        context.hasher ? undefined : hasher.close(),
        context.secondaryStorage ? undefined : storage.close(),
        context.mailer ? undefined : mailer.close(),
        database.close(),
      ]);
    },
  };
}
export { serveGatehouse, type RunningServer } from "./node-server.js";

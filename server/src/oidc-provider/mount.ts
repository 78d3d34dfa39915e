import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { ModuleMount } from "../gatehouse-module.js";
import { STANDARD_METHODS } from "../http/app.js";
import { clientIp } from "../http/client-ip.js";
import type { RateLimitDeclaration } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import { createRateLimiter, UNMATCHED_ROUTE } from "../http/rate-limit.js";
import type { Runtime } from "../runtime.js";
import { isUnavailableError } from "../storage/database.js";
import type { RouteRecorder } from "../metrics/route-histogram.js";
import { StorageUnavailableError } from "../storage/secondary/types.js";
import type { EngineProvider } from "./engine-types.js";
import { oidcService } from "./service.js";
import type { OidcRepositories } from "./store/index.js";

/**
 * Where oidc-provider answers (README "OpenID Provider"): its endpoints under the API's base path
 * (`/api/auth/oauth2/...`, Better Auth's provider's paths, and `/api/auth/jwks`), the discovery document at the
 * issuer's `/.well-known/openid-configuration` and the same document under the base path. oidc-provider is a Node
 * request handler (Koa): the bundled server hands it the request as it came (`node`); the web-standard handler
 * (`fetch`, library use) goes through a small bridge.
 *
 * Before it gets the request, the Host and forwarded headers are set from the issuer: oidc-provider builds URLs from
 * them, and this service never takes a URL from a client's Host header.
 *
 * With metrics on, each answer is timed under its endpoint's route (`/oauth2/token`, `/jwks`, the discovery
 * document's path for all its addresses, `/oauth2/authorize/:uid`), like the router's routes: never the path as
 * sent.
 */
const DISCOVERY = "/.well-known/openid-configuration";
const AUTHORIZATION_SERVER_METADATA = "/.well-known/oauth-authorization-server";

/** Per client address and endpoint; the API's own `rateLimit.customRules` win (keyed by the path after the base path). */
const MACHINE_RULE: RateLimitDeclaration = { window: 10, max: 1000 };
const PUBLIC_DOCUMENT_RULE: RateLimitDeclaration = { window: 10, max: 300 };

export function createOidcMount(runtime: Runtime): ModuleMount {
  const service = oidcService(runtime);
  const { basePath } = runtime.config;
  const paths = service.paths;
  const limiter = createRateLimiter(runtime.config, runtime.storage);
  const ipHeaders = runtime.config.advanced.ipAddress.disableIpTracking ? [] : runtime.config.advanced.ipAddress.ipAddressHeaders;

  /** Exact paths: the limiter's route key and rule. */
  const exact = new Map<string, { route: string; rule?: RateLimitDeclaration; rewrite?: string }>([
    [DISCOVERY, { route: DISCOVERY, rule: PUBLIC_DOCUMENT_RULE }],
    [`${basePath}${DISCOVERY}`, { route: DISCOVERY, rule: PUBLIC_DOCUMENT_RULE, rewrite: DISCOVERY }],
    [AUTHORIZATION_SERVER_METADATA, { route: DISCOVERY, rule: PUBLIC_DOCUMENT_RULE, rewrite: DISCOVERY }],
    [`${basePath}${AUTHORIZATION_SERVER_METADATA}`, { route: DISCOVERY, rule: PUBLIC_DOCUMENT_RULE, rewrite: DISCOVERY }],
    [`${AUTHORIZATION_SERVER_METADATA}${basePath}`, { route: DISCOVERY, rule: PUBLIC_DOCUMENT_RULE, rewrite: DISCOVERY }],
    [paths.jwks, { route: "/jwks", rule: PUBLIC_DOCUMENT_RULE }],
    [paths.authorize, { route: "/oauth2/authorize" }],
    [paths.token, { route: "/oauth2/token", rule: MACHINE_RULE }],
    [paths.userinfo, { route: "/oauth2/userinfo", rule: MACHINE_RULE }],
    [paths.introspect, { route: "/oauth2/introspect", rule: MACHINE_RULE }],
    [paths.revoke, { route: "/oauth2/revoke", rule: MACHINE_RULE }],
    [paths.endSession, { route: "/oauth2/end-session" }],
    [`${paths.endSession}/confirm`, { route: "/oauth2/end-session/confirm" }],
    [`${paths.endSession}/success`, { route: "/oauth2/end-session/success" }],
    [paths.register, { route: "/oauth2/register" }],
  ]);
  const resumePrefix = `${paths.authorize}/`;
  const registrationPrefix = `${paths.register}/`;

  const routeOf = (pathname: string) => {
    const known = exact.get(pathname);
    if (known) return known;
    if (pathname.startsWith(resumePrefix) && !pathname.slice(resumePrefix.length).includes("/")) return { route: "/oauth2/authorize/:uid" };
    if (pathname.startsWith(registrationPrefix)) return { route: "/oauth2/register/:id" };
    return null;
  };

  const callbacks = new WeakMap<EngineProvider, (req: IncomingMessage, res: ServerResponse) => void>();

  /** The request-duration recorder of an endpoint's route (metrics on), else undefined. */
  const { metrics } = runtime;
  const recorderOf = (pathname: string, method: string): RouteRecorder | undefined =>
    metrics.enabled
      ? metrics.httpRoute(routeOf(pathname)?.route ?? UNMATCHED_ROUTE, STANDARD_METHODS.has(method) ? method : "OTHER")
      : undefined;

  /** Everything before oidc-provider: the rate limit, the provider (built on first need), the headers from the issuer. */
  const prepare = async (req: IncomingMessage, pathname: string, remoteAddress: string | undefined) => {
    const matched = routeOf(pathname)!;
    const ip = runtime.config.advanced.ipAddress.disableIpTracking
      ? ""
      : clientIp((name) => headerOf(req, name), remoteAddress, ipHeaders);
    if (runtime.config.rateLimitEnabled) await limiter.check(ip || "unknown", matched.route, matched.rule);
    await service.ready();
    const provider = await service.provider();
    const issuer = new URL(provider.issuer);
    req.headers.host = issuer.host;
    req.headers["x-forwarded-proto"] = issuer.protocol.slice(0, -1);
    delete req.headers["x-forwarded-host"];
    delete req.headers.forwarded;
    if (ip) req.headers["x-forwarded-for"] = ip;
    else delete req.headers["x-forwarded-for"];
    const query = req.url!.includes("?") ? req.url!.slice(req.url!.indexOf("?")) : "";
    if (matched.rewrite) req.url = matched.rewrite + query;
    // oidc-provider finds its mount path in originalUrl: the issuer's path (empty for a bare origin).
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = issuer.pathname.replace(/\/+$/, "") + req.url;
    let callback = callbacks.get(provider);
    if (!callback) {
      callback = provider.callback();
      callbacks.set(provider, callback);
    }
    return callback;
  };

  const failure = (error: unknown): { status: number; headers: Record<string, string>; body: string } => {
    if (error instanceof APIError) {
      return { status: error.status, headers: { "content-type": "application/json", ...(error.headers ?? {}) }, body: JSON.stringify(error.toJSON()) };
    }
    if (error instanceof StorageUnavailableError || isUnavailableError(error)) {
      return {
        status: 503,
        headers: { "content-type": "application/json", "retry-after": "1" },
        body: JSON.stringify({ error: "temporarily_unavailable", error_description: "the service is temporarily unavailable" }),
      };
    }
    runtime.logger.error({ err: error instanceof Error ? { message: error.message, stack: error.stack } : String(error) }, "OpenID Provider unavailable");
    return {
      status: 500,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ error: "server_error", error_description: "the OpenID Provider is not available" }),
    };
  };

  // Expired codes, tokens, sessions and interactions go hourly (the adapter never answers them anyway).
  const sweep = setInterval(() => {
    (runtime.stores as unknown as OidcRepositories).oidcPayloads
      .deleteExpiredPayloads(runtime.now())
      .catch((error: Error) => runtime.logger.warn({ err: error.message }, "OpenID Provider sweep failed"));
  }, 3_600_000);
  sweep.unref();

  return {
    close() {
      clearInterval(sweep);
      service.close();
    },
    owns(pathname) {
      return routeOf(pathname) !== null;
    },
    node(req, res, remoteAddress) {
      const pathname = pathnameOf(req.url ?? "/");
      const recorder = recorderOf(pathname, req.method ?? "GET");
      if (recorder) {
        const start = performance.now();
        res.once("finish", () => recorder.observe(res.statusCode, (performance.now() - start) / 1000));
      }
      prepare(req, pathname, remoteAddress).then(
        (callback) => callback(req, res),
        (error: unknown) => {
          const { status, headers, body } = failure(error);
          if (res.headersSent) return void res.end();
          res.writeHead(status, { ...headers, "cache-control": "no-store" });
          res.end(body);
        },
      );
    },
    async fetch(request, remoteAddress) {
      const url = new URL(request.url);
      const recorder = recorderOf(url.pathname, request.method);
      const start = recorder ? performance.now() : 0;
      const answer = async (): Promise<Response> => {
        const body = request.method === "GET" || request.method === "HEAD" ? null : Buffer.from(await request.arrayBuffer());
        const req = bridgeRequest(request, url.pathname + url.search, body, remoteAddress);
        try {
          const callback = await prepare(req, url.pathname, remoteAddress);
          const res = new BridgeResponse();
          callback(req, res as unknown as ServerResponse);
          return await res.done;
        } catch (error) {
          const { status, headers, body: text } = failure(error);
          return new Response(text, { status, headers: { ...headers, "cache-control": "no-store" } });
        }
      };
      const response = await answer();
      recorder?.observe(response.status, (performance.now() - start) / 1000);
      return response;
    },
  };
}

function pathnameOf(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}

/** A Node request (readable body, headers, socket) made from a web-standard Request, for oidc-provider's Koa. */
function bridgeRequest(request: Request, url: string, body: Buffer | null, remoteAddress: string | undefined): IncomingMessage {
  const req = Readable.from(body ? [body] : []) as unknown as IncomingMessage & Record<string, unknown>;
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (body) headers["content-length"] = String(body.length);
  Object.assign(req, {
    headers,
    rawHeaders: Object.entries(headers).flat(),
    url,
    method: request.method,
    httpVersion: "1.1",
    httpVersionMajor: 1,
    httpVersionMinor: 1,
    socket: { remoteAddress, encrypted: false },
    connection: { remoteAddress, encrypted: false },
    complete: true,
  });
  return req;
}

/** The response side of the bridge: collects what Koa writes and resolves to a web-standard Response. */
class BridgeResponse extends EventEmitter {
  statusCode = 200;
  statusMessage = "";
  headersSent = false;
  finished = false;
  writableEnded = false;
  socket: null = null;
  private readonly headers = new Map<string, string | string[] | number>();
  private readonly chunks: Buffer[] = [];
  private resolve!: (response: Response) => void;
  readonly done = new Promise<Response>((resolve) => {
    this.resolve = resolve;
  });

  setHeader(name: string, value: string | string[] | number): this {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }
  getHeader(name: string) {
    return this.headers.get(name.toLowerCase());
  }
  getHeaders() {
    return Object.fromEntries(this.headers);
  }
  getHeaderNames() {
    return [...this.headers.keys()];
  }
  hasHeader(name: string) {
    return this.headers.has(name.toLowerCase());
  }
  removeHeader(name: string) {
    this.headers.delete(name.toLowerCase());
  }
  writeHead(status: number, headers?: Record<string, string | string[]>) {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers ?? {})) this.setHeader(name, value);
    this.headersSent = true;
    return this;
  }
  write(chunk: string | Buffer) {
    this.headersSent = true;
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    return true;
  }
  end(chunk?: string | Buffer | (() => void)) {
    if (this.writableEnded) return this;
    if (chunk !== undefined && typeof chunk !== "function") this.write(chunk);
    this.headersSent = true;
    this.writableEnded = true;
    this.finished = true;
    const headers = new Headers();
    for (const [name, value] of this.headers) {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else headers.set(name, String(value));
    }
    const status = this.statusCode;
    const bodyless = status === 204 || status === 304 || (status >= 300 && status < 400 && this.chunks.length === 0);
    this.resolve(new Response(bodyless ? null : Buffer.concat(this.chunks), { status, headers }));
    this.emit("finish");
    return this;
  }
}

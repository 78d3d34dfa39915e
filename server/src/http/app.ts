import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Runtime } from "../runtime.js";
import { isUnavailableError } from "../storage/database.js";
import { StorageUnavailableError } from "../storage/secondary/types.js";
import { clientIp, isLocalRequest } from "./client-ip.js";
import type { AnyEndpoint, RateLimitDeclaration } from "./endpoint.js";
import { APIError } from "./errors.js";
import { HTTP_FIXED_CODES, HTTP_MESSAGES } from "./messages.js";
import { buildOpenApiDocument, renderReferencePage } from "./openapi.js";
import { MAX_BODY_BYTES, runEndpoint, type CallResult } from "./pipeline.js";
import { VERSION } from "../version.js";
import { createRateLimiter, UNMATCHED_ROUTE } from "./rate-limit.js";
import { createGetSessionFastPath, type NodeFastPath } from "./fast-path.js";
import type { RouteRecorder } from "../metrics/route-histogram.js";
import { answerScrape, METRICS_PATH, metricsGuard } from "../metrics/serve.js";

export interface ServerEnv {
  /** The client address of the socket, when served by node:http. */
  remoteAddress?: string | undefined;
  [key: string]: unknown;
}

type HonoEnv = { Bindings: ServerEnv & { ip: string } };

/** The methods that are a metrics label as they are; any other is `OTHER` (a client cannot add series). */
export const STANDARD_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

// A fresh object per response: the node adapter may add content-length to the init object it is given.
const jsonHeaders = (): Record<string, string> => ({ "content-type": "application/json" });

/** The one place where an error becomes a response: `{ code, message }`, never a stack trace. */
export function errorResponse(runtime: Runtime, error: unknown, request?: Request): Response {
  if (error instanceof APIError) {
    const headers = new Headers(jsonHeaders());
    for (const [name, value] of Object.entries(error.headers ?? {})) headers.set(name, value);
    return new Response(JSON.stringify(error.toJSON()), { status: error.status, headers });
  }
  if (error instanceof StorageUnavailableError || isUnavailableError(error)) {
    runtime.logger.warn({ err: (error as Error).message, path: request ? new URL(request.url).pathname : undefined }, "storage unavailable");
    return new Response(JSON.stringify({ code: "SERVICE_UNAVAILABLE", message: HTTP_FIXED_CODES.SERVICE_UNAVAILABLE }), {
      status: 503,
      headers: { ...jsonHeaders(), "retry-after": "1" },
    });
  }
  runtime.logger.error(
    { err: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) },
    "unhandled error",
  );
  return new Response(JSON.stringify({ code: "INTERNAL_SERVER_ERROR", message: HTTP_MESSAGES.INTERNAL_SERVER_ERROR }), {
    status: 500,
    headers: jsonHeaders(),
  });
}

/** The headers of every answer of a route that carries a single-use token (Endpoint.carriesToken). */
function keepTokenPrivate(response: Response): Response {
  response.headers.set("cache-control", "no-store");
  response.headers.set("referrer-policy", "no-referrer");
  return response;
}

export function toResponse(result: CallResult): Response {
  const headers = result.headers;
  if (result.redirect !== undefined) return new Response(null, { status: result.status, headers });
  if (result.raw) {
    headers.set("content-type", result.raw.contentType);
    return new Response(result.raw.body, { status: result.raw.status, headers });
  }
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify(result.data), { status: result.status, headers });
}

export interface HttpHandler {
  fetch(request: Request, env?: ServerEnv): Promise<Response>;
  /** The node:http shortcut for GET /get-session (see fast-path.ts). */
  nodeFastPath: NodeFastPath;
}

export function createHttpHandler(runtime: Runtime, endpoints: readonly AnyEndpoint[]): HttpHandler {
  const { basePath } = runtime.config;
  const { metrics } = runtime;
  const limiter = createRateLimiter(runtime.config, runtime.storage, () => metrics.rateLimitRefused("client"));
  const ipHeaders = runtime.config.advanced.ipAddress.disableIpTracking
    ? []
    : runtime.config.advanced.ipAddress.ipAddressHeaders;
  const proxyHeaders = runtime.config.advanced.ipAddress.ipAddressHeaders;
  const app = new Hono<HonoEnv>();
  /**
   * Rate limits run after routing, keyed by the route the router matched (rate-limit.ts): however a client spells
   * a path (percent-encoded, doubled slashes), the request that reaches a handler is counted against that handler's
   * route. Requests no route matches share one counter per client.
   */
  const limit = async (env: HonoEnv["Bindings"], route: string, declared?: RateLimitDeclaration) => {
    if (runtime.config.rateLimitEnabled) await limiter.check(env.ip || "unknown", route, declared);
  };
  const localOnly = (request: Request, env: HonoEnv["Bindings"]) => {
    if (!isLocalRequest(env.remoteAddress, (name) => request.headers.get(name), runtime.base.url(), proxyHeaders)) {
      throw new APIError("NOT_FOUND", HTTP_MESSAGES.NOT_FOUND);
    }
  };

  /**
   * Hono's body limit: a body declared or grown past MAX_BODY_BYTES is refused (413) before anything parses it; one
   * sent without a length is read into memory up to the limit. It runs after the rate limit, as the body is read.
   * The rest of a refused body is never read, so the answer closes the connection (the client must not send its
   * next request on it).
   */
  /**
   * With metrics on, each route's answers are timed under its declared path (metrics/route-histogram.ts): from the
   * router's match to the finished Response, errors included (answered here as onError would). Off: not wrapped.
   */
  type Handle = (c: Context<HonoEnv>) => Promise<Response>;
  const timed =
    (recorder: RouteRecorder, handle: Handle): Handle =>
    async (c) => {
      const start = performance.now();
      let response: Response;
      try {
        response = await handle(c);
      } catch (error) {
        response = errorResponse(runtime, error, c.req.raw);
      }
      recorder.observe(response.status, (performance.now() - start) / 1000);
      return response;
    };
  const measured = (route: string, method: string, handle: Handle): Handle =>
    metrics.enabled ? timed(metrics.httpRoute(route, method), handle) : handle;

  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new APIError(413, HTTP_MESSAGES.REQUEST_BODY_IS_TOO_LARGE, { headers: { connection: "close" } });
    },
  });

  for (const endpoint of endpoints) {
    if (endpoint.serverOnly) continue;
    const answer = async (c: Context<HonoEnv>, params: Record<string, string>) => {
      const env = c.env;
      await limit(env, endpoint.path, endpoint.rateLimit);
      if (endpoint.loopbackOnly) localOnly(c.req.raw, env);
      // It may put a buffered copy of the request in c.req.raw.
      if (endpoint.method !== "GET") await limitBody(c, async () => {});
      const request = c.req.raw;
      const result = await runEndpoint(runtime, endpoint, {
        method: request.method,
        url: new URL(request.url),
        headers: request.headers,
        params,
        ip: env.ip,
        request,
        server: false,
      });
      if (endpoint.path === "/get-session") {
        result.headers.set("cache-control", "no-store");
        result.headers.set("pragma", "no-cache");
      }
      return toResponse(result);
    };
    app.on(
      endpoint.method,
      basePath + endpoint.path,
      measured(endpoint.path, endpoint.method, async (c: Context<HonoEnv>) => {
        const params = c.req.param() as Record<string, string>;
        if (!endpoint.carriesToken) return answer(c, params);
        let response: Response;
        try {
          response = await answer(c, params);
        } catch (error) {
          response = errorResponse(runtime, error, c.req.raw);
        }
        return keepTokenPrivate(response);
      }),
    );
  }
  // The API's own description, built once from the route declarations.
  let openApi: { json: string; html: string } | undefined;
  const describeApi = () => {
    if (!openApi) {
      const document = buildOpenApiDocument(endpoints, basePath, VERSION);
      openApi = { json: JSON.stringify(document), html: renderReferencePage(document) };
    }
    return openApi;
  };
  app.get(
    `${basePath}/openapi.json`,
    measured("/openapi.json", "GET", async (c: Context<HonoEnv>) => {
      await limit(c.env, "/openapi.json");
      return new Response(describeApi().json, { headers: jsonHeaders() });
    }),
  );
  app.get(
    `${basePath}/reference`,
    measured("/reference", "GET", async (c: Context<HonoEnv>) => {
      await limit(c.env, "/reference");
      return new Response(describeApi().html, {
        headers: {
          "content-type": "text/html; charset=utf-8",
          "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
        },
      });
    }),
  );
  // GET /metrics on this port, unless metrics.port gives it one of its own (metrics/serve.ts).
  if (metrics.enabled && runtime.config.metrics.port === undefined) {
    const authorized = metricsGuard(runtime.config);
    app.get(
      METRICS_PATH,
      measured(METRICS_PATH, "GET", async (c: Context<HonoEnv>) => {
        await limit(c.env, METRICS_PATH);
        const answer = await answerScrape(metrics, authorized, c.req.header("authorization"));
        return new Response(answer.body, { status: answer.status, headers: answer.headers });
      }),
    );
  }
  const notFound = async (c: Context<HonoEnv>) => {
    try {
      await limit(c.env, UNMATCHED_ROUTE);
    } catch (error) {
      return errorResponse(runtime, error, c.req.raw);
    }
    return new Response(JSON.stringify({ code: "NOT_FOUND", message: HTTP_MESSAGES.NOT_FOUND }), {
      status: 404,
      headers: jsonHeaders(),
    });
  };
  // Unmatched requests are one route in the metrics, and their method a label only when it is a standard one: a
  // client choosing paths and methods cannot add series.
  const unmatched = new Map<string, Handle>();
  app.notFound(
    metrics.enabled
      ? (c) => {
          const method = STANDARD_METHODS.has(c.req.method) ? c.req.method : "OTHER";
          let handle = unmatched.get(method);
          if (!handle) unmatched.set(method, (handle = measured(UNMATCHED_ROUTE, method, notFound)));
          return handle(c);
        }
      : notFound,
  );
  app.onError((error, c) => errorResponse(runtime, error, c.req.raw));

  return {
    nodeFastPath: createGetSessionFastPath(runtime, limiter, ipHeaders, (error) => errorResponse(runtime, error)),
    async fetch(request, env = {}) {
      const ip = runtime.config.advanced.ipAddress.disableIpTracking
        ? ""
        : clientIp((name) => request.headers.get(name), env.remoteAddress, ipHeaders);
      return app.fetch(request, { ...env, ip });
    },
  };
}

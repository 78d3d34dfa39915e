import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Config } from "../config/index.js";
import type { Logger } from "../logger.js";
import { HTTP_MESSAGES } from "../http/messages.js";
import type { Metrics } from "./metrics.js";

/**
 * Serving `GET /metrics`. With `metrics.token`, a scrape must send `Authorization: Bearer <token>` (compared in
 * constant time; anything else is 401 with `WWW-Authenticate: Bearer`). With `metrics.port`, the text is served on
 * that port alone (metricsListener below), where nothing else answers, and the main port answers /metrics 404;
 * a token, when also set, is asked for there too. Without either, start-up refuses `metrics.enabled`.
 */

export const METRICS_PATH = "/metrics";

export interface MetricsAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const json = (status: number, code: string, message: string, extra: Record<string, string> = {}): MetricsAnswer => ({
  status,
  headers: { "content-type": "application/json", ...extra },
  body: JSON.stringify({ code, message }),
});

/** The bearer-token check, made once: the token's digest is compared with the digest of what was sent. */
export function metricsGuard(config: Pick<Config, "metrics">): (authorization: string | null | undefined) => boolean {
  const token = config.metrics.token;
  if (token === undefined) return () => true;
  const expected = createHash("sha256").update(token).digest();
  return (authorization) => {
    const match = authorization ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization) : null;
    // Both sides are 32-byte digests: the comparison takes the same time whatever was sent, its length included.
    const sent = createHash("sha256").update(match?.[1] ?? "").digest();
    return timingSafeEqual(sent, expected) && match !== null;
  };
}

/** One scrape: 401 without the token, else the text format. */
export async function answerScrape(
  metrics: Metrics,
  authorized: (authorization: string | null | undefined) => boolean,
  authorization: string | null | undefined,
): Promise<MetricsAnswer> {
  if (!authorized(authorization)) {
    return json(401, "UNAUTHORIZED", HTTP_MESSAGES.UNAUTHORIZED, { "www-authenticate": 'Bearer realm="metrics"' });
  }
  return {
    status: 200,
    headers: { "content-type": metrics.contentType, "cache-control": "no-store" },
    body: await metrics.render(),
  };
}

export interface MetricsListener {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/**
 * The port of its own (`metrics.port` on `metrics.host`): `GET /metrics` (a query string is ignored) and nothing
 * else, every other path and method 404. Requests here are not counted in the request metrics: they are the scrapes.
 */
export function listenForScrapes(
  metrics: Metrics,
  config: Pick<Config, "metrics">,
  logger: Pick<Logger, "error">,
): Promise<MetricsListener> {
  const authorized = metricsGuard(config);
  const server = createServer((req, res) => {
    const url = req.url ?? "";
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    const send = (answer: MetricsAnswer) => {
      res.writeHead(answer.status, { ...answer.headers, "content-length": Buffer.byteLength(answer.body) });
      res.end(req.method === "HEAD" ? undefined : answer.body);
    };
    if (path !== METRICS_PATH || (req.method !== "GET" && req.method !== "HEAD")) {
      send(json(404, "NOT_FOUND", HTTP_MESSAGES.NOT_FOUND));
      return;
    }
    answerScrape(metrics, authorized, req.headers.authorization).then(send, (error: Error) => {
      logger.error({ err: error.message }, "metrics scrape failed");
      send(json(500, "INTERNAL_SERVER_ERROR", HTTP_MESSAGES.INTERNAL_SERVER_ERROR));
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.metrics.port ?? 0, config.metrics.host, () => {
      server.off("error", reject);
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.closeIdleConnections();
            server.close(() => done());
            setTimeout(() => server.closeAllConnections(), 2_000).unref();
          }),
      });
    });
  });
}

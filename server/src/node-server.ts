import { getRequestListener, type Http2Bindings, type HttpBindings } from "@hono/node-server";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { HTTP_MESSAGES } from "./http/messages.js";
import { listenForScrapes, METRICS_PATH, type MetricsListener } from "./metrics/serve.js";
import type { Gatehouse } from "./index.js";
import type { WebApp } from "./web-app.js";

export interface RunningServer {
  server: Server;
  port: number;
  /** With `metrics.port`: the port GET /metrics is served on (metrics/serve.ts). */
  metricsPort?: number | undefined;
  close(): Promise<void>;
}

const NOT_FOUND = () =>
  new Response(JSON.stringify({ code: "NOT_FOUND", message: HTTP_MESSAGES.NOT_FOUND }), {
    status: 404,
    headers: { "content-type": "application/json" },
  });

/**
 * Serves a Gatehouse over node:http, passing each socket's address on for rate limits and sessions.
 * GET /get-session takes the node fast path; with a web app, paths outside the API base path are the app's.
 * Without BASE_URL, the address it listens at becomes the service's base (`http://localhost:PORT` on 0.0.0.0 or ::).
 * With metrics on, GET /metrics is the service's too (not the web app's), or, with `metrics.port`, served on that
 * port by a second server, which close() closes with the first.
 */
export async function serveGatehouse(
  gatehouse: Pick<Gatehouse, "fetch" | "config" | "nodeFastPath" | "runtime">,
  opts: { port: number; hostname: string; webApp?: WebApp | null },
): Promise<RunningServer> {
  const basePath = gatehouse.config.basePath;
  const webApp = opts.webApp ?? null;
  const { metrics } = gatehouse.runtime;
  const metricsHere = metrics.enabled && gatehouse.config.metrics.port === undefined;
  const scrapes: MetricsListener | null =
    metrics.enabled && !metricsHere ? await listenForScrapes(metrics, gatehouse.config, gatehouse.runtime.logger) : null;
  const listener = getRequestListener((request: Request, env: HttpBindings | Http2Bindings) => {
    const path = request.url.slice(request.url.indexOf("/", 8));
    if (
      path.startsWith(basePath + "/") ||
      path === basePath ||
      !webApp ||
      (metricsHere && (path === METRICS_PATH || path.startsWith(METRICS_PATH + "?")))
    ) {
      return gatehouse.fetch(request, { remoteAddress: env.incoming.socket.remoteAddress });
    }
    return webApp.serve(request) ?? NOT_FOUND();
  });
  const server = createServer((req, res) => {
    if (!gatehouse.nodeFastPath(req, res)) void listener(req, res);
  });
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => {
      void scrapes?.close();
      reject(error);
    };
    server.once("error", failed);
    server.listen(opts.port, opts.hostname, () => {
      server.off("error", failed);
      const port = (server.address() as AddressInfo).port;
      // Without BASE_URL, links and the origin check use where the service listens, fixed now (public-base.ts).
      gatehouse.runtime.base.listeningOn(opts.hostname, port);
      resolve({
        server,
        port,
        metricsPort: scrapes?.port,
        close: async () => {
          await Promise.all([
            new Promise<void>((done) => {
              server.closeIdleConnections();
              server.close(() => done());
              setTimeout(() => server.closeAllConnections(), 2_000).unref();
            }),
            scrapes?.close(),
          ]);
        },
      });
    });
  });
}

export interface StartupNote {
  level: "info" | "warn";
  fields: Record<string, unknown>;
  message: string;
}

/**
 * What the start-up log says besides the listening address, once serveGatehouse has fixed the base: where mail goes
 * (the development outbox holds every reset and verification link, so it says who can read it) and, without
 * BASE_URL, which base links are built on, as a warning: behind a proxy or on a public name that base is wrong.
 */
export function startupNotes(
  gatehouse: Pick<Gatehouse, "config" | "runtime">,
  running?: Pick<RunningServer, "metricsPort">,
): StartupNote[] {
  const { mailer, base } = gatehouse.runtime;
  const mail = mailer.outbox
    ? `kept in the development outbox at /dev/outbox, readable from this machine only`
    : mailer.describe.startsWith("smtp://")
      ? `sent through the SMTP server at ${mailer.describe.slice("smtp://".length)}`
      : mailer.describe.startsWith("none")
        ? "not sent: no SMTP server is configured (set SMTP_URL)"
        : `handed to ${mailer.describe}`;
  const notes: StartupNote[] = [{ level: "info", fields: { mail: mailer.describe }, message: `mail is ${mail}` }];
  const metrics = gatehouse.config.metrics;
  if (metrics.enabled) {
    const where =
      metrics.port === undefined ? "on the service's port" : `on ${metrics.host}:${running?.metricsPort ?? metrics.port} only`;
    const guard = metrics.token === undefined ? "" : ", with its bearer token";
    notes.push({ level: "info", fields: { metrics: true }, message: `metrics are served at GET /metrics ${where}${guard}` });
  }
  if (!gatehouse.config.baseURL) {
    notes.push({
      level: "warn",
      fields: { base: base.url() },
      message: `BASE_URL is not set: links in mail and OAuth redirects point at ${base.url() ?? "nothing"} and only its origin and this machine's are trusted; set BASE_URL to the public URL in production`,
    });
  }
  return notes;
}

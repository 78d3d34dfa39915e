import { serve, type HttpBindings, type Http2Bindings } from "@hono/node-server";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Gatehouse } from "./index.js";
import type { WebApp } from "./web-app.js";

export interface RunningServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

const NOT_FOUND = () =>
  new Response(JSON.stringify({ code: "NOT_FOUND", message: "Not found" }), {
    status: 404,
    headers: { "content-type": "application/json" },
  });

/**
 * Serves a Gatehouse over node:http, passing each socket's address on for rate limits and sessions.
 * With a web app, paths outside the API base path are the app's.
 */
export function serveGatehouse(
  gatehouse: Pick<Gatehouse, "fetch" | "config">,
  opts: { port: number; hostname: string; webApp?: WebApp | null },
): Promise<RunningServer> {
  const basePath = gatehouse.config.basePath;
  const webApp = opts.webApp ?? null;
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: (request: Request, env: HttpBindings | Http2Bindings) => {
          const path = request.url.slice(request.url.indexOf("/", 8));
          if (path.startsWith(basePath + "/") || path === basePath || !webApp) {
            return gatehouse.fetch(request, { remoteAddress: env.incoming.socket.remoteAddress });
          }
          return webApp.serve(request) ?? NOT_FOUND();
        },
        port: opts.port,
        hostname: opts.hostname,
      },
      (info: AddressInfo) =>
        resolve({
          server: server as Server,
          port: info.port,
          close: () =>
            new Promise<void>((done) => {
              (server as Server).closeIdleConnections();
              server.close(() => done());
              setTimeout(() => (server as Server).closeAllConnections(), 2_000).unref();
            }),
        }),
    );
    server.once("error", reject);
  });
}

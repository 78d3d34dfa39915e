import { getRequestListener, type Http2Bindings, type HttpBindings } from "@hono/node-server";
import { createServer, type Server } from "node:http";
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
 * GET /get-session takes the node fast path; with a web app, paths outside the API base path are the app's.
 */
export function serveGatehouse(
  gatehouse: Pick<Gatehouse, "fetch" | "config" | "nodeFastPath">,
  opts: { port: number; hostname: string; webApp?: WebApp | null },
): Promise<RunningServer> {
  const basePath = gatehouse.config.basePath;
  const webApp = opts.webApp ?? null;
  const listener = getRequestListener((request: Request, env: HttpBindings | Http2Bindings) => {
    const path = request.url.slice(request.url.indexOf("/", 8));
    if (path.startsWith(basePath + "/") || path === basePath || !webApp) {
      return gatehouse.fetch(request, { remoteAddress: env.incoming.socket.remoteAddress, incoming: env.incoming });
    }
    return webApp.serve(request) ?? NOT_FOUND();
  });
  const server = createServer((req, res) => {
    if (!gatehouse.nodeFastPath(req, res)) void listener(req, res);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.hostname, () => {
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

import { serve, type HttpBindings, type Http2Bindings } from "@hono/node-server";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Gatehouse } from "./index.js";

export interface RunningServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** Serves a Gatehouse over node:http, passing each socket's address on for rate limits and sessions. */
export function serveGatehouse(
  gatehouse: Pick<Gatehouse, "fetch">,
  opts: { port: number; hostname: string },
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: (request: Request, env: HttpBindings | Http2Bindings) =>
          gatehouse.fetch(request, { remoteAddress: env.incoming.socket.remoteAddress }),
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

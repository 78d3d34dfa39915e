import type { IncomingMessage, ServerResponse } from "node:http";
import type { Runtime } from "../runtime.js";
import { sessionAnswer } from "../session/routes.js";
import { clientIp } from "./client-ip.js";
import { parseCookies, serializeCookie } from "./cookies.js";
import type { RateLimiter } from "./rate-limit.js";

/**
 * GET /get-session straight on node:http. It is the request every application makes on every page view,
 * so it skips the web-standard Request/Response layer and the router: the same session logic
 * (readSession, the same answer), without building a Request, a Headers, a URL or a Response per call
 * (PERF-NOTES.md item 4). Anything unusual (an unknown or malformed query value) is left to the full path,
 * which answers it like any other route.
 */
export type NodeFastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

const BOOLEANS: Record<string, boolean> = { true: true, "1": true, "": true, false: false, "0": false };

export function createGetSessionFastPath(
  runtime: Runtime,
  limiter: RateLimiter,
  ipHeaders: readonly string[],
  toErrorResponse: (error: unknown) => Response,
): NodeFastPath {
  const path = `${runtime.config.basePath}/get-session`;
  // The same series as the routed form's (metrics on): the route's declared path, whichever way it was served.
  const recorder = runtime.metrics.enabled ? runtime.metrics.httpRoute("/get-session", "GET") : undefined;

  const parseQuery = (query: string): { disableCookieCache: boolean; disableRefresh: boolean } | null => {
    const flags = { disableCookieCache: false, disableRefresh: false };
    for (const [key, value] of new URLSearchParams(query)) {
      const flag = BOOLEANS[value];
      if (flag === undefined || !(key === "disableCookieCache" || key === "disableRefresh")) return null;
      flags[key] = flag;
    }
    return flags;
  };

  const serve = async (req: IncomingMessage, res: ServerResponse, flags: NonNullable<ReturnType<typeof parseQuery>>) => {
    const setCookies: string[] = [];
    const start = recorder ? performance.now() : 0;
    try {
      if (runtime.config.rateLimitEnabled) {
        const ip = runtime.config.advanced.ipAddress.disableIpTracking
          ? "unknown"
          : clientIp((name) => headerValue(req, name), req.socket.remoteAddress, ipHeaders) || "unknown";
        // The route's declared path, the key the routed form (`/get-s%65ssion`, …) is counted under too.
        await limiter.check(ip, "/get-session");
      }
      let cookies: Map<string, string> | undefined;
      const jar = {
        cookie: (name: string) => (cookies ??= parseCookies(req.headers.cookie)).get(name),
        setCookie: (name: string, value: string, attributes?: Parameters<typeof serializeCookie>[2]) => {
          setCookies.push(serializeCookie(name, value, attributes));
        },
      };
      const data = await runtime.sessions.readSession(jar, {
        disableCookieCache: flags.disableCookieCache,
        refresh: !flags.disableRefresh,
      });
      const body = JSON.stringify(sessionAnswer(data));
      const headers: Record<string, string | string[] | number> = {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        "cache-control": "no-store",
        pragma: "no-cache",
      };
      if (setCookies.length) headers["set-cookie"] = setCookies;
      res.writeHead(200, headers);
      res.end(body);
      recorder?.observe(200, (performance.now() - start) / 1000);
    } catch (error) {
      const response = toErrorResponse(error);
      const headers: Record<string, string | string[]> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      if (setCookies.length) headers["set-cookie"] = setCookies;
      res.writeHead(response.status, headers);
      res.end(await response.text());
      recorder?.observe(response.status, (performance.now() - start) / 1000);
    }
  };

  return (req, res) => {
    if (req.method !== "GET") return false;
    const url = req.url ?? "";
    const q = url.indexOf("?");
    if ((q === -1 ? url : url.slice(0, q)) !== path) return false;
    const flags = q === -1 ? { disableCookieCache: false, disableRefresh: false } : parseQuery(url.slice(q + 1));
    if (!flags) return false;
    void serve(req, res, flags);
    return true;
  };
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(",") : value;
}

import { isIPv6 } from "node:net";
import type { Logger } from "../logger.js";
import { APIError } from "./errors.js";
import { HTTP_MESSAGES } from "./messages.js";

/**
 * The service's public URL, the one links in mail and OAuth redirect URIs are built on and whose origin the origin
 * check trusts. It is `baseURL` (BASE_URL) when set. Otherwise it is fixed once, when the bundled server starts
 * listening (serveGatehouse): `http://localhost:PORT` on 0.0.0.0 or ::, else `http://HOST:PORT`, with the loopback
 * origins of that port (localhost, 127.0.0.1, [::1]) trusted so that local development works. It never comes from a
 * request: a Host header is whatever the client wrote, and a link built on it mails an attacker's host to a user.
 */
export interface PublicBase {
  /** BASE_URL, else the base fixed at listen time; null when neither exists (library use without baseURL). */
  url(): string | null;
  /** The origins trusted because of where the service listens (none when BASE_URL is set). */
  listeningOrigins(): readonly string[];
  /** Called by serveGatehouse once it listens; the first call fixes the base, later ones add trusted origins. */
  listeningOn(hostname: string, port: number): void;
}

export const BASE_URL_REQUIRED = HTTP_MESSAGES.BASEURL_IS_NOT_SET_LINKS_IN_MAIL_AND_OAUTH_REDIRECTS_NEED_IT_SET_BASE_URL;

export function createPublicBase(baseURL: string | undefined): PublicBase {
  let fixed: string | null = baseURL ? baseURL.replace(/\/+$/, "") : null;
  const origins: string[] = [];
  return {
    url: () => fixed,
    listeningOrigins: () => origins,
    listeningOn(hostname, port) {
      if (baseURL) return;
      const wildcard = hostname === "" || hostname === "0.0.0.0" || hostname === "::" || hostname === "[::]";
      const host = wildcard ? "localhost" : isIPv6(hostname) ? `[${hostname}]` : hostname;
      const own = new URL(`http://${host}:${port}`).origin;
      fixed ??= own;
      for (const origin of [own, ...["localhost", "127.0.0.1", "[::1]"].map((h) => new URL(`http://${h}:${port}`).origin)]) {
        if (!origins.includes(origin)) origins.push(origin);
      }
    },
  };
}

/**
 * The base a link is built on. Without one (the library mounted in another server, without baseURL), building a
 * link is a configuration error: it is refused (and logged by the caller's error path) rather than guessed from the
 * request.
 */
export function requireBase(runtime: { base: PublicBase; logger: Logger }): string {
  const url = runtime.base.url();
  if (url) return url;
  runtime.logger.error({}, BASE_URL_REQUIRED);
  throw new APIError("INTERNAL_SERVER_ERROR", BASE_URL_REQUIRED);
}

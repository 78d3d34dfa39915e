import type { FetchFunction } from "./fetcher.js";

export interface CookieJar {
  /** A fetch that sends the jar's cookies and stores the ones the server sets; pass it as `fetch`. */
  fetch: FetchFunction;
  get(name: string): string | undefined;
  /** The `Cookie` header value the jar would send now. */
  header(): string;
  clear(): void;
}

function isRemoval(attributes: string[], now: number): boolean {
  for (const attribute of attributes) {
    const eq = attribute.indexOf("=");
    const name = (eq === -1 ? attribute : attribute.slice(0, eq)).trim().toLowerCase();
    const value = eq === -1 ? "" : attribute.slice(eq + 1).trim();
    if (name === "max-age" && Number(value) <= 0) return true;
    if (name === "expires" && Date.parse(value) <= now) return true;
  }
  return false;
}

/**
 * A cookie jar for Node and other runtimes without a browser's: it keeps what one server sets and sends
 * it back, as a browser would for that server. It does not separate domains or paths, so use one jar
 * per server (and per signed-in user).
 */
export function createCookieJar(options: { fetch?: FetchFunction } = {}): CookieJar {
  const cookies = new Map<string, string>();
  const inner: FetchFunction = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const header = () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");

  const store = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      if (isRemoval(attributes, Date.now())) cookies.delete(name);
      else cookies.set(name, pair.slice(eq + 1).trim());
    }
  };

  return {
    async fetch(url, init) {
      const headers = new Headers(init.headers);
      if (cookies.size) {
        const sent = headers.get("cookie");
        headers.set("cookie", sent ? `${sent}; ${header()}` : header());
      }
      const response = await inner(url, { ...init, headers });
      store(response);
      return response;
    },
    get: (name) => cookies.get(name),
    header,
    clear: () => cookies.clear(),
  };
}

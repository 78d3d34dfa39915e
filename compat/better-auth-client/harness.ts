/**
 * Better Auth's own client, run in Node against a started Gatehouse as a browser would run it: a cookie jar (Set-Cookie
 * in, Cookie out, Max-Age=0 deletes) and the Origin header of the service's own page, given to the client as its
 * fetch. Test-only: this folder has its own package.json; nothing of it reaches the product.
 */
import { createAuthClient } from "better-auth/client";

export interface Browser {
  jar: Map<string, string>;
  fetch: typeof fetch;
}

export function browser(origin: string): Browser {
  const jar = new Map<string, string>();
  const fetchWithJar: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const method = (init?.method ?? "GET").toUpperCase();
    if (method !== "GET") headers.set("origin", origin);
    const response = await fetch(input, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      if (/;\s*Max-Age=0(;|$)/i.test(line)) jar.delete(name);
      else jar.set(name, pair.slice(eq + 1));
    }
    return response;
  };
  return { jar, fetch: fetchWithJar };
}

/** A Better Auth client with the given plugins, talking to `baseURL` through the browser's fetch. */
export function betterAuthClient<P extends unknown[]>(baseURL: string, b: Browser, plugins: P) {
  return createAuthClient({
    baseURL,
    plugins: plugins as never,
    fetchOptions: { customFetchImpl: b.fetch },
  });
}

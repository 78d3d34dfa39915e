import type { ReadableAtom } from "nanostores";
import { createAuthClient, createCookieJar, type AuthClient, type AuthClientOptions, type CookieJar } from "../src/index.js";

export { startTestServer, type TestServer } from "../../server/test/helpers/server.js";

export const PASSWORD = "correct horse battery";

let counter = 0;
export function uniqueEmail(prefix = "client"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 6)}@example.com`;
}

export interface RecordedCall {
  method: string;
  url: URL;
}

export interface NodeClient {
  client: AuthClient;
  jar: CookieJar;
  /** Every request the client sent, in order. */
  calls: RecordedCall[];
  /** How many GET /get-session requests were sent so far. */
  sessionFetches(): number;
}

/**
 * A client as a Node app would set one up: a cookie jar for the session cookie and the Origin header a
 * browser would send (the server refuses cookie-carrying POSTs without one). Every request is recorded.
 */
export function nodeClient(serverUrl: string, options: AuthClientOptions & { jar?: CookieJar } = {}): NodeClient {
  const jar = options.jar ?? createCookieJar();
  const calls: RecordedCall[] = [];
  const client = createAuthClient({
    baseURL: serverUrl,
    headers: { origin: serverUrl },
    ...options,
    fetch: (url, init) => {
      calls.push({ method: init.method ?? "GET", url: new URL(url) });
      return jar.fetch(url, init);
    },
  });
  return {
    client,
    jar,
    calls,
    sessionFetches: () => calls.filter((c) => c.url.pathname.endsWith("/get-session")).length,
  };
}

/** Signs a fresh user up through the client; the client then holds their session. */
export async function signUpFresh(client: AuthClient, name = "Client User") {
  const email = uniqueEmail();
  const result = await client.signUp.email({ name, email, password: PASSWORD });
  if (result.error) throw new Error(`sign-up failed: ${result.error.status} ${result.error.code}`);
  return { email, user: result.data.user, token: result.data.token };
}

/** Resolves with the store's value once it satisfies the predicate (now or at a later change). */
export function valueMatching<T>($store: ReadableAtom<T>, predicate: (value: T) => boolean): Promise<T> {
  return new Promise((resolve) => {
    const unbind = $store.subscribe((value) => {
      if (!predicate(value as T)) return;
      queueMicrotask(() => unbind());
      resolve(value as T);
    });
  });
}

/** Lets pending I/O callbacks and microtasks run; setImmediate is never faked by these tests. */
export function flushIO(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

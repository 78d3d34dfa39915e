/**
 * A small HTTP client for tests: real fetch over the socket, a cookie jar like a browser's (Set-Cookie in,
 * Cookie out, Max-Age=0 deletes) and the Origin header a browser sends from the service's own page.
 */
export interface TestResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
  setCookies: string[];
}

export class TestClient {
  readonly jar = new Map<string, string>();
  constructor(
    readonly base: string,
    readonly origin: string | null = new URL(base).origin,
  ) {}

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  async request<T = any>(
    method: string,
    path: string,
    opts: { body?: unknown; rawBody?: string; headers?: Record<string, string>; cookies?: boolean } = {},
  ): Promise<TestResponse<T>> {
    const headers: Record<string, string> = {};
    if (this.origin && method !== "GET") headers.origin = this.origin;
    if (opts.cookies !== false && this.jar.size) headers.cookie = this.cookieHeader();
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["content-type"] = "application/json";
    }
    Object.assign(headers, opts.headers);
    const response = await fetch(this.base + path, { method, headers, body, redirect: "manual" });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (/;\s*Max-Age=0(;|$)/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get("content-type") ?? "").includes("application/json")) {
      parsed = text === "" ? undefined : JSON.parse(text);
    }
    return { status: response.status, body: parsed as T, text, headers: response.headers, setCookies };
  }

  get<T = any>(path: string, opts?: Parameters<TestClient["request"]>[2]) {
    return this.request<T>("GET", path, opts);
  }

  post<T = any>(path: string, body?: unknown, opts: Parameters<TestClient["request"]>[2] = {}) {
    return this.request<T>("POST", path, { ...opts, body: body ?? opts.body });
  }
}

let counter = 0;
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 6)}@example.com`;
}

export const PASSWORD = "correct horse battery";

/** Signs up a fresh user; the client then holds their session. */
export async function signUp(client: TestClient, overrides: Record<string, unknown> = {}) {
  const email = (overrides.email as string) ?? uniqueEmail();
  const response = await client.post("/sign-up/email", { name: "Test User", email, password: PASSWORD, ...overrides });
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${response.text}`);
  return { email, user: response.body.user, token: response.body.token as string };
}

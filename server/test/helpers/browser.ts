/**
 * A browser for redirect flows across the service and a provider: one cookie jar (cookies are per host, so both
 * servers on 127.0.0.1 share it, as in a real browser), redirects followed one by one, and auto-submitting
 * form_post pages (Apple's answer) submitted like a browser would.
 */
export interface Landing {
  url: URL;
  status: number;
  /** Every URL visited, in order. */
  trail: string[];
  /** Where `stop` was reached on a form post: the method and the fields about to be posted. */
  method: "GET" | "POST";
  form?: Record<string, string> | undefined;
}

const decodeHtml = (value: string) =>
  value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

export class Browser {
  readonly jar = new Map<string, string>();

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expires = /;\s*expires=([^;]+)/i.exec(line)?.[1];
      const gone = /;\s*max-age=0(;|$)/i.test(line) || (expires !== undefined && Date.parse(expires) < Date.now());
      if (gone || value === "") this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  /** One request with the jar's cookies; `origin` is sent on POSTs (the page the request comes from). */
  async request(
    method: "GET" | "POST",
    url: string | URL,
    opts: { json?: unknown; form?: Record<string, string>; origin?: string } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.jar.size) headers.cookie = this.cookieHeader();
    let body: string | undefined;
    if (opts.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(opts.json);
    } else if (opts.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(opts.form).toString();
    }
    if (method === "POST") headers.origin = opts.origin ?? new URL(url).origin;
    const response = await fetch(url, { method, headers, body, redirect: "manual" });
    this.store(response);
    return response;
  }

  /** Follows redirects from `start` until `stop` accepts a URL (not requested) or a page answers without one. */
  async follow(start: string | URL, stop: (url: URL) => boolean): Promise<Landing> {
    const trail: string[] = [];
    let next: { method: "GET" | "POST"; url: URL; form?: Record<string, string>; origin?: string } = {
      method: "GET",
      url: new URL(start),
    };
    for (let hop = 0; hop < 30; hop++) {
      trail.push(`${next.method} ${next.url.href}`);
      if (stop(next.url)) return { url: next.url, status: 0, trail, method: next.method, form: next.form };
      const response = await this.request(next.method, next.url, { form: next.form, origin: next.origin });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.arrayBuffer();
        next = { method: "GET", url: new URL(location, next.url) };
        continue;
      }
      const text = await response.text();
      const form = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/i.exec(text);
      if (form) {
        const fields: Record<string, string> = {};
        for (const input of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)) {
          fields[input[1]!] = decodeHtml(input[2]!);
        }
        next = { method: "POST", url: new URL(decodeHtml(form[1]!), next.url), form: fields, origin: next.url.origin };
        continue;
      }
      return { url: next.url, status: response.status, trail, method: next.method };
    }
    throw new Error(`too many redirects:\n${trail.join("\n")}`);
  }
}

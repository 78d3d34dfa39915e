import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { request as httpRequest } from "node:http";

function rawPost(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe.each(DIALECTS)("HTTP surface on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, {
      baseURL: "http://app.test",
      trustedOrigins: ["https://partner.example", "https://*.tenant.example"],
    });
  });
  afterAll(async () => server?.close());
  const client = (origin: string | null = "http://app.test") => new TestClient(server.base, origin);

  it("GET /ok answers { ok: true }", async () => {
    const res = await client().get("/ok");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });

  it("unknown paths, a doubled slash and a trailing slash answer 404 { code, message }", async () => {
    for (const path of ["/nope", "//sign-in/email", "/sign-in/email/", "/get-session/"]) {
      const res = path === "/nope" ? await client().get(path) : await client().post(path, {});
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ code: "NOT_FOUND", message: "Not found" });
    }
  });

  it("GET /features reports what the deployment turned on", async () => {
    const res = await client().get("/features");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      emailAndPassword: { enabled: true, signUp: true, minPasswordLength: 8, maxPasswordLength: 128 },
      resetPassword: true,
      deleteUser: { enabled: false, byEmail: false },
      username: { minLength: 3, maxLength: 30 },
      socialProviders: [],
      providers: [],
    });
  });

  it("GET /error renders the HTML page with the code escaped", async () => {
    const res = await client().get("/error?error=%3Cscript%3Ealert(1)%3C%2Fscript%3E");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(res.text).toContain("<title>Authentication Error</title>");
    expect(res.text).not.toContain("<script>");
    expect(res.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(res.text).toContain('href="/"');
  });

  describe("hostile bodies", () => {
    it("answers 400 for malformed JSON", async () => {
      const res = await client().request("POST", "/sign-in/email", {
        rawBody: '{"email": "a@b.co", "password": ',
        headers: { "content-type": "application/json" },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "INVALID_JSON_IN_REQUEST_BODY", message: "Invalid JSON in request body" });
    });

    it("answers 415 for a wrong or missing content type", async () => {
      const wrong = await client().request("POST", "/sign-in/email", {
        rawBody: "email=a",
        headers: { "content-type": "text/plain" },
      });
      expect(wrong.status).toBe(415);
      expect(wrong.body.message).toMatch(/text\/plain/);
      const missing = await client().request("POST", "/revoke-session", { rawBody: '{"token":"x"}' });
      expect(missing.status).toBe(415);
      const form = await client().request("POST", "/update-user", {
        rawBody: "name=x",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(form.status).toBe(415);
    });

    it("answers 413 for a huge body without reading it all", async () => {
      const res = await client().request("POST", "/sign-up/email", {
        rawBody: JSON.stringify({ name: "x".repeat(2_000_000), email: uniqueEmail(), password: PASSWORD }),
        headers: { "content-type": "application/json" },
      });
      expect(res.status).toBe(413);
      expect(res.body.code).toBe("REQUEST_BODY_IS_TOO_LARGE");
    });

    it("reads a body sent in chunks without a length, and answers 413 once one grows past the limit", async () => {
      const chunked = (pieces: string[]) =>
        new Promise<{ status: number; text: string }>((resolve, reject) => {
          const req = httpRequest(
            `${server.base}/sign-up/email`,
            { method: "POST", headers: { "content-type": "application/json", origin: "http://app.test" } },
            (res) => {
              let text = "";
              res.on("data", (chunk) => (text += chunk));
              res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
            },
          );
          req.on("error", reject);
          for (const piece of pieces) req.write(piece); // no content-length: sent chunked
          req.end();
        });
      const email = uniqueEmail();
      const json = JSON.stringify({ name: "Chunked", email, password: PASSWORD });
      const ok = await chunked([json.slice(0, 10), json.slice(10, 30), json.slice(30)]);
      expect(ok.status, ok.text).toBe(200);
      expect(JSON.parse(ok.text).user.email).toBe(email);

      const big = await chunked([`{"name":"`, ..."x".repeat(200_000).match(/.{1,16384}/g)!, `"}`]);
      expect(big.status).toBe(413);
      expect(JSON.parse(big.text).code).toBe("REQUEST_BODY_IS_TOO_LARGE");
    });

    it("answers 400 for JSON that is not an object", async () => {
      for (const rawBody of ["[]", '"text"', "42", "null"]) {
        const res = await client().request("POST", "/sign-in/email", {
          rawBody,
          headers: { "content-type": "application/json" },
        });
        expect(res.status, rawBody).toBe(400);
        expect(res.body.code).toBe("VALIDATION_ERROR");
      }
    });

    it("never answers 500 for odd but well-formed input", async () => {
      const bodies = [
        { email: "a@b.co", password: "\u0000\uffff".repeat(10) },
        { email: "\u202e@b.co", password: PASSWORD },
        { email: "a@b.co", password: PASSWORD, rememberMe: "yes" },
        { email: "a@b.co", password: PASSWORD, callbackURL: 7 },
        { email: "a@b.co", password: PASSWORD, __proto__: { admin: true } },
        { email: "a@b.co".repeat(300), password: PASSWORD },
      ];
      for (const body of bodies) {
        const res = await client().post("/sign-in/email", body);
        expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
        expect(res.status, JSON.stringify(body)).toBeLessThan(500);
        expect(typeof res.body.code).toBe("string");
        expect(typeof res.body.message).toBe("string");
      }
    });
  });

  describe("origin checks", () => {
    it("refuses a cookie-bearing POST from an untrusted origin or without one", async () => {
      const c = client();
      await signUp(c);
      const jar = c.cookieHeader();
      const evil = await client("https://evil.example").post("/update-user", { name: "x" }, { headers: { cookie: jar } });
      expect(evil.status).toBe(403);
      expect(evil.body).toEqual({ code: "INVALID_ORIGIN", message: "Invalid origin" });
      const prefix = await client("http://app.test.evil.example").post("/update-user", { name: "x" }, { headers: { cookie: jar } });
      expect(prefix.status).toBe(403);
      const none = await client(null).post("/update-user", { name: "x" }, { headers: { cookie: jar } });
      expect(none.status).toBe(403);
      expect(none.body.code).toBe("MISSING_OR_NULL_ORIGIN");
      const ok = await client("https://partner.example").post("/update-user", { name: "y" }, { headers: { cookie: jar } });
      expect(ok.status).toBe(200);
      const wildcard = await client("https://a.tenant.example").post("/update-user", { name: "z" }, { headers: { cookie: jar } });
      expect(wildcard.status).toBe(200);
    });

    it("accepts the Referer's origin when Origin is absent", async () => {
      const c = client(null);
      const { email } = await signUp(client());
      await c.post("/sign-in/email", { email, password: PASSWORD });
      const res = await c.post("/update-user", { name: "via referer" }, { headers: { referer: "http://app.test/account" } });
      expect(res.status).toBe(200);
    });

    it("blocks a cross-site form navigation to sign-in even without cookies", async () => {
      const { email } = await signUp(client());
      // fetch() sets Sec-Fetch-* itself, so this request goes through node:http as a browser's would.
      const res = await rawPost(`${server.base}/sign-in/email`, new URLSearchParams({ email, password: PASSWORD }).toString(), {
        "content-type": "application/x-www-form-urlencoded",
        "sec-fetch-site": "cross-site",
        "sec-fetch-mode": "navigate",
        "sec-fetch-dest": "document",
      });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.text).code).toBe("CROSS_SITE_NAVIGATION_LOGIN_BLOCKED_THIS_REQUEST_APPEARS_TO_BE_A_CSRF_ATTACK");
      const other = await client("https://evil.example").post("/sign-in/email", { email, password: PASSWORD });
      expect(other.status).toBe(403);
      expect(other.body.code).toBe("INVALID_ORIGIN");
    });

    it("accepts a trusted absolute callbackURL and refuses look-alikes", async () => {
      const { email } = await signUp(client());
      const good = await client().post("/sign-in/email", { email, password: PASSWORD, callbackURL: "https://partner.example/after" });
      expect(good.status).toBe(200);
      for (const callbackURL of [
        "https://partner.example.evil.test/",
        "https://partner.example@evil.test/",
        "http://partner.example/",
        "javascript:alert(1)",
        "https://evil.test/?https://partner.example",
      ]) {
        const res = await client().post("/sign-in/email", { email, password: PASSWORD, callbackURL });
        expect(res.status, callbackURL).toBe(403);
      }
    });
  });
});

describe("rate limits", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite", { rateLimit: { enabled: true } });
  });
  afterAll(async () => server?.close());

  it("allows 3 sign-in attempts per 10 s, then answers 429 with a retry-after header", async () => {
    const c = new TestClient(server.base);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await c.post("/sign-in/email", { email: uniqueEmail(), password: PASSWORD });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(last!.body).toEqual({ code: "TOO_MANY_REQUESTS_PLEASE_TRY_AGAIN_LATER", message: "Too many requests. Please try again later." });
    const retry = Number(last!.headers.get("x-retry-after"));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(10);
  });

  it("allows 30 username checks a minute, so usernames cannot be crawled", async () => {
    const c = new TestClient(server.base);
    const statuses = new Set<number>();
    for (let i = 0; i < 30; i++) statuses.add((await c.post("/is-username-available", { username: `crawl_${i}` })).status);
    expect([...statuses]).toEqual([200]);
    const res = await c.post("/is-username-available", { username: "crawl_last" });
    expect(res.status).toBe(429);
  });

  it("counts path variants against the route they reach", async () => {
    const c = new TestClient(server.base);
    // Spellings the router does not route reach no handler (and count as unmatched paths).
    for (const path of ["//sign-up/email", "/sign-up//email/"]) {
      expect((await c.post(path, { name: "x", email: "bad", password: PASSWORD })).status).toBe(404);
    }
    // Spellings it decodes to the route count against the route.
    for (const path of ["/sign-up/email", "/sign-up/%65mail", "/%73ign-up/email"]) {
      expect((await c.post(path, { name: "x", email: "bad", password: PASSWORD })).status).toBe(400);
    }
    const res = await c.post("/sign-up/email", { name: "x", email: uniqueEmail(), password: PASSWORD });
    expect(res.status).toBe(429);
  });

  it("applies the default 100 per 10 s to other routes", async () => {
    const c = new TestClient(server.base);
    const results = await Promise.all(Array.from({ length: 101 }, () => c.get("/ok")));
    expect(results.filter((r) => r.status === 200)).toHaveLength(100);
    expect(results.filter((r) => r.status === 429)).toHaveLength(1);
  });
});

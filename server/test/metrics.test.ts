import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadServiceSettings } from "../src/config/env.js";
import { ConfigError, createGatehouse } from "../src/index.js";
import { createLogger } from "../src/logger.js";
import { NO_METRICS } from "../src/metrics/metrics.js";
import { serveGatehouse, startupNotes } from "../src/node-server.js";
import { totpCode } from "../src/two-factor/totp.js";
import { createTestDatabase, DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { parsePrometheusText, sampleValue, samplesOf, type Family } from "./helpers/prometheus-text.js";
import { startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";

/**
 * Issue #17 item 4: GET /metrics in Prometheus' text format, over real HTTP against a started service, on SQLite and
 * PostgreSQL. Every scrape is read with a strict reader of the format (helpers/prometheus-text.ts).
 */

const TOKEN = "metrics-token-for-the-tests-0123456789";
const bearer = { authorization: `Bearer ${TOKEN}` };

/** One scrape of the main port's /metrics with the token; the text, read and checked. */
async function scrape(server: TestServer): Promise<Map<string, Family>> {
  const res = await fetch(`${server.url}/metrics`, { headers: bearer });
  expect(res.status).toBe(200);
  return parsePrometheusText(await res.text());
}

/** Every sign-in series as `method|result|reason` → count. */
function signIns(families: Map<string, Family>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of samplesOf(families, "gatehouse_sign_ins_total")) {
    out[[s.labels.method, s.labels.result, s.labels.reason ?? ""].join("|")] = s.value;
  }
  return out;
}

/** What moved between two readings (series absent before count from 0). */
function delta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(after)) if (value !== (before[key] ?? 0)) out[key] = value - (before[key] ?? 0);
  return out;
}

describe.each(DIALECTS)("#17.4 metrics are off by default, on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("#17.4 GET /metrics answers 404 and nothing is recorded", async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: bearer });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "NOT_FOUND" });
    expect(server.gatehouse.metrics).toBe(NO_METRICS);
    expect(server.gatehouse.runtime.metrics).toBe(NO_METRICS);
    // A sign-up and a wrong sign-in later, there is still nothing to show.
    const client = new TestClient(server.base);
    const { email } = await signUp(client);
    expect((await client.post("/sign-in/email", { email, password: "wrong password" })).status).toBe(401);
    expect(await server.gatehouse.metrics.render()).toBe("");
  });
});

describe("#17.4 metrics options", () => {
  it("#17.4 metrics.enabled without a token or a port is refused at start-up", () => {
    expect(() => createGatehouse({ secret: TEST_SECRET, database: { url: "sqlite::memory:" }, metrics: { enabled: true } }, { nodeEnv: "test" })).toThrow(
      /metrics\.enabled needs metrics\.token \(METRICS_TOKEN\) or metrics\.port/,
    );
    expect(() =>
      createGatehouse({ secret: TEST_SECRET, database: { url: "sqlite::memory:" }, metrics: { enabled: true, token: "short" } }, { nodeEnv: "test" }),
    ).toThrow(ConfigError);
  });

  it("#17.4 METRICS_ENABLED, METRICS_TOKEN, METRICS_PORT and METRICS_HOST set the options", () => {
    const settings = loadServiceSettings(
      { METRICS_ENABLED: "true", METRICS_TOKEN: TOKEN, METRICS_PORT: "9464", METRICS_HOST: "127.0.0.1", GATEHOUSE_SECRET: TEST_SECRET },
      { writeSecret: false },
    );
    expect(settings.options.metrics).toEqual({ enabled: true, token: TOKEN, port: 9464, host: "127.0.0.1" });
    expect(() => loadServiceSettings({ METRICS_ENABLED: "yes", GATEHOUSE_SECRET: TEST_SECRET }, { writeSecret: false })).toThrow(
      /METRICS_ENABLED must be true or false/,
    );
    expect(() => loadServiceSettings({ METRICS_PORT: "70000", GATEHOUSE_SECRET: TEST_SECRET }, { writeSecret: false })).toThrow(
      /METRICS_PORT must be an integer/,
    );
    expect(loadServiceSettings({ GATEHOUSE_SECRET: TEST_SECRET }, { writeSecret: false }).options.metrics).toBeUndefined();
  });
});

describe.each(DIALECTS)("#17.4 metrics behind a bearer token, on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, {
      metrics: { enabled: true, token: TOKEN },
      // Limits on, to see a refusal: /ok's lowered, and sign-up and sign-in let through (the tests sign in often).
      rateLimit: { enabled: true, customRules: { "/ok": { window: 60, max: 2 }, "/sign-up/email": false, "/sign-in/email": false } },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("#17.4 a scrape without the token, or with a wrong one, is 401; with it, 200 in the text format", async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: "Bearer wrong-token-of-some-length-000000" },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}` },
      { authorization: TOKEN },
    ]) {
      const res = await fetch(`${server.url}/metrics`, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await res.json()).toMatchObject({ code: "UNAUTHORIZED" });
    }
    const res = await fetch(`${server.url}/metrics`, { headers: bearer });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const families = parsePrometheusText(await res.text());
    // Both halves: the process's (event-loop lag among them) and this instance's.
    expect(families.get("nodejs_eventloop_lag_seconds")?.type).toBe("gauge");
    expect(families.get("nodejs_eventloop_lag_p99_seconds")?.type).toBe("gauge");
    expect(families.get("process_cpu_user_seconds_total")?.type).toBe("counter");
    expect(families.get("gatehouse_http_request_duration_seconds")?.type).toBe("histogram");
    expect(families.get("gatehouse_sign_ins_total")?.type).toBe("counter");
    expect(families.get("gatehouse_password_hash_queue_depth")?.type).toBe("gauge");
    expect(sampleValue(families, "gatehouse_build_info", { version: "0.1.0" })).toBe(1);
  });

  it("#17.4 a sign-in that succeeds and one that fails move the counters by exactly those", async () => {
    const client = new TestClient(server.base);
    const { email } = await signUp(client);
    const before = signIns(await scrape(server));
    const good = new TestClient(server.base);
    expect((await good.post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    const bad = new TestClient(server.base);
    expect((await bad.post("/sign-in/email", { email, password: "not the password" })).status).toBe(401);
    const after = signIns(await scrape(server));
    expect(delta(before, after)).toEqual({ "email|success|": 1, "email|failure|invalid_credentials": 1 });
  });

  it("#17.4 a sign-in that owes a second step counts second_step, then success once the step is passed", async () => {
    const before = signIns(await scrape(server));
    const client = new TestClient(server.base);
    const { email } = await signUp(client);
    // Turning an authenticator on renews the session: a renewal is no sign-in.
    const enable = await client.post("/two-factor/enable", { password: PASSWORD });
    expect(enable.status, enable.text).toBe(200);
    const secret = new URL(enable.body.totpURI).searchParams.get("secret")!;
    const confirmed = await client.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 6, period: 30 }, new Date()) });
    expect(confirmed.status, confirmed.text).toBe(200);
    const later = new TestClient(server.base);
    expect((await later.post("/sign-in/email", { email, password: PASSWORD })).body).toMatchObject({ twoFactorRedirect: true });
    const done = await later.post("/two-factor/verify-backup-code", { code: enable.body.backupCodes[0] });
    expect(done.status, done.text).toBe(200);
    // The sign-up's sign-in, then the second step owed and passed.
    expect(delta(before, signIns(await scrape(server)))).toEqual({ "email|success|": 2, "email|second_step|": 1 });
  });

  it("#17.4 a request a rate limit refuses counts one refusal, and its 429 is in the route's series", async () => {
    const before = await scrape(server);
    const refusedBefore = sampleValue(before, "gatehouse_rate_limit_refusals_total", { limit: "client" }) ?? 0;
    const client = new TestClient(server.base);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await client.get("/ok")).status);
    expect(statuses).toEqual([200, 200, 429]);
    const after = await scrape(server);
    expect(sampleValue(after, "gatehouse_rate_limit_refusals_total", { limit: "client" })).toBe(refusedBefore + 1);
    const ok429 = { route: "/ok", method: "GET", status: "429" };
    expect(sampleValue(after, "gatehouse_http_request_duration_seconds_count", ok429)).toBe(
      (sampleValue(before, "gatehouse_http_request_duration_seconds_count", ok429) ?? 0) + 1,
    );
  });

  it("#17.4 route labels are declared paths: no id, token or made-up path becomes a label", async () => {
    const token = `tok${Math.random().toString(36).slice(2)}Secret`;
    const made = `made-up-${Math.random().toString(36).slice(2)}`;
    await fetch(`${server.base}/reset-password/${token}?callbackURL=${encodeURIComponent(`${server.url}/reset`)}`, { redirect: "manual" });
    await fetch(`${server.base}/${made}/${token}`);
    await fetch(`${server.url}/${made}`, { method: "PROPFIND" });
    // get-session on the node fast path, and its routed spelling, are one series.
    await fetch(`${server.base}/get-session`);
    await fetch(`${server.base}/get-s%65ssion`);
    const text = await (await fetch(`${server.url}/metrics`, { headers: bearer })).text();
    expect(text).not.toContain(token);
    expect(text).not.toContain(made);
    expect(text).not.toContain("PROPFIND");
    const families = parsePrometheusText(text);
    const routes = new Set(samplesOf(families, "gatehouse_http_request_duration_seconds_count").map((s) => s.labels.route));
    expect(routes).toContain("/reset-password/:token");
    expect(routes).toContain("(unmatched)");
    expect(routes).toContain("/get-session");
    for (const route of routes) expect(route === "(unmatched)" || route!.startsWith("/"), route).toBe(true);
    expect(sampleValue(families, "gatehouse_http_request_duration_seconds_count", { route: "(unmatched)", method: "OTHER", status: "404" })).toBe(1);
    expect(
      sampleValue(families, "gatehouse_http_request_duration_seconds_count", { route: "/get-session", method: "GET", status: "200" }),
    ).toBeGreaterThanOrEqual(2);
  });

  it("#17.4 the OpenID Provider's endpoints (served outside the router) are counted under their routes, never a path's id", async () => {
    const uid = `uid${Math.random().toString(36).slice(2)}Secret`;
    /** Requests counted for a route and method, every status together. */
    const counted = (families: Map<string, Family>, route: string, method: string, status?: string) =>
      samplesOf(families, "gatehouse_http_request_duration_seconds_count")
        .filter((s) => s.labels.route === route && s.labels.method === method && (status === undefined || s.labels.status === status))
        .reduce((sum, s) => sum + s.value, 0);
    const before = await scrape(server);
    // Discovery at its several addresses: one route.
    expect((await fetch(`${server.url}/.well-known/openid-configuration`)).status).toBe(200);
    expect((await fetch(`${server.base}/.well-known/openid-configuration`)).status).toBe(200);
    expect((await fetch(`${server.url}/.well-known/oauth-authorization-server`)).status).toBe(200);
    expect((await fetch(`${server.base}/jwks`)).status).toBe(200);
    const token = await fetch(`${server.base}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from("nobody:nothing").toString("base64")}` },
      body: new URLSearchParams({ grant_type: "client_credentials" }),
    });
    expect(token.status).toBe(401);
    await fetch(`${server.base}/oauth2/userinfo`);
    await fetch(`${server.base}/oauth2/authorize/${uid}`, { redirect: "manual" });
    const text = await (await fetch(`${server.url}/metrics`, { headers: bearer })).text();
    expect(text).not.toContain(uid);
    const after = parsePrometheusText(text);
    const moved = (route: string, method: string, status?: string) => counted(after, route, method, status) - counted(before, route, method, status);
    expect(moved("/.well-known/openid-configuration", "GET", "200")).toBe(3);
    expect(moved("/jwks", "GET", "200")).toBe(1);
    expect(moved("/oauth2/token", "POST", "401")).toBe(1);
    expect(moved("/oauth2/userinfo", "GET")).toBe(1);
    expect(moved("/oauth2/authorize/:uid", "GET")).toBe(1);
    // Timed: the discovery's seconds are in the sum.
    const seconds = (f: Map<string, Family>) =>
      sampleValue(f, "gatehouse_http_request_duration_seconds_sum", { route: "/jwks", method: "GET", status: "200" }) ?? 0;
    expect(seconds(after) - seconds(before)).toBeGreaterThan(0);
  });

  it("#17.4 password hashes are timed: the histograms record every hash and check", async () => {
    const before = await scrape(server);
    const count = (f: Map<string, Family>, name: string, operation: string) => sampleValue(f, name, { operation }) ?? 0;
    const client = new TestClient(server.base);
    const { email } = await signUp(client); // one hash
    await new TestClient(server.base).post("/sign-in/email", { email, password: PASSWORD }); // one check
    await new TestClient(server.base).post("/sign-in/email", { email: uniqueEmail(), password: PASSWORD }); // an unknown account's check
    const after = await scrape(server);
    for (const name of ["gatehouse_password_hash_duration_seconds_count", "gatehouse_password_hash_queue_wait_seconds_count"]) {
      expect(count(after, name, "hash") - count(before, name, "hash"), name).toBe(1);
      expect(count(after, name, "verify") - count(before, name, "verify"), name).toBe(2);
    }
    // A hash takes real time (scrypt N=16384, r=16): its seconds are in the sum.
    const sum = (f: Map<string, Family>) => count(f, "gatehouse_password_hash_duration_seconds_sum", "hash");
    expect(sum(after) - sum(before)).toBeGreaterThan(0.001);
    expect(sampleValue(after, "gatehouse_password_hash_queue_depth")).toBe(0);
    expect(sampleValue(after, "gatehouse_password_hash_in_progress")).toBe(0);
  });

  it("#17.4 the database pool is read on PostgreSQL; SQLite has none", async () => {
    const families = await scrape(server);
    if (dialect === "postgres") {
      expect(sampleValue(families, "gatehouse_database_pool_max_connections")).toBe(10);
      expect(sampleValue(families, "gatehouse_database_pool_connections")).toBeGreaterThan(0);
      expect(sampleValue(families, "gatehouse_database_pool_idle_connections")).toBeGreaterThanOrEqual(0);
      expect(sampleValue(families, "gatehouse_database_pool_waiting_queries")).toBe(0);
    } else {
      expect([...families.keys()].filter((name) => name.startsWith("gatehouse_database_pool"))).toEqual([]);
    }
  });

  it("#17.4 the webhooks' API: deliveries by result and the outbox lag", async () => {
    const { metrics } = server.gatehouse;
    metrics.recordWebhookDelivery("delivered", 0.2);
    metrics.recordWebhookDelivery("failed", 3);
    metrics.recordWebhookDelivery("refused");
    metrics.setWebhookOutboxLag(12.5);
    const families = await scrape(server);
    expect(sampleValue(families, "gatehouse_webhook_deliveries_total", { result: "delivered" })).toBe(1);
    expect(sampleValue(families, "gatehouse_webhook_deliveries_total", { result: "failed" })).toBe(1);
    expect(sampleValue(families, "gatehouse_webhook_deliveries_total", { result: "refused" })).toBe(1);
    expect(sampleValue(families, "gatehouse_webhook_delivery_duration_seconds_count", { result: "failed" })).toBe(1);
    expect(sampleValue(families, "gatehouse_webhook_delivery_duration_seconds_count", { result: "refused" })).toBeUndefined();
    expect(sampleValue(families, "gatehouse_webhook_outbox_lag_seconds")).toBe(12.5);
  });
});

describe.each(DIALECTS)("#17.4 metrics on a port of their own, on %s", (dialect) => {
  it("#17.4 the metrics port serves /metrics only; the main port answers it 404", async () => {
    const database = await createTestDatabase(dialect);
    const gatehouse = createGatehouse(
      {
        secret: TEST_SECRET,
        logger: { level: "silent" },
        database: { url: database.url, schema: database.schema },
        metrics: { enabled: true, port: 0, host: "127.0.0.1" },
      },
      { nodeEnv: "test", logger: createLogger("silent") },
    );
    await gatehouse.migrate();
    const running = await serveGatehouse(gatehouse, { port: 0, hostname: "127.0.0.1" });
    try {
      expect(running.metricsPort).toBeGreaterThan(0);
      expect(running.metricsPort).not.toBe(running.port);
      const main = `http://127.0.0.1:${running.port}`;
      const side = `http://127.0.0.1:${running.metricsPort}`;
      await new TestClient(`${main}/api/auth`).post("/sign-in/email", { email: uniqueEmail(), password: PASSWORD });

      expect((await fetch(`${main}/metrics`)).status).toBe(404);
      const res = await fetch(`${side}/metrics`);
      expect(res.status).toBe(200);
      const families = parsePrometheusText(await res.text());
      expect(signIns(families)).toEqual({ "email|failure|invalid_credentials": 1 });
      // Nothing else answers there: not the API, not another method.
      expect((await fetch(`${side}/api/auth/get-session`)).status).toBe(404);
      expect((await fetch(`${side}/`)).status).toBe(404);
      expect((await fetch(`${side}/metrics`, { method: "POST" })).status).toBe(404);
      expect(startupNotes(gatehouse, running).map((n) => n.message)).toContain(
        `metrics are served at GET /metrics on 127.0.0.1:${running.metricsPort} only`,
      );
    } finally {
      await running.close();
      await gatehouse.close();
      await database.drop();
    }
  });

  it("#17.4 with a port and a token, the port asks for the token", async () => {
    const database = await createTestDatabase(dialect);
    const gatehouse = createGatehouse(
      {
        secret: TEST_SECRET,
        logger: { level: "silent" },
        database: { url: database.url, schema: database.schema },
        metrics: { enabled: true, port: 0, host: "127.0.0.1", token: TOKEN },
      },
      { nodeEnv: "test", logger: createLogger("silent") },
    );
    await gatehouse.migrate();
    const running = await serveGatehouse(gatehouse, { port: 0, hostname: "127.0.0.1" });
    try {
      const side = `http://127.0.0.1:${running.metricsPort}/metrics`;
      expect((await fetch(side)).status).toBe(401);
      expect((await fetch(side, { headers: { authorization: "Bearer nope-nope-nope-nope" } })).status).toBe(401);
      const res = await fetch(side, { headers: bearer });
      expect(res.status).toBe(200);
      parsePrometheusText(await res.text());
      expect((await fetch(`http://127.0.0.1:${running.port}/metrics`, { headers: bearer })).status).toBe(404);
    } finally {
      await running.close();
      await gatehouse.close();
      await database.drop();
    }
  });
});

describe("#17.4 instances in one process keep their own metrics", () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    [first, second] = await Promise.all([
      startTestServer("sqlite", { metrics: { enabled: true, token: TOKEN } }),
      startTestServer("sqlite", { metrics: { enabled: true, token: TOKEN } }),
    ]);
  });
  afterAll(async () => {
    await Promise.allSettled([first?.close(), second?.close()]);
  });

  it("#17.4 a sign-in on one is not counted on the other", async () => {
    await new TestClient(first.base).post("/sign-in/email", { email: uniqueEmail(), password: "whatever it is" });
    expect(signIns(await scrape(first))).toEqual({ "email|failure|invalid_credentials": 1 });
    expect(signIns(await scrape(second))).toEqual({});
  });
});

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, resolveConfig } from "../src/config/index.js";
import { configEndpointId } from "../src/config/webhook-options.js";
import { createGatehouse } from "../src/index.js";
import { isPrivateAddress, privateHostProblem } from "../src/webhooks/address.js";
import { eventMatcher } from "../src/webhooks/endpoints.js";
import { guardedLookup, PrivateTargetError } from "../src/webhooks/send.js";
import { newWebhookSecret, signWebhook, webhookSecretKey } from "../src/webhooks/secrets.js";
import { signUpAdmin } from "./helpers/admin.js";
import { createTestDatabase, DIALECTS, type TestDatabase } from "./helpers/databases.js";
import { signUp, TestClient } from "./helpers/http-client.js";
import { startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";
import { startReceiver, verifyStandardWebhook, type WebhookReceiver } from "./helpers/webhook-receiver.js";

describe("webhook parts", () => {
  it("refuses private, loopback, link-local and reserved addresses, v4 and v6", () => {
    const refused = [
      "127.0.0.1",
      "127.255.255.254",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "fe80::1%eth0",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "64:ff9b::a9fe:a9fe",
      "2002:7f00:1::",
      "not an address",
    ];
    for (const address of refused) expect(isPrivateAddress(address), address).toBe(true);
    const allowed = ["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "2002:0808:0808::"];
    for (const address of allowed) expect(isPrivateAddress(address), address).toBe(false);
  });

  it("checks a URL's host as written: private addresses and localhost names, not other names", () => {
    expect(privateHostProblem("127.0.0.1")).toMatch(/private/);
    expect(privateHostProblem("[::1]")).toMatch(/private/);
    expect(privateHostProblem("localhost")).toMatch(/localhost/);
    expect(privateHostProblem("app.localhost")).toMatch(/localhost/);
    expect(privateHostProblem("hooks.example.com")).toBeNull();
    expect(privateHostProblem("93.184.216.34")).toBeNull();
    // The URL parser writes other spellings of 127.0.0.1 in dotted form first.
    expect(privateHostProblem(new URL("http://0x7f.1/").hostname)).toMatch(/private/);
    expect(privateHostProblem(new URL("http://2130706433/").hostname)).toMatch(/private/);
  });

  it("refuses a name that resolves to a loopback address at connection time, and gives the socket the address it checked", async () => {
    const refused = await new Promise<Error | null>((resolve) =>
      guardedLookup(false)("localhost", { all: true }, (error) => resolve(error)),
    );
    expect(refused).toBeInstanceOf(PrivateTargetError);
    const allowed = await new Promise<unknown>((resolve, reject) =>
      guardedLookup(true)("localhost", { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
    );
    expect(allowed).toHaveLength(1);
  });

  it("makes whsec_ secrets of 32 random bytes and signs id.timestamp.body with them", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhookSecretKey(secret)).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
    expect(webhookSecretKey("whsec_short")).toBeNull();
    expect(webhookSecretKey("secret_" + Buffer.alloc(32).toString("base64"))).toBeNull();
    // The specification's own example (standard-webhooks, "Verifying Webhooks").
    const key = webhookSecretKey("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")!;
    const body = '{"test": 2432232314}';
    expect(signWebhook(key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body)).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("matches exact types, prefixes and *, and everything without a filter", () => {
    const match = eventMatcher(["user.banned", "sign_in.*"]);
    expect(match("user.banned")).toBe(true);
    expect(match("sign_in.failed")).toBe(true);
    expect(match("user.created")).toBe(false);
    expect(eventMatcher(["*"])("member.added")).toBe(true);
    expect(eventMatcher(null)("member.added")).toBe(true);
  });

  it("refuses at start a configuration endpoint on a private address, a bad secret or an unknown event type", () => {
    const secret = newWebhookSecret();
    const start = (webhooks: unknown) => () => resolveConfig({ secret: TEST_SECRET, webhooks } as never, { nodeEnv: "test" });
    expect(start({ endpoints: [{ url: "http://127.0.0.1:9/", secret }] })).toThrow(/webhooks\.endpoints\.0\.url.*allowPrivateTargets/);
    expect(start({ endpoints: [{ url: "http://localhost:9/", secret }] })).toThrow(ConfigError);
    expect(start({ endpoints: [{ url: "https://hooks.example.com/", secret: "whsec_abc" }] })).toThrow(/secret/);
    expect(start({ endpoints: [{ url: "https://hooks.example.com/", secret, events: ["user.nope"] }] })).toThrow(/events/);
    expect(start({ endpoints: [{ url: "ftp://hooks.example.com/", secret }] })).toThrow(/url/);
    expect(start({ retrySchedule: [-1] })).toThrow(/retrySchedule/);
    expect(start({ endpoints: [{ url: "http://127.0.0.1:9/", secret }], allowPrivateTargets: true })).not.toThrow();
  });
});

/** A short schedule: the tests see retries within a second. */
const FAST = { retrySchedule: [0.2, 0.2, 0.2, 0.2], timeout: 2 };

async function createEndpoint(admin: TestClient, body: Record<string, unknown>) {
  const res = await admin.post("/admin/webhooks/create-endpoint", body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { endpoint: { id: string; url: string; events: string[] | null }; secret: string };
}

async function deliveries(admin: TestClient, endpointId: string) {
  const res = await admin.get(`/admin/webhooks/list-deliveries?endpointId=${endpointId}&limit=200`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.deliveries as Array<Record<string, any>>;
}

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(DIALECTS)("webhooks on %s", (dialect) => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let admin: TestClient;
  const configSecret = newWebhookSecret();
  let configReceiver: WebhookReceiver;

  beforeAll(async () => {
    configReceiver = await startReceiver("/config-hooks");
    server = await startTestServer(dialect, {
      webhooks: {
        allowPrivateTargets: true,
        ...FAST,
        endpoints: [{ url: configReceiver.url, secret: configSecret, events: ["user.banned"], description: "From the file" }],
      },
    });
    admin = new TestClient(server.base);
    await signUpAdmin(server, admin);
  });
  afterAll(async () => {
    await server?.close();
    await configReceiver?.close();
  });

  // A receiver of its own for each test: a try still under way from the previous test cannot reach this one's.
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  const endpointsToRemove: string[] = [];
  afterEach(async () => {
    for (const id of endpointsToRemove.splice(0)) await admin.post("/admin/webhooks/delete-endpoint", { endpointId: id });
    await receiver.close();
  });

  it("delivers each event signed per Standard Webhooks; a tampered body, signature or old timestamp fails the check", async () => {
    const { endpoint, secret } = await createEndpoint(admin, { url: receiver.url, events: ["user.created", "sign_in.succeeded"] });
    endpointsToRemove.push(endpoint.id);
    expect(secret).toMatch(/^whsec_/);
    const user = await signUp(new TestClient(server.base));
    await receiver.waitFor((r) => r.length >= 2);
    const bodies = receiver.received.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.type).sort()).toEqual(["sign_in.succeeded", "user.created"]);

    const events = await server.gatehouse.runtime.stores.events.list({ userId: user.user.id }, 10);
    for (const message of receiver.received) {
      expect(message.headers["content-type"]).toBe("application/json");
      expect(verifyStandardWebhook(secret, message)).toBe(true);
      const body = JSON.parse(message.body);
      const event = events.find((e) => e.id === message.id)!;
      expect(event, "webhook-id is the event's id").toBeDefined();
      expect(Object.keys(body).sort()).toEqual(["data", "timestamp", "type"]);
      expect(body).toMatchObject({ type: event.type, timestamp: event.createdAt.toISOString() });
      expect(body.data).toMatchObject({ id: event.id, seq: event.seq, type: event.type, userId: user.user.id, data: event.data });
      expect(Math.abs(Number(message.timestamp) - Date.now() / 1000)).toBeLessThan(30);

      expect(verifyStandardWebhook(secret, { ...message, body: message.body.replace(user.user.id, "someone-else") })).toBe(false);
      expect(verifyStandardWebhook(secret, { ...message, id: "another-id" })).toBe(false);
      expect(verifyStandardWebhook(secret, { ...message, signature: "v1," + Buffer.alloc(32).toString("base64") })).toBe(false);
      expect(verifyStandardWebhook(newWebhookSecret(), message)).toBe(false);
      const old = { ...message, timestamp: String(Number(message.timestamp) - 600) };
      expect(verifyStandardWebhook(secret, { ...old, signature: signWebhook(webhookSecretKey(secret)!, message.id, Number(old.timestamp), message.body) })).toBe(false);
    }

    await waitUntil(async () => (await deliveries(admin, endpoint.id)).every((d) => d.status === "delivered"));
    const log = await deliveries(admin, endpoint.id);
    expect(log).toHaveLength(2);
    for (const delivery of log) {
      expect(delivery).toMatchObject({ status: "delivered", attempts: 1, responseStatus: 200, responseBody: "ok", error: null });
      expect(delivery.deliveredAt).not.toBeNull();
    }
    // The secret is never answered again, nor stored as itself.
    const listed = await admin.get("/admin/webhooks/list-endpoints");
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    const stored = await server.gatehouse.runtime.stores.webhookEndpoints.findEndpoint(endpoint.id);
    expect(stored!.sealedSecret).not.toContain(secret.slice(6));
  });

  it("sends each endpoint only the types its filter names", async () => {
    const only = await createEndpoint(admin, { url: `${receiver.url}?only`, events: ["user.created"] });
    const prefix = await createEndpoint(admin, { url: `${receiver.url}?prefix`, events: ["sign_in.*"] });
    const all = await createEndpoint(admin, { url: `${receiver.url}?all` });
    const star = await createEndpoint(admin, { url: `${receiver.url}?star`, events: ["*"] });
    const off = await createEndpoint(admin, { url: `${receiver.url}?off`, enabled: false });
    endpointsToRemove.push(only.endpoint.id, prefix.endpoint.id, all.endpoint.id, star.endpoint.id, off.endpoint.id);
    expect(all.endpoint.events).toBeNull();

    const user = await signUp(new TestClient(server.base));
    await new TestClient(server.base).post("/sign-in/email", { email: user.email, password: "wrong password" });
    // user.created, sign_in.succeeded, sign_in.failed: 1 + 2 + 3 + 3.
    await receiver.waitFor((r) => r.length >= 9);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const typesAt = (query: string) =>
      receiver.received
        .filter((r) => r.path === `/hooks?${query}`)
        .map((r) => JSON.parse(r.body).type as string)
        .sort();
    expect(typesAt("only")).toEqual(["user.created"]);
    expect(typesAt("prefix")).toEqual(["sign_in.failed", "sign_in.succeeded"]);
    expect(typesAt("all")).toEqual(["sign_in.failed", "sign_in.succeeded", "user.created"]);
    expect(typesAt("star")).toEqual(["sign_in.failed", "sign_in.succeeded", "user.created"]);
    expect(typesAt("off")).toEqual([]);
    expect(await deliveries(admin, off.endpoint.id)).toEqual([]);
  });

  it("tries a failing receiver again on the schedule: three failures, then the fourth try delivers", async () => {
    const { endpoint, secret } = await createEndpoint(admin, { url: receiver.url, events: ["user.created"] });
    endpointsToRemove.push(endpoint.id);
    receiver.answer = ({ count }) => (count < 3 ? 503 : 204);
    await signUp(new TestClient(server.base));
    await receiver.waitFor((r) => r.some((m) => m.status === 204));
    const tries = receiver.received;
    expect(tries.map((t) => t.status)).toEqual([503, 503, 503, 204]);
    expect(new Set(tries.map((t) => t.id)).size).toBe(1);
    for (const t of tries) expect(verifyStandardWebhook(secret, t)).toBe(true);
    // Spaced by the schedule (0.2 s), each signed at its own time.
    for (let i = 1; i < tries.length; i++) expect(tries[i]!.at - tries[i - 1]!.at).toBeGreaterThanOrEqual(150);
    await waitUntil(async () => (await deliveries(admin, endpoint.id))[0]?.status === "delivered");
    const [delivery] = await deliveries(admin, endpoint.id);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 4, responseStatus: 204, error: null, nextAttemptAt: null });
  });

  it("gives up after the schedule, logs the last answer, and sends it again on resend", async () => {
    const { endpoint, secret } = await createEndpoint(admin, { url: receiver.url, events: ["user.created"] });
    endpointsToRemove.push(endpoint.id);
    receiver.answer = () => 500;
    await signUp(new TestClient(server.base));
    // One try and four retries.
    await receiver.waitFor((r) => r.length >= 5);
    await waitUntil(async () => (await deliveries(admin, endpoint.id))[0]?.status === "failed");
    const [failed] = await deliveries(admin, endpoint.id);
    expect(failed).toMatchObject({ status: "failed", attempts: 5, responseStatus: 500, responseBody: "nope 500", error: "answered 500", nextAttemptAt: null });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received).toHaveLength(5);

    receiver.answer = () => 200;
    const resent = await admin.post("/admin/webhooks/resend-delivery", { deliveryId: failed!.id });
    expect(resent.status).toBe(200);
    expect(resent.body.delivery).toMatchObject({ id: failed!.id, status: "pending", attempts: 0 });
    await receiver.waitFor((r) => r.length >= 6);
    const last = receiver.received[5]!;
    expect(last.id).toBe(failed!.eventId);
    expect(verifyStandardWebhook(secret, last)).toBe(true);
    await waitUntil(async () => (await deliveries(admin, endpoint.id))[0]?.status === "delivered");
    expect((await deliveries(admin, endpoint.id))[0]).toMatchObject({ attempts: 1, responseStatus: 200 });

    // A delivered one may be sent again too; an unknown one is 404.
    const again = await admin.post("/admin/webhooks/resend-delivery", { deliveryId: failed!.id });
    expect(again.status).toBe(200);
    await receiver.waitFor((r) => r.length >= 7);
    expect((await admin.post("/admin/webhooks/resend-delivery", { deliveryId: "nope" })).body.code).toBe("WEBHOOK_DELIVERY_NOT_FOUND");
  });

  it("does not follow redirects and records a timeout", async () => {
    const { endpoint } = await createEndpoint(admin, { url: receiver.url, events: ["user.created"] });
    endpointsToRemove.push(endpoint.id);
    receiver.answer = () => 302;
    await signUp(new TestClient(server.base));
    await receiver.waitFor((r) => r.length >= 1);
    await waitUntil(async () => (await deliveries(admin, endpoint.id))[0]?.lastAttemptAt != null && (await deliveries(admin, endpoint.id))[0]?.status !== "sending");
    expect((await deliveries(admin, endpoint.id))[0]).toMatchObject({ responseStatus: 302, error: "redirect (302) not followed" });
    // A receiver slower than webhooks.timeout (2 s).
    receiver.answer = () => new Promise((resolve) => setTimeout(() => resolve(200), 2_600));
    await waitUntil(async () => ((await deliveries(admin, endpoint.id))[0]?.error ?? "").startsWith("timeout"), 10_000);
    expect((await deliveries(admin, endpoint.id))[0]).toMatchObject({ responseStatus: null, status: "pending" });

    // An answer's body is kept (its first 1,000 characters) whatever it holds: quotes, NUL, other scripts.
    const odd = `{"ok":"да \\ "}\u0000 ✓ ${"x".repeat(5_000)}`;
    receiver.answer = () => ({ status: 503, body: odd });
    await waitUntil(async () => (await deliveries(admin, endpoint.id))[0]?.responseStatus === 503, 10_000);
    const [kept] = await deliveries(admin, endpoint.id);
    expect(kept!.responseBody).toBe(odd.replace("\u0000", "").slice(0, 1_000));
    receiver.answer = () => 200;
  });

  it("manages endpoints: change, turn off, rotate the secret, delete; the configuration file's are read-only", async () => {
    const created = await createEndpoint(admin, { url: receiver.url, events: ["user.created"], description: "CRM" });
    const id = created.endpoint.id;
    endpointsToRemove.push(id);
    const listed = await admin.get("/admin/webhooks/list-endpoints");
    expect(listed.status).toBe(200);
    expect(listed.body.eventTypes).toContain("user.banned");
    const [fromFile, ...rest] = listed.body.endpoints;
    expect(fromFile).toMatchObject({
      id: configEndpointId(configReceiver.url),
      url: configReceiver.url,
      events: ["user.banned"],
      source: "config",
      readOnly: true,
      description: "From the file",
      createdAt: null,
    });
    expect(rest.find((e: { id: string }) => e.id === id)).toMatchObject({ source: "api", readOnly: false, description: "CRM", enabled: true });

    for (const path of ["/admin/webhooks/update-endpoint", "/admin/webhooks/rotate-endpoint-secret", "/admin/webhooks/delete-endpoint"]) {
      const res = await admin.post(path, { endpointId: fromFile.id, enabled: false });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("WEBHOOK_ENDPOINT_IS_DECLARED_IN_THE_CONFIGURATION");
    }

    const changed = await admin.post("/admin/webhooks/update-endpoint", { endpointId: id, events: ["user.*"], description: null });
    expect(changed.body.endpoint).toMatchObject({ events: ["user.*"], description: null, enabled: true });
    const rotated = await admin.post("/admin/webhooks/rotate-endpoint-secret", { endpointId: id });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(created.secret);
    await signUp(new TestClient(server.base));
    await receiver.waitFor((r) => r.length >= 1);
    expect(verifyStandardWebhook(rotated.body.secret, receiver.received[0]!)).toBe(true);
    expect(verifyStandardWebhook(created.secret, receiver.received[0]!)).toBe(false);

    // Turned off: nothing more is sent, and what waited for a retry fails.
    receiver.answer = () => 500;
    await signUp(new TestClient(server.base));
    await receiver.waitFor((r) => r.length >= 2);
    const off = await admin.post("/admin/webhooks/update-endpoint", { endpointId: id, enabled: false });
    expect(off.body.endpoint.enabled).toBe(false);
    const count = receiver.received.length;
    await signUp(new TestClient(server.base));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(receiver.received.length).toBeLessThanOrEqual(count + 1); // at most a try that had already started
    // The try under way when it was turned off ends, and then fails too, unsent.
    await waitUntil(async () => (await deliveries(admin, id)).some((d) => d.status === "failed" && d.error === "the endpoint is turned off"));
    expect((await deliveries(admin, id)).filter((d) => d.status === "pending" || d.status === "sending")).toEqual([]);

    const deleted = await admin.post("/admin/webhooks/delete-endpoint", { endpointId: id });
    expect(deleted.body).toEqual({ success: true });
    expect((await admin.get(`/admin/webhooks/list-deliveries?endpointId=${id}`)).body.code).toBe("WEBHOOK_ENDPOINT_NOT_FOUND");
    expect((await admin.post("/admin/webhooks/delete-endpoint", { endpointId: id })).status).toBe(404);
  });

  it("delivers to the configuration file's endpoint with its own secret and filter", async () => {
    const target = await signUp(new TestClient(server.base));
    const banned = await admin.post("/admin/ban-user", { userId: target.user.id });
    expect(banned.status).toBe(200);
    await configReceiver.waitFor((r) => r.length >= 1);
    const [message] = configReceiver.received;
    expect(JSON.parse(message!.body)).toMatchObject({ type: "user.banned", data: { userId: target.user.id } });
    expect(verifyStandardWebhook(configSecret, message!)).toBe(true);
    await waitUntil(async () => (await deliveries(admin, configEndpointId(configReceiver.url)))[0]?.status === "delivered");
    const log = await deliveries(admin, configEndpointId(configReceiver.url));
    expect(log[0]).toMatchObject({ eventType: "user.banned", status: "delivered" });
  });

  it("validates input and asks for the webhooks permission", async () => {
    const bad = [
      { url: "not a url" },
      { url: "ftp://example.com/" },
      { url: "https://user:pass@example.com/" },
      { url: "https://example.com/#frag" },
      { url: "https://example.com/", events: ["nope.*"] },
      { url: "https://example.com/", events: [] },
      { url: "https://example.com/", enabled: "yes" },
    ];
    for (const body of bad) {
      const res = await admin.post("/admin/webhooks/create-endpoint", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
    expect((await admin.get("/admin/webhooks/list-deliveries")).status).toBe(400);
    expect((await admin.get("/admin/webhooks/list-deliveries?endpointId=x&limit=0")).status).toBe(400);

    const user = new TestClient(server.base);
    await signUp(user);
    const refusals = [
      await user.get("/admin/webhooks/list-endpoints"),
      await user.post("/admin/webhooks/create-endpoint", { url: receiver.url }),
      await user.post("/admin/webhooks/resend-delivery", { deliveryId: "x" }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([403, 403, 403]);
    expect(refusals[0]!.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_LIST_WEBHOOKS");
    expect((await new TestClient(server.base).get("/admin/webhooks/list-endpoints")).status).toBe(401);
  });
});

describe.each(DIALECTS)("private webhook targets on %s (webhooks.allowPrivateTargets off)", (dialect) => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await database?.drop();
  });

  it("refuses a loopback target when it is made, and again at delivery after DNS", async () => {
    const strict = await startTestServer(dialect, { webhooks: FAST }, { database });
    const admin = new TestClient(strict.base);
    await signUpAdmin(strict, admin);
    for (const url of [receiver.url, `http://localhost:${receiver.port}/`, "http://[::1]/", "http://169.254.169.254/latest", "http://10.0.0.8/", "http://0x7f.1/"]) {
      const res = await admin.post("/admin/webhooks/create-endpoint", { url });
      expect(res.status, url).toBe(400);
      expect(res.body.code).toBe("WEBHOOK_URL_POINTS_TO_A_PRIVATE_ADDRESS");
    }
    await strict.close();

    // An endpoint whose name resolves to loopback, made while private targets were allowed (or pointed there by DNS
    // since): the delivery resolves it, refuses it, and sends nothing.
    const lenient = await startTestServer(dialect, { webhooks: { ...FAST, allowPrivateTargets: true, enabled: true } }, { database });
    const lenientAdmin = new TestClient(lenient.base);
    await signUpAdmin(lenient, lenientAdmin);
    const { endpoint } = await createEndpoint(lenientAdmin, { url: `http://localhost:${receiver.port}/hooks`, events: ["user.created"] });
    await lenient.close();

    const again = await startTestServer(dialect, { webhooks: FAST }, { database });
    try {
      const againAdmin = new TestClient(again.base);
      await signUpAdmin(again, againAdmin);
      await waitUntil(async () => (await deliveries(againAdmin, endpoint.id)).some((d) => d.status === "failed"), 10_000);
      const [delivery] = await deliveries(againAdmin, endpoint.id);
      expect(delivery!.error).toMatch(/^refused: (127\.0\.0\.1|::1) is a private, loopback or link-local address/);
      expect(delivery).toMatchObject({ status: "failed", attempts: 5, responseStatus: null });
      expect(receiver.received).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it("a Gatehouse with webhooks off answers their routes 404 and sends nothing", async () => {
    const off = createGatehouse(
      { secret: TEST_SECRET, logger: { level: "silent" }, database: { url: database.url, schema: database.schema }, webhooks: { enabled: false } } as never,
      { nodeEnv: "test" },
    );
    try {
      const res = await off.handler(new Request(`http://localhost${off.config.basePath}/admin/webhooks/list-endpoints`));
      expect(res.status).toBe(404);
    } finally {
      await off.close();
    }
  });
});

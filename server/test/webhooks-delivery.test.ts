import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitEvent, systemEventSource } from "../src/events/emit.js";
import { pruneEvents } from "../src/events/prune.js";
import { newWebhookSecret } from "../src/webhooks/secrets.js";
import { signUpAdmin } from "./helpers/admin.js";
import { buildCli, type CliBuild } from "./helpers/cli.js";
import { manualClock } from "./helpers/clock.js";
import { createTestDatabase, DIALECTS, type TestDatabase } from "./helpers/databases.js";
import { signUp, TestClient } from "./helpers/http-client.js";
import { startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";
import { startReceiver, verifyStandardWebhook, type WebhookReceiver } from "./helpers/webhook-receiver.js";

/**
 * Webhook delivery across what happens to a service: a SIGKILL of the process (its deliveries come back from the
 * outbox after it restarts), two instances on one PostgreSQL (each event delivered once), and the audit log's
 * retention (it never prunes an event still to be delivered).
 */

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs = 20_000, what = "condition") {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function userCreatedIds(server: TestServer): Promise<string[]> {
  const events = await server.gatehouse.runtime.stores.events.list({ types: ["user.created"] }, 10_000);
  return events.map((e) => e.id);
}

describe.each(DIALECTS)("webhooks across a SIGKILL of the service on %s", (dialect) => {
  let build: CliBuild;
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  let dir: string;
  let child: ChildProcess | null = null;
  const secret = newWebhookSecret();

  beforeAll(async () => {
    build = buildCli();
    database = await createTestDatabase(dialect);
    receiver = await startReceiver();
    dir = mkdtempSync(join(tmpdir(), "gatehouse-webhooks-"));
  });
  afterAll(async () => {
    child?.kill("SIGKILL");
    await receiver?.close();
    await database?.drop();
    build?.remove();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** `gatehouse serve` as its own process, answering on its port once ready. */
  async function startService(port: number): Promise<ChildProcess> {
    const config = join(dir, "gatehouse.json");
    writeFileSync(
      config,
      JSON.stringify({
        database: { schema: database.schema ?? null },
        rateLimit: { enabled: false },
        webhooks: {
          allowPrivateTargets: true,
          timeout: 1,
          retrySchedule: Array(20).fill(1),
          endpoints: [{ url: receiver.url, secret, events: ["user.created"] }],
        },
      }),
    );
    const proc = spawn(process.execPath, [build.main, "serve"], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "test",
        DATABASE_URL: database.url,
        GATEHOUSE_SECRET: TEST_SECRET,
        GATEHOUSE_CONFIG: config,
        GATEHOUSE_DATA_DIR: join(dir, "data"),
        HOST: "127.0.0.1",
        PORT: String(port),
        WEB_ROOT: "",
        LOG_LEVEL: process.env.WEBHOOK_TEST_DEBUG ? "debug" : "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    proc.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    proc.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    if (process.env.WEBHOOK_TEST_DEBUG) proc.on("exit", () => console.log(output));
    await waitUntil(
      async () => {
        if (proc.exitCode !== null) throw new Error(`the service exited: ${output}`);
        try {
          return (await fetch(`http://127.0.0.1:${port}/api/auth/ok`)).ok;
        } catch {
          return false;
        }
      },
      30_000,
      "the service to answer",
    );
    return proc;
  }

  function kill(proc: ChildProcess): Promise<void> {
    return new Promise((resolve) => {
      proc.once("exit", () => resolve());
      proc.kill("SIGKILL");
    });
  }

  it("delivers every event queued while it was killed, once it is back: none lost", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/api/auth`;
    receiver.answer = () => 503;
    child = await startService(port);

    // Ten sign-ups whose first tries fail: their deliveries wait for a retry in the database.
    for (let i = 0; i < 10; i++) await signUp(new TestClient(base));
    await receiver.waitFor((r) => new Set(r.map((m) => m.id)).size >= 10);
    // Five more, and the process is killed while they are being fanned out and tried.
    await Promise.all(Array.from({ length: 5 }, () => signUp(new TestClient(base))));
    await kill(child);
    child = null;

    // While it is down, another instance without webhooks makes five more.
    const other = await startTestServer(dialect, { webhooks: { enabled: false } }, { database });
    try {
      for (let i = 0; i < 5; i++) await signUp(new TestClient(other.base));
      const expected = await userCreatedIds(other);
      expect(expected).toHaveLength(20);
      expect(receiver.acknowledged().size).toBe(0);

      receiver.answer = () => 200;
      child = await startService(port);
      await waitUntil(() => expected.every((id) => receiver.acknowledged().has(id)), 30_000, "every event to be delivered");
      for (const message of receiver.received) expect(verifyStandardWebhook(secret, message)).toBe(true);
      expect([...receiver.acknowledged().keys()].sort()).toEqual([...expected].sort());
    } finally {
      await other.close();
      if (child) await kill(child);
      child = null;
    }
  });
});

describe("two instances on one PostgreSQL", () => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  let a: TestServer;
  let b: TestServer;
  const secret = newWebhookSecret();

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    receiver = await startReceiver();
    const options = {
      rateLimit: { enabled: false },
      metrics: { enabled: true, token: "metrics-token-long-enough" },
      webhooks: { allowPrivateTargets: true, retrySchedule: [0.1, 0.1, 0.1], endpoints: [{ url: receiver.url, secret }] },
    };
    a = await startTestServer("postgres", options, { database });
    b = await startTestServer("postgres", options, { database });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await receiver?.close();
    await database?.drop();
  });

  it("deliver each event once: a receiver that answers 2xx counts every event exactly once", async () => {
    // Every third event fails its first try, so retries are taken from the shared table too.
    let n = 0;
    const failFirst = new Set<string>();
    receiver.answer = ({ id, count }) => {
      if (count === 0 && n++ % 3 === 0) failFirst.add(id);
      return failFirst.has(id) && count === 0 ? 500 : 200;
    };
    const signUps: Promise<unknown>[] = [];
    for (let i = 0; i < 60; i++) signUps.push(signUp(new TestClient((i % 2 ? a : b).base)));
    await Promise.all(signUps);
    const events = await a.gatehouse.runtime.stores.events.list({}, 10_000);
    expect(events.length).toBe(120); // user.created and sign_in.succeeded for each
    await waitUntil(() => events.every((e) => receiver.acknowledged().has(e.id)), 30_000, "every event to be delivered");
    // Long enough for a second delivery of anything to show.
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const acknowledged = receiver.acknowledged();
    expect(acknowledged.size).toBe(120);
    expect([...acknowledged.values()].every((count) => count === 1)).toBe(true);
    expect(receiver.received).toHaveLength(120 + failFirst.size);
    expect(failFirst.size).toBeGreaterThan(10);
    for (const message of receiver.received) expect(verifyStandardWebhook(secret, message)).toBe(true);

    // Both instances sent some, and each try was counted once, by the instance that made it.
    const delivered = async (server: TestServer) => {
      const text = await server.gatehouse.metrics.render();
      const line = (result: string) => Number(new RegExp(`gatehouse_webhook_deliveries_total\\{result="${result}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
      return { delivered: line("delivered"), failed: line("failed") };
    };
    const [fromA, fromB] = [await delivered(a), await delivered(b)];
    expect(fromA.delivered + fromB.delivered).toBe(120);
    expect(fromA.failed + fromB.failed).toBe(failFirst.size);
    expect(fromA.delivered).toBeGreaterThan(0);
    expect(fromB.delivered).toBeGreaterThan(0);
  });
});

describe.each(DIALECTS)("the audit log's prune and the webhooks on %s", (dialect) => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  const clock = manualClock();

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer(
      dialect,
      { events: { retentionDays: 1 }, webhooks: { allowPrivateTargets: true, retrySchedule: [3_600] } },
      { now: clock.now },
    );
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it("never prunes an event still to be delivered", async () => {
    const admin = new TestClient(server.base);
    await signUpAdmin(server, admin);
    const before = await server.gatehouse.runtime.stores.events.list({}, 100);
    receiver.answer = () => 503;
    const created = await admin.post("/admin/webhooks/create-endpoint", { url: receiver.url, events: ["user.created"] });
    expect(created.status).toBe(200);
    const user = await signUp(new TestClient(server.base));
    await receiver.waitFor((r) => r.length === 1);
    const [waiting] = await server.gatehouse.runtime.stores.events.list({ userId: user.user.id, types: ["user.created"] }, 1);
    // Its failed try is on record, with the next one an hour later, before the clock moves.
    const endpointId = created.body.endpoint.id as string;
    await waitUntil(
      async () => (await server.gatehouse.runtime.stores.webhookDeliveries.listDeliveries(endpointId, { status: "pending" }, 1)).length === 1,
      5_000,
      "the failed try's record",
    );

    clock.advance(2 * 86_400_000);
    expect(await pruneEvents(server.gatehouse.runtime)).toBe(before.length);
    const left = await server.gatehouse.runtime.stores.events.list({}, 100);
    expect(left.map((e) => e.id)).toContain(waiting!.id);
    expect(left.every((e) => e.seq >= waiting!.seq)).toBe(true);

    // Its retry is due an hour later: the clock is two days on, so the next look takes it.
    receiver.answer = () => 200;
    await receiver.waitFor((r) => r.some((m) => m.status === 200 && m.id === waiting!.id), 10_000);
    await waitUntil(async () => (await server.gatehouse.runtime.stores.webhookDeliveries.lowestOpenEventSeq()) === null, 5_000, "the outcome");
    clock.advance(2 * 86_400_000);
    await pruneEvents(server.gatehouse.runtime);
    const after = await server.gatehouse.runtime.stores.events.list({}, 100);
    expect(after.map((e) => e.id)).not.toContain(waiting!.id);
  });
});

describe("an event committed below one already delivered (PostgreSQL)", () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  const secret = newWebhookSecret();

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer("postgres", {
      webhooks: { allowPrivateTargets: true, endpoints: [{ url: receiver.url, secret, events: ["user.updated", "user.created"] }] },
    });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it("is delivered when its transaction commits, though later events went first", async () => {
    const { runtime } = server.gatehouse;
    // A transaction takes its event's seq, and stays open while a later event commits and is delivered.
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    const slow = runtime.stores.transaction(async (tx) => {
      await emitEvent(tx, systemEventSource(runtime), "user.updated", { userId: "slow-user", data: { fields: ["name"] } });
      inserted();
      await held;
    });
    await insertedYet;
    const later = await signUp(new TestClient(server.base));
    await receiver.waitFor((r) => r.some((m) => JSON.parse(m.body).data.userId === later.user.id));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.some((m) => JSON.parse(m.body).data.userId === "slow-user")).toBe(false);
    // The fan-out passed its seq and remembers it.
    expect(await runtime.stores.webhookOutbox.lowestGap()).not.toBeNull();

    commit();
    await slow;
    await receiver.waitFor((r) => r.some((m) => JSON.parse(m.body).data.userId === "slow-user"), 10_000);
    const slowMessage = receiver.received.find((m) => JSON.parse(m.body).data.userId === "slow-user")!;
    expect(verifyStandardWebhook(secret, slowMessage)).toBe(true);
    const laterSeq = Math.min(...receiver.received.filter((m) => JSON.parse(m.body).data.userId === later.user.id).map((m) => JSON.parse(m.body).data.seq));
    expect(JSON.parse(slowMessage.body).data.seq).toBeLessThan(laterSeq);
    await waitUntil(async () => (await runtime.stores.webhookOutbox.lowestGap()) === null, 5_000, "the gap to close");
    expect(receiver.acknowledged().size).toBe(receiver.received.length);
  });
});

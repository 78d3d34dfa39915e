import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, POSTGRES_URL, REDIS_URL, type TestDatabase } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { startTcpProxy, type TcpProxy } from "./helpers/tcp-proxy.js";

async function eventually<T>(attempt: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T;
  do {
    last = await attempt();
    if (accept(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  } while (Date.now() < deadline);
  return last;
}

describe("PostgreSQL and Redis going away and coming back", () => {
  let database: TestDatabase;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    const pgUrl = new URL(POSTGRES_URL);
    const redisUrl = new URL(REDIS_URL);
    pgProxy = await startTcpProxy(pgUrl.hostname, Number(pgUrl.port || 5432));
    redisProxy = await startTcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
    pgUrl.port = String(pgProxy.port);
    server = await startTestServer(
      "postgres",
      {
        database: { url: pgUrl.toString(), schema: database.schema },
        redis: { url: `redis://127.0.0.1:${redisProxy.port}`, keyPrefix: `faults-${randomBytes(4).toString("hex")}:` },
        rateLimit: { enabled: true, max: 10_000, customRules: { "/sign-in/*": { window: 10, max: 10_000 } } },
      },
      { database },
    );
  });
  afterAll(async () => {
    await server?.close();
    await pgProxy?.close();
    await redisProxy?.close();
    await database?.drop();
  });

  it("answers 503 while PostgreSQL is down, keeps what it confirmed, and recovers by itself", async () => {
    const c = new TestClient(server.base);
    const { email } = await signUp(c);
    expect((await c.get("/get-session")).status).toBe(200);

    await pgProxy.down();
    const during = await Promise.all([
      c.get("/get-session"),
      new TestClient(server.base).post("/sign-in/email", { email, password: PASSWORD }),
      new TestClient(server.base).post("/sign-up/email", { name: "x", email: uniqueEmail(), password: PASSWORD }),
    ]);
    for (const res of during) {
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ code: "SERVICE_UNAVAILABLE", message: expect.any(String) });
    }
    // The service itself is still up.
    expect((await c.get("/ok")).status).toBe(200);

    await pgProxy.up();
    const after = await eventually(
      () => c.get("/get-session"),
      (r) => r.status === 200,
    );
    expect(after.body.user.email).toBe(email);
    const signIn = await new TestClient(server.base).post("/sign-in/email", { email, password: PASSWORD });
    expect(signIn.status).toBe(200);
  });

  it("a connection lost while a transaction holds it fails that transaction, not the process", async () => {
    const c = new TestClient(server.base);
    const { email } = await signUp(c);
    const stores = server.gatehouse.runtime.stores;
    let proceed!: () => void;
    const cut = new Promise<void>((resolve) => (proceed = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    // The transaction holds its connection between two statements while the server goes away: the pool listens on
    // idle connections only, so this one's "error" needs a listener of the service's own (else: an uncaught error).
    const transaction = stores.transaction(async (tx) => {
      await tx.users.findUserByEmail(email);
      holding();
      await cut;
      return tx.users.findUserByEmail(email);
    });
    const outcome = transaction.then(
      () => "committed",
      () => "failed",
    );
    await held;
    await pgProxy.down();
    proceed();
    expect(await outcome).toBe("failed");
    await pgProxy.up();
    const after = await eventually(
      () => c.get("/get-session"),
      (r) => r.status === 200,
    );
    expect(after.body.user.email).toBe(email);
  });

  it("answers 503 while Redis is down and recovers by itself", async () => {
    const c = new TestClient(server.base);
    expect((await c.get("/ok")).status).toBe(200);
    await redisProxy.down();
    const during = await eventually(
      () => c.get("/ok"),
      (r) => r.status === 503,
      5_000,
    );
    expect(during.status).toBe(503);
    expect(during.body.code).toBe("SERVICE_UNAVAILABLE");
    await redisProxy.up();
    const after = await eventually(
      () => c.get("/ok"),
      (r) => r.status === 200,
    );
    expect(after.status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, REDIS_URL, type TestDatabase } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { randomBytes } from "node:crypto";

describe("two instances on one PostgreSQL and one Redis", () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    // A key prefix of its own keeps this run's counters apart from any other run's.
    const options = {
      redis: { url: REDIS_URL, keyPrefix: `test-${randomBytes(6).toString("hex")}:` },
      rateLimit: { enabled: true, customRules: { "/ok": { window: 30, max: 10 } } },
      trustedOrigins: ["http://shared.test"],
      // Behind a proxy: the client address comes from X-Forwarded-For, so each test can be its own client.
      advanced: { ipAddress: { ipAddressHeaders: ["x-forwarded-for"] } },
    };
    a = await startTestServer("postgres", options, { database });
    b = await startTestServer("postgres", options, { database });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it("sees on one instance a session made on the other, and a revoke on either holds on both", async () => {
    const onA = new TestClient(a.base, "http://shared.test");
    const { email } = await signUp(onA);
    const onB = new TestClient(b.base, "http://shared.test");
    for (const [k, v] of onA.jar) onB.jar.set(k, v);
    const seen = await onB.get("/get-session");
    expect(seen.body.user.email).toBe(email);

    const second = new TestClient(b.base, "http://shared.test");
    await second.post("/sign-in/email", { email, password: PASSWORD });
    expect((await onA.get("/list-sessions")).body).toHaveLength(2);
    await onA.post("/revoke-other-sessions");
    expect((await second.get("/get-session")).body ?? null).toBeNull();
    await onB.post("/sign-out");
    expect((await onA.get("/get-session")).body ?? null).toBeNull();
  });

  it("adds up rate limits across instances", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const server = i % 2 === 0 ? a : b;
      statuses.push((await new TestClient(server.base).get("/ok")).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it("shares the strict sign-in limit too", async () => {
    const email = uniqueEmail();
    const statuses: number[] = [];
    const headers = { "x-forwarded-for": "203.0.113.7" };
    for (const server of [a, b, a, b]) {
      const c = new TestClient(server.base);
      statuses.push((await c.post("/sign-in/email", { email, password: PASSWORD }, { headers })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Another client address has its own allowance.
    const other = await new TestClient(a.base).post(
      "/sign-in/email",
      { email, password: PASSWORD },
      { headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.9" } },
    );
    expect(other.status).toBe(401);
  });
});

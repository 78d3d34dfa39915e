import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnyEndpoint } from "../src/http/endpoint.js";
import { ENDPOINTS } from "../src/routes.js";
import { createTestDatabase, DIALECTS, REDIS_URL, type TestDatabase } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail, type TestResponse } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/**
 * Issue #12 part 3, items 1 to 3: attacks on the rate limits (percent-encoded paths, password routes without a
 * limit of their own, many client addresses against one account), run over real HTTP on both databases, and with
 * two instances sharing Redis.
 */

/** Behind a proxy: X-Forwarded-For names the client, so each request can come from an address of its own. */
const BEHIND_PROXY = { advanced: { ipAddress: { ipAddressHeaders: ["x-forwarded-for"] } } };

let lastOctet = 0;
/** A client address no other test uses. */
const freshIp = () => {
  lastOctet += 1;
  return `198.18.${Math.floor(lastOctet / 250)}.${(lastOctet % 250) + 1}`;
};
const from = (ip: string) => ({ headers: { "x-forwarded-for": ip } });

const retryAfter = (res: TestResponse) => Number(res.headers.get("retry-after"));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function outboxCount(server: TestServer, to: string, kind: string, settleMs = 300): Promise<number> {
  await sleep(settleMs);
  return server.gatehouse.runtime.mailer.outbox!.filter((m) => m.to === to && m.kind === kind).length;
}

describe.each(DIALECTS)("#12.3.1: the rate-limit key is the route the router matched, on %s", (dialect) => {
  let server: TestServer;
  /** The default rule lowered to 3 a minute, to see it on get-session and on unknown paths. */
  let tight: TestServer;
  beforeAll(async () => {
    [server, tight] = await Promise.all([
      startTestServer(dialect, { rateLimit: { enabled: true }, ...BEHIND_PROXY }),
      startTestServer(dialect, { rateLimit: { enabled: true, window: 60, max: 3 }, ...BEHIND_PROXY }),
    ]);
  });
  afterAll(async () => {
    await Promise.allSettled([server?.close(), tight?.close()]);
  });

  it("#12.3.1 after three wrong sign-ins, percent-encoded spellings of the route are 429 too", async () => {
    const ip = freshIp();
    const c = new TestClient(server.base);
    const body = { email: uniqueEmail(), password: "wrong password" };
    for (let i = 0; i < 3; i++) expect((await c.post("/sign-in/email", body, from(ip))).status).toBe(401);
    expect((await c.post("/sign-in/email", body, from(ip))).status).toBe(429);
    const spellings = ["/sign-in/%65mail", "/sign-in/em%61il", "/%73ign-in/email", "/%73%69%67%6e-in/%65%6d%61%69%6c"];
    for (const path of spellings) {
      const res = await c.post(path, body, from(ip));
      expect(res.status, path).toBe(429);
      expect(retryAfter(res)).toBeGreaterThan(0);
    }
    // The base path spelled with escapes reaches the same route and the same allowance.
    const whole = new TestClient(server.url);
    expect((await whole.post("/%61pi/auth/sign-in/email", body, from(ip))).status).toBe(429);
    // Those spellings do reach sign-in (a fresh client is answered by its handler).
    expect((await c.post("/sign-in/%65mail", body, from(freshIp()))).status).toBe(401);
  });

  it("#12.3.1 the mail routes are counted by route too", async () => {
    const ip = freshIp();
    const c = new TestClient(server.base);
    for (const path of ["/forget-password", "/forget-p%61ssword", "/%66orget-password"]) {
      expect((await c.post(path, { email: uniqueEmail() }, from(ip))).status, path).toBe(200);
    }
    expect((await c.post("/forget-passwor%64", { email: uniqueEmail() }, from(ip))).status).toBe(429);
  });

  it("#12.3.1 get-session's node shortcut and its spelled-out form share one allowance", async () => {
    const ip = freshIp();
    const c = new TestClient(tight.base);
    for (let i = 0; i < 3; i++) expect((await c.get("/get-session", from(ip))).status).toBe(200);
    expect((await c.get("/get-s%65ssion", from(ip))).status).toBe(429);
  });

  it("#12.3.1 paths no route matches are limited too, all under one allowance per client", async () => {
    const ip = freshIp();
    const c = new TestClient(tight.base);
    for (let i = 0; i < 3; i++) expect((await c.get(`/no-such-route-${i}`, from(ip))).status).toBe(404);
    expect((await c.get("/no-such-route-other", from(ip))).status).toBe(429);
    expect((await c.post("/sign-in/email/", {}, from(ip))).status).toBe(429);
    // Routes keep their own allowance.
    expect((await c.get("/ok", from(ip))).status).toBe(200);
  });
});

describe.each(DIALECTS)("#12.3.2: every route that checks a password is limited like sign-in, on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, {
      rateLimit: { enabled: true },
      user: { deleteUser: { enabled: true, sendDeleteAccountVerification: false } },
      ...BEHIND_PROXY,
    });
  });
  afterAll(async () => server?.close());

  it("#12.3.2 delete-user with a stolen session: the fourth wrong password from one client is 429", async () => {
    const ip = freshIp();
    const c = new TestClient(server.base);
    await signUp(c);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await c.post("/delete-user", { password: `guess ${i}` }, from(ip))).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
    expect((await c.get("/get-session")).body.user).toBeTruthy();
  });

  it("#12.3.2 from many client addresses, a stolen session gets five guesses at the password, then waits", async () => {
    const c = new TestClient(server.base);
    const { email } = await signUp(c);
    const statuses: number[] = [];
    let refused: TestResponse | undefined;
    for (let i = 0; i < 8; i++) {
      const res = await c.post("/delete-user", { password: `guess ${i}` }, from(freshIp()));
      statuses.push(res.status);
      if (res.status === 429) refused ??= res;
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429]);
    expect(retryAfter(refused!)).toBeGreaterThanOrEqual(1);
    expect(refused!.headers.get("x-retry-after")).toBe(refused!.headers.get("retry-after"));
    // The same account's other password routes, and sign-in, wait with it.
    const change = await c.post(
      "/change-password",
      { currentPassword: "guess", newPassword: "another password 1" },
      from(freshIp()),
    );
    expect(change.status).toBe(429);
    expect((await new TestClient(server.base).post("/sign-in/email", { email, password: "guess" }, from(freshIp()))).status).toBe(429);
  });

  it("#12.3.2 every route whose body carries a password declares the credential limit", () => {
    const passwordFields = ["password", "currentPassword", "newPassword"];
    const undeclared = (Object.values(ENDPOINTS) as AnyEndpoint[])
      .filter((e) => !e.path.startsWith("/admin/"))
      .filter((e) => {
        const shape = (e.body as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
        return passwordFields.some((field) => field in shape);
      })
      .filter((e) => e.rateLimit !== "credential")
      .map((e) => e.path);
    expect(undeclared).toEqual([]);
    for (const path of ["/sign-in/email", "/sign-in/username", "/change-password", "/set-password", "/delete-user"]) {
      const endpoint = (Object.values(ENDPOINTS) as AnyEndpoint[]).find((e) => e.path === path);
      expect(endpoint?.rateLimit, path).toBe("credential");
    }
  });
});

describe.each(DIALECTS)("#12.3.3: limits keyed by the target account, on %s", (dialect) => {
  let server: TestServer;
  /** Short waits, to see them grow and run out within a test. */
  let quick: TestServer;
  let unlimited: TestServer;
  beforeAll(async () => {
    [server, quick, unlimited] = await Promise.all([
      startTestServer(dialect, { rateLimit: { enabled: true }, ...BEHIND_PROXY }),
      startTestServer(dialect, { rateLimit: { enabled: true, account: { delay: 1, maxDelay: 2 } }, ...BEHIND_PROXY }),
      startTestServer(dialect, { rateLimit: { enabled: false }, ...BEHIND_PROXY }),
    ]);
  });
  afterAll(async () => {
    await Promise.allSettled([server?.close(), quick?.close(), unlimited?.close()]);
  });

  it("#12.3.3 ten forget-password requests for one address from ten clients send five mails, then 429", async () => {
    const { email } = await signUp(new TestClient(server.base));
    const nobody = uniqueEmail("nobody");
    for (const address of [email, nobody]) {
      const statuses: number[] = [];
      let refused: TestResponse | undefined;
      for (let i = 0; i < 10; i++) {
        const res = await new TestClient(server.base).post("/forget-password", { email: address }, from(freshIp()));
        statuses.push(res.status);
        if (res.status === 429) refused ??= res;
      }
      // The same answers whether or not the address has an account.
      expect(statuses, address).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429, 429]);
      // The answer says when: the address's hour runs out.
      expect(retryAfter(refused!)).toBeGreaterThan(3000);
      expect(retryAfter(refused!)).toBeLessThanOrEqual(3600);
    }
    expect(await outboxCount(server, email, "resetPassword")).toBe(5);
    // Verification mail to the address counts against the same allowance.
    const more = await new TestClient(server.base).post("/send-verification-email", { email }, from(freshIp()));
    expect(more.status).toBe(429);
  });

  it("#12.3.3 thirty wrong sign-ins against one account from thirty clients: five answers, then 429 with a retry time", async () => {
    const { email } = await signUp(new TestClient(server.base));
    for (const address of [email, uniqueEmail("nobody")]) {
      const statuses: number[] = [];
      let refused: TestResponse | undefined;
      for (let i = 0; i < 30; i++) {
        const res = await new TestClient(server.base).post(
          "/sign-in/email",
          { email: address, password: `guess ${i}` },
          from(freshIp()),
        );
        statuses.push(res.status);
        if (res.status === 429) refused ??= res;
      }
      // An unknown address is limited exactly like a known one: the limit tells nothing about which exist.
      expect(statuses.slice(0, 5), address).toEqual([401, 401, 401, 401, 401]);
      expect(new Set(statuses.slice(5)), address).toEqual(new Set([429]));
      expect(retryAfter(refused!)).toBeGreaterThanOrEqual(1);
      expect(retryAfter(refused!)).toBeLessThanOrEqual(5);
    }
  });

  it("#12.3.3 guesses sent all at once from many clients do not slip in before the first failure is counted", async () => {
    const { email } = await signUp(new TestClient(server.base));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        new TestClient(server.base).post("/sign-in/email", { email, password: `burst ${i}` }, from(freshIp())),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  it("#12.3.3 the wait doubles up to its cap, never locks the owner out for good, and a right password forgets it", async () => {
    const { email } = await signUp(new TestClient(quick.base));
    const attempt = (password: string) =>
      new TestClient(quick.base).post("/sign-in/email", { email, password }, from(freshIp()));
    for (let i = 0; i < 5; i++) expect((await attempt(`guess ${i}`)).status).toBe(401);
    const first = await attempt("guess 5");
    expect(first.status).toBe(429);
    expect(retryAfter(first)).toBe(1);
    // The owner is refused while it runs, right password or not: the wait is the account's.
    expect((await attempt(PASSWORD)).status).toBe(429);
    await sleep(1_100);
    expect((await attempt("guess 6")).status).toBe(401);
    const second = await attempt("guess 7");
    expect(second.status).toBe(429);
    expect(retryAfter(second)).toBe(2);
    await sleep(2_100);
    expect((await attempt("guess 8")).status).toBe(401);
    // Capped at maxDelay (2 s here), not 4.
    expect(retryAfter(await attempt("guess 9"))).toBe(2);
    await sleep(2_100);
    // Once the wait is over, the owner signs in, and the failures are forgotten.
    expect((await attempt(PASSWORD)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await attempt(`again ${i}`)).status).toBe(401);
  });

  it("#12.3.3 the account limits follow rateLimit.enabled", async () => {
    const { email } = await signUp(new TestClient(unlimited.base));
    for (let i = 0; i < 8; i++) {
      const res = await new TestClient(unlimited.base).post("/sign-in/email", { email, password: `guess ${i}` }, from(freshIp()));
      expect(res.status).toBe(401);
    }
    for (let i = 0; i < 7; i++) {
      expect((await new TestClient(unlimited.base).post("/forget-password", { email }, from(freshIp()))).status).toBe(200);
    }
  });
});

describe.each(DIALECTS)("#12.3.3: two instances sharing Redis share the account limits, on %s", (dialect) => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const options = {
      redis: { url: REDIS_URL, keyPrefix: `limits-${randomBytes(6).toString("hex")}:` },
      rateLimit: { enabled: true },
      ...BEHIND_PROXY,
    };
    a = await startTestServer(dialect, options, { database });
    b = await startTestServer(dialect, options, { database });
    // Each instance answers 503 until its Redis connection is up (no offline queue): wait for both.
    for (const server of [a, b]) {
      for (let i = 0; i < 100 && (await new TestClient(server.base).get("/ok", from(freshIp()))).status !== 200; i++) await sleep(20);
    }
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it("#12.3.3 wrong passwords on one instance make the other wait", async () => {
    const { email } = await signUp(new TestClient(a.base));
    const statuses: number[] = [];
    for (const server of [a, b, a, b, a, b, a]) {
      statuses.push((await new TestClient(server.base).post("/sign-in/email", { email, password: "guess" }, from(freshIp()))).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it("#12.3.3 mail asked for on either instance counts against one allowance per address", async () => {
    const { email } = await signUp(new TestClient(a.base));
    const statuses: number[] = [];
    for (const server of [a, b, a, b, a, b]) {
      statuses.push((await new TestClient(server.base).post("/forget-password", { email }, from(freshIp()))).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

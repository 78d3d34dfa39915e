import { request as httpRequest } from "node:http";
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatehouse, serveGatehouse, type Gatehouse, type RunningServer } from "../src/index.js";
import type { OutboxEntry } from "../src/email/mailer.js";
import { isLocalRequest, isLoopbackAddress } from "../src/http/client-ip.js";
import { createLogger } from "../src/logger.js";
import { startupNotes } from "../src/node-server.js";
import { createTestDatabase, DIALECTS, type TestDatabase } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { organizationFixtures } from "./helpers/organization.js";
import { startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";

/**
 * Issue #12 part 3, items 15 to 17: attacks on where the service sends people (callback URLs with other schemes,
 * links built on the Host header) and on who can read the development outbox, run over real HTTP on both databases.
 */

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/**
 * One request over node:http, so that the Host header (which fetch does not let a caller set) is the attacker's,
 * and, with `localAddress`, from a socket address of our choosing.
 */
function raw(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: unknown; localAddress?: string } = {},
): Promise<RawAnswer> {
  const target = new URL(url);
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: opts.method ?? (body ? "POST" : "GET"),
        localAddress: opts.localAddress,
        headers: { ...(body ? { "content-type": "application/json" } : {}), ...opts.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Waits for the development outbox to hold a message to `to` of `kind`. */
async function outboxMail(gatehouse: Gatehouse, to: string, kind: string): Promise<OutboxEntry> {
  for (let i = 0; i < 100; i++) {
    const found = gatehouse.runtime.mailer.outbox?.find((m) => m.to === to && m.kind === kind);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no ${kind} mail to ${to}`);
}

const linksOf = (mail: OutboxEntry) => mail.text.match(/https?:\/\/\S+/g) ?? [];

describe.each(DIALECTS)("#12.3.15: callback URLs of other schemes on %s", (dialect) => {
  let server: TestServer;
  let withScheme: TestServer;
  beforeAll(async () => {
    [server, withScheme] = await Promise.all([
      startTestServer(dialect, { trustedOrigins: ["*.app2.test"] }),
      startTestServer(dialect, { trustedOrigins: ["*.app2.test", "myapp://*.app2.test", "javascript://x.app2.test"] }),
    ]);
  });
  afterAll(async () => {
    await Promise.allSettled([server?.close(), withScheme?.close()]);
  });

  const hostile = [
    "javascript://x.app2.test/%0aalert(document.domain)",
    "JavaScript://x.app2.test/%0aalert(document.domain)",
    "data://x.app2.test/text/html,<script>alert(1)</script>",
    "file://x.app2.test/etc/passwd",
    "myapp://cb.app2.test/done",
  ];

  it("#12.3.15 a host-only wildcard trusts http and https only: javascript:, data: and file: callbacks are refused", async () => {
    const c = new TestClient(server.base);
    const { email } = await signUp(c);
    for (const callbackURL of hostile) {
      const res = await new TestClient(server.base).post("/sign-in/email", { email, password: PASSWORD, callbackURL });
      expect(res.status, callbackURL).toBe(403);
      expect(res.body).toMatchObject({ code: "INVALID_CALLBACKURL" });
      expect(res.text).not.toContain("alert");
    }
    for (const callbackURL of ["https://x.app2.test/done", "http://deep.x.app2.test/done"]) {
      const res = await new TestClient(server.base).post("/sign-in/email", { email, password: PASSWORD, callbackURL });
      expect(res.status, callbackURL).toBe(200);
      expect(res.body.url).toBe(callbackURL);
    }
  });

  it("#12.3.15 the origin check does not trust a javascript: origin under a host-only wildcard either", async () => {
    const c = new TestClient(server.base);
    await signUp(c);
    const res = await c.post("/update-user", { name: "Mallory" }, { headers: { origin: "javascript://x.app2.test" } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "INVALID_ORIGIN" });
  });

  it("#12.3.15 another scheme is trusted only when configured by name, and never javascript:", async () => {
    const { email } = await signUp(new TestClient(withScheme.base));
    const ok = await new TestClient(withScheme.base).post("/sign-in/email", {
      email,
      password: PASSWORD,
      callbackURL: "myapp://cb.app2.test/done",
    });
    expect(ok.status).toBe(200);
    expect(ok.body.url).toBe("myapp://cb.app2.test/done");
    for (const callbackURL of ["javascript://x.app2.test/%0aalert(1)", "data://x.app2.test/x", "file://x.app2.test/x"]) {
      const res = await new TestClient(withScheme.base).post("/sign-in/email", { email, password: PASSWORD, callbackURL });
      expect(res.status, callbackURL).toBe(403);
    }
  });
});

describe.each(DIALECTS)("#12.3.16: links and the origin check never follow the Host header on %s", (dialect) => {
  let server: TestServer;
  const fixtures = organizationFixtures(() => server);
  beforeAll(async () => {
    server = await startTestServer(dialect, {
      user: { deleteUser: { enabled: true, sendDeleteAccountVerification: true } },
      socialProviders: { github: { clientId: "github-client", clientSecret: "github-secret" } },
    });
  });
  afterAll(async () => server?.close());

  const evil = { host: "evil.test" };

  it("#12.3.16 a reset link asked for with Host: evil.test points at the service", async () => {
    const { email } = await signUp(new TestClient(server.base));
    const res = await raw(`${server.base}/forget-password`, { headers: evil, body: { email } });
    expect(res.status).toBe(200);
    const [link] = linksOf(await outboxMail(server.gatehouse, email, "resetPassword"));
    expect(link).toMatch(new RegExp(`^${server.base}/reset-password/`));
  });

  it("#12.3.16 verification, deletion and invitation links point at the service whatever the Host", async () => {
    const verifying = new TestClient(server.base);
    const { email } = await signUp(verifying);
    // The sign-up's own verification mail goes first; the one asked for with a forged Host is the newer one.
    await outboxMail(server.gatehouse, email, "verification");
    server.gatehouse.runtime.mailer.outbox!.length = 0;
    const asked = await raw(`${server.base}/send-verification-email`, { headers: evil, body: { email } });
    expect(asked.status).toBe(200);
    expect(linksOf(await outboxMail(server.gatehouse, email, "verification"))[0]).toMatch(
      new RegExp(`^${server.base}/verify-email\\?`),
    );

    const deleting = await raw(`${server.base}/delete-user`, {
      headers: { ...evil, origin: server.url, cookie: verifying.cookieHeader() },
      body: {},
    });
    expect(deleting.status).toBe(200);
    expect(linksOf(await outboxMail(server.gatehouse, email, "deleteAccount"))[0]).toMatch(
      new RegExp(`^${server.base}/delete-user/callback\\?`),
    );

    const owner = await fixtures.person();
    const organization = await fixtures.organization(owner);
    const invitee = uniqueEmail("invitee");
    const invited = await raw(`${server.base}/organization/invite-member`, {
      headers: { ...evil, origin: server.url, cookie: owner.client.cookieHeader() },
      body: { email: invitee, role: "member", organizationId: organization.id },
    });
    expect(invited.status).toBe(200);
    expect(linksOf(await outboxMail(server.gatehouse, invitee, "invitation"))[0]).toBe(
      `${server.url}/invitation/${invited.json.id}`,
    );
  });

  it("#12.3.16 the origin check does not trust the origin a forged Host names", async () => {
    const c = new TestClient(server.base);
    await signUp(c);
    const res = await raw(`${server.base}/update-user`, {
      headers: { host: "evil.test", origin: "http://evil.test", cookie: c.cookieHeader() },
      body: { name: "Mallory" },
    });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ code: "INVALID_ORIGIN" });
    // The service's own origin, and this machine's other names for it, still pass.
    const port = new URL(server.url).port;
    for (const origin of [server.url, `http://localhost:${port}`, `http://[::1]:${port}`]) {
      const ok = await raw(`${server.base}/update-user`, { headers: { origin, cookie: c.cookieHeader() }, body: { name: "Ada" } });
      expect(ok.status, origin).toBe(200);
    }
  });

  it("#12.3.16 social sign-in's redirect_uri is the service's, not the Host's", async () => {
    const res = await raw(`${server.base}/sign-in/social`, {
      headers: evil,
      body: { provider: "github", disableRedirect: true },
    });
    expect(res.status).toBe(200);
    const authorization = new URL(res.json.url as string);
    expect(authorization.searchParams.get("redirect_uri")).toBe(`${server.base}/callback/github`);
  });
});

describe("#12.3.16 the base when BASE_URL is unset", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(async () => database?.drop());

  const open = (options: Record<string, unknown> = {}) =>
    createGatehouse(
      { secret: TEST_SECRET, database: { url: database.url }, logger: { level: "silent" }, ...options },
      { nodeEnv: "test", logger: createLogger("silent") },
    );

  it("#12.3.16 a service listening on every interface builds links on http://localhost:PORT and warns at start", async () => {
    const gatehouse = open();
    await gatehouse.migrate();
    const running = await serveGatehouse(gatehouse, { port: 0, hostname: "0.0.0.0" });
    try {
      const base = `http://localhost:${running.port}`;
      expect(gatehouse.runtime.base.url()).toBe(base);
      const c = new TestClient(`http://127.0.0.1:${running.port}/api/auth`);
      const { email } = await signUp(c);
      await raw(`http://127.0.0.1:${running.port}/api/auth/forget-password`, { headers: { host: "evil.test" }, body: { email } });
      expect(linksOf(await outboxMail(gatehouse, email, "resetPassword"))[0]).toMatch(
        new RegExp(`^${base}/api/auth/reset-password/`),
      );
      const notes = startupNotes(gatehouse);
      expect(notes).toContainEqual(
        expect.objectContaining({ level: "warn", message: expect.stringContaining(`BASE_URL is not set`) }),
      );
      expect(notes.find((n) => n.level === "warn")!.message).toContain(base);
      expect(notes).toContainEqual(
        expect.objectContaining({
          level: "info",
          message: "mail is kept in the development outbox at /dev/outbox, readable from this machine only",
        }),
      );
    } finally {
      await running.close();
      await gatehouse.close();
    }
  });

  it("#12.3.16 with BASE_URL set, the start log names where mail goes and does not warn", async () => {
    const gatehouse = open({ baseURL: "https://auth.example.com", email: { smtpUrl: "smtp://mail.example.com:2525" } });
    try {
      expect(startupNotes(gatehouse)).toEqual([
        expect.objectContaining({ level: "info", message: "mail is sent through the SMTP server at mail.example.com:2525" }),
      ]);
    } finally {
      await gatehouse.close();
    }
  });

  it("#12.3.16 mounted as a library with no base, nothing is mailed to a guessed host and the request's own origin is not trusted", async () => {
    const gatehouse = open({ trustedOrigins: ["http://app.test"] });
    await gatehouse.migrate();
    try {
      const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        gatehouse.handler(
          new Request(`http://lib.test/api/auth${path}`, {
            method: "POST",
            headers: { "content-type": "application/json", ...headers },
            body: JSON.stringify(body),
          }),
        );
      const email = uniqueEmail();
      const signedUp = await post("/sign-up/email", { name: "Lib", email, password: PASSWORD }, { origin: "http://app.test" });
      expect(signedUp.status).toBe(200);
      const cookie = signedUp.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
      expect((await post("/forget-password", { email })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 200));
      expect(gatehouse.runtime.mailer.outbox!.filter((m) => m.to === email)).toEqual([]);
      // The origin the request's own URL (its Host) names is not trusted; a configured one is.
      expect((await post("/update-user", { name: "X" }, { origin: "http://lib.test", cookie })).status).toBe(403);
      expect((await post("/update-user", { name: "X" }, { origin: "http://app.test", cookie })).status).toBe(200);
    } finally {
      await gatehouse.close();
    }
  });
});

/** A non-loopback IPv4 address of this machine, to connect from, when it has one. */
const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

describe("#12.3.17: the development outbox answers this machine only", () => {
  let database: TestDatabase;
  let gatehouse: Gatehouse;
  let running: RunningServer;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    gatehouse = createGatehouse(
      {
        secret: TEST_SECRET,
        database: { url: database.url },
        logger: { level: "silent" },
        // Behind a proxy that sets X-Forwarded-For: the header is trusted for rate limits, never for the outbox.
        advanced: { ipAddress: { ipAddressHeaders: ["x-forwarded-for"] } },
      },
      { nodeEnv: "test", logger: createLogger("silent") },
    );
    await gatehouse.migrate();
    // As `npm start` does: every interface, NODE_ENV unset or test, no SMTP server.
    running = await serveGatehouse(gatehouse, { port: 0, hostname: "0.0.0.0" });
    await gatehouse.runtime.mailer.send({ to: "a@example.com", subject: "Reset", text: "http://x/reset/secret", html: "", kind: "resetPassword" });
  });
  afterAll(async () => {
    await running?.close();
    await gatehouse?.close();
    await database?.drop();
  });

  const outbox = (host: string, opts: { headers?: Record<string, string>; localAddress?: string } = {}) =>
    raw(`http://${host}:${running.port}/api/auth/dev/outbox`, opts);

  it("#12.3.17 answers a client on this machine", async () => {
    const res = await outbox("127.0.0.1");
    expect(res.status).toBe(200);
    expect(res.json).toEqual([expect.objectContaining({ to: "a@example.com" })]);
    expect((await outbox("localhost")).status).toBe(200);
  });

  it.skipIf(!outsideAddress)("#12.3.17 is 404 to a client on another address, even one whose X-Forwarded-For says 127.0.0.1", async () => {
    const res = await outbox(outsideAddress!, { localAddress: outsideAddress });
    expect(res.status).toBe(404);
    expect(res.text).not.toContain("secret");
    const forged = await outbox(outsideAddress!, { localAddress: outsideAddress, headers: { "x-forwarded-for": "127.0.0.1" } });
    expect(forged.status).toBe(404);
    // The rest of the API still answers there.
    expect((await raw(`http://${outsideAddress}:${running.port}/api/auth/ok`, { localAddress: outsideAddress })).status).toBe(200);
  });

  it("#12.3.17 is 404 to a request a proxy on this machine relayed, and to a Host that is not this machine (DNS rebinding)", async () => {
    const relayed: Record<string, string>[] = [
      { "x-forwarded-for": "203.0.113.5" },
      { "x-forwarded-for": "127.0.0.1" },
      { forwarded: "for=203.0.113.5" },
      { "x-real-ip": "203.0.113.5" },
      { host: "evil.test" },
      { host: `evil.test:${running.port}` },
    ];
    for (const headers of relayed) {
      const res = await outbox("127.0.0.1", { headers });
      expect(res.status, JSON.stringify(headers)).toBe(404);
      expect(res.text).not.toContain("secret");
    }
  });

  it("#12.3.17 decides by the socket's address: loopback is 127.0.0.0/8 and ::1, written plain or IPv4-mapped", () => {
    for (const address of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1", "::FFFF:127.0.0.2"]) {
      expect(isLoopbackAddress(address), address).toBe(true);
    }
    for (const address of ["10.0.0.1", "128.0.0.1", "::ffff:10.0.0.1", "::2", "fe80::1", "", undefined, "localhost"]) {
      expect(isLoopbackAddress(address), String(address)).toBe(false);
    }
    const headers = (values: Record<string, string>) => (name: string) => values[name];
    expect(isLocalRequest("127.0.0.1", headers({ host: "localhost:3000" }), null, [])).toBe(true);
    expect(isLocalRequest("10.1.2.3", headers({ host: "localhost:3000", "x-forwarded-for": "127.0.0.1" }), null, [])).toBe(false);
    expect(isLocalRequest("127.0.0.1", headers({ host: "localhost", "cf-connecting-ip": "1.2.3.4" }), null, ["CF-Connecting-IP"])).toBe(false);
    expect(isLocalRequest("127.0.0.1", headers({ host: "auth.dev.test:3000" }), "http://auth.dev.test:3000", [])).toBe(true);
  });
});

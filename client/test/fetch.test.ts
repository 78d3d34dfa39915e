import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AuthClientError, createAuthClient, withCursor } from "../src/index.js";
import { nodeClient, PASSWORD, signUpFresh, startTestServer, type TestServer } from "./helpers.js";

describe("$fetch against a real server", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite");
  });
  afterAll(async () => server?.close());

  it("returns the answer of a route by path, with the route's method by default", async () => {
    const { client, calls } = nodeClient(server.url);
    const { email } = await signUpFresh(client);
    const data = await client.$fetch("/get-session", { query: { disableCookieCache: true } });
    expect(data?.user.email).toBe(email);
    expect(calls.at(-1)).toMatchObject({ method: "GET" });
    expect(calls.at(-1)!.url.search).toBe("?disableCookieCache=true");
  });

  it("sends a JSON body", async () => {
    const { client } = nodeClient(server.url);
    await signUpFresh(client);
    expect(await client.$fetch("/update-user", { method: "POST", body: { name: "Posted" } })).toEqual({ status: true });
    expect((await client.$fetch("/get-session"))?.user.name).toBe("Posted");
  });

  it("throws the server's error as an AuthClientError", async () => {
    const { email } = await signUpFresh(nodeClient(server.url).client);
    const { client } = nodeClient(server.url);
    const failure = await client.$fetch("/sign-in/email", { body: { email, password: "wrong" } }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AuthClientError);
    const error = failure as AuthClientError;
    expect(error.status).toBe(401);
    expect(error.code).toBe("INVALID_EMAIL_OR_PASSWORD");
    expect(error.message).toBe("Invalid email or password");
    expect(error.toJSON()).toEqual({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
  });

  it("throws on a network failure too, with status 0", async () => {
    const client = createAuthClient({ baseURL: "http://127.0.0.1:1" });
    await expect(client.$fetch("/ok")).rejects.toMatchObject({ status: 0, code: "NETWORK_ERROR" });
  });

  it("returns null for the null answer of a signed-out get-session", async () => {
    expect(await nodeClient(server.url).client.$fetch("/get-session")).toBeNull();
  });

  describe("$list", () => {
    it("sends cursor 0 when no cursor is given", async () => {
      const { client, calls } = nodeClient(server.url);
      await signUpFresh(client);
      const sessions = await client.$list("/list-sessions");
      expect(sessions).toHaveLength(1);
      expect(calls.at(-1)!.url.searchParams.get("cursor")).toBe("0");
    });

    it("sends the given cursor and keeps the other query keys", async () => {
      const { client, calls } = nodeClient(server.url);
      await signUpFresh(client);
      await client.$list("/get-session", { cursor: "abc", query: { disableRefresh: true } });
      const sent = calls.at(-1)!.url.searchParams;
      expect(sent.get("cursor")).toBe("abc");
      expect(sent.get("disableRefresh")).toBe("true");
    });

    it("throws like $fetch", async () => {
      await expect(nodeClient(server.url).client.$list("/list-sessions")).rejects.toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    });

    it("withCursor defaults the cursor to 0 and keeps what was given", () => {
      expect(withCursor(undefined)).toEqual({ cursor: 0 });
      expect(withCursor({ limit: 10 }, 20)).toEqual({ limit: 10, cursor: 20 });
    });
  });

  describe("redirects", () => {
    type FakeWindow = { location: { href: string } };
    const globals = globalThis as { window?: FakeWindow };
    afterEach(() => {
      delete globals.window;
    });

    async function signInWithCallback(options: { clientWide?: boolean; perCall?: boolean } = {}) {
      const { email } = await signUpFresh(nodeClient(server.url).client);
      const { client } = nodeClient(server.url, { disableRedirect: options.clientWide });
      const result = await client.signIn.email(
        { email, password: PASSWORD, callbackURL: "/dashboard" },
        { disableRedirect: options.perCall },
      );
      expect(result.data).toMatchObject({ redirect: true, url: "/dashboard" });
      return result;
    }

    it("navigates the browser to the url of a { url, redirect: true } answer", async () => {
      globals.window = { location: { href: "http://app.test/sign-in" } };
      await signInWithCallback();
      expect(globals.window.location.href).toBe("/dashboard");
    });

    it("does not navigate when the call disables it", async () => {
      globals.window = { location: { href: "http://app.test/sign-in" } };
      await signInWithCallback({ perCall: true });
      expect(globals.window.location.href).toBe("http://app.test/sign-in");
    });

    it("does not navigate when the client disables it", async () => {
      globals.window = { location: { href: "http://app.test/sign-in" } };
      await signInWithCallback({ clientWide: true });
      expect(globals.window.location.href).toBe("http://app.test/sign-in");
    });

    it("does not navigate for an answer without redirect: true", async () => {
      globals.window = { location: { href: "http://app.test/sign-in" } };
      const { client } = nodeClient(server.url);
      await signUpFresh(client);
      expect(globals.window.location.href).toBe("http://app.test/sign-in");
    });

    it("leaves the answer alone outside a browser", async () => {
      const result = await signInWithCallback();
      expect(result.error).toBeNull();
    });
  });
});

/**
 * No Gatehouse route answers 204 or an empty body yet, but servers speaking this API may (API-NOTES.md
 * 1.2: some errors have an empty body). This plain HTTP server gives exactly such answers.
 */
describe("answers without content", () => {
  let bare: Server;
  let url: string;
  beforeAll(async () => {
    bare = createServer((request, response) => {
      if (request.url === "/api/auth/sign-out") response.writeHead(204).end();
      else if (request.url === "/api/auth/ok") response.writeHead(200, { "content-type": "application/json" }).end();
      else if (request.url === "/api/auth/list-sessions") response.writeHead(401).end();
      else response.writeHead(429, { "content-type": "application/json" }).end('{"message":"Too many requests. Please try again later."}');
    });
    await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise((resolve) => bare.close(resolve)));

  it("$fetch returns null on 204", async () => {
    expect(await createAuthClient({ baseURL: url }).$fetch("/sign-out")).toBeNull();
  });

  it("$fetch returns null on an empty 200 body", async () => {
    expect(await createAuthClient({ baseURL: url }).$fetch("/ok")).toBeNull();
  });

  it("an empty error body still gives a code, from the status", async () => {
    const { error } = await createAuthClient({ baseURL: url }).listSessions();
    expect(error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
  });

  it("a message without a code gets the code the server's rule would give it", async () => {
    const { error } = await createAuthClient({ baseURL: url }).getSession();
    expect(error).toEqual({ status: 429, code: "TOO_MANY_REQUESTS_PLEASE_TRY_AGAIN_LATER", message: "Too many requests. Please try again later." });
  });
});

describe("#14: a 429 says how long to wait", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite", { rateLimit: { enabled: true } });
  });
  afterAll(async () => server?.close());

  it("#14: the error carries the seconds of the answer's Retry-After, as AuthError and AuthClientError", async () => {
    const { client } = nodeClient(server.url);
    const attempt = () => client.signIn.email({ email: "nobody@example.com", password: "wrong password" });
    let last = await attempt();
    for (let i = 0; i < 5 && last.error?.status !== 429; i += 1) last = await attempt();
    expect(last.error).toMatchObject({ status: 429, code: "TOO_MANY_REQUESTS_PLEASE_TRY_AGAIN_LATER" });
    expect(last.error!.retryAfter).toBeGreaterThanOrEqual(1);
    expect(last.error!.retryAfter).toBeLessThanOrEqual(10);
    const thrown = await client.$fetch("/sign-in/email", { body: { email: "nobody@example.com", password: "x" } }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(AuthClientError);
    expect((thrown as AuthClientError).retryAfter).toBeGreaterThanOrEqual(1);
    expect((thrown as AuthClientError).toJSON().retryAfter).toBe((thrown as AuthClientError).retryAfter);
  });
});

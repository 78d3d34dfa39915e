import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { createAuthClient, createCookieJar, type SignInEmailBody, type User } from "../src/index.js";
import { nodeClient, PASSWORD, signUpFresh, startTestServer, uniqueEmail, type TestServer } from "./helpers.js";

describe("route methods against a real server", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite");
  });
  afterAll(async () => server?.close());

  describe("signUp.email", () => {
    it("creates the user, returns the token and stores the session cookie", async () => {
      const { client, jar } = nodeClient(server.url);
      const email = uniqueEmail();
      const result = await client.signUp.email({ name: "Ada", email, password: PASSWORD });
      expect(result.error).toBeNull();
      expect(result.data?.user).toMatchObject({ name: "Ada", email, emailVerified: false });
      expect(typeof result.data?.token).toBe("string");
      expect(jar.get("better-auth.session_token")).toBeTruthy();
    });

    it("returns 422 USER_ALREADY_EXISTS for a taken email, without throwing", async () => {
      const { client } = nodeClient(server.url);
      const { email } = await signUpFresh(client);
      const again = await nodeClient(server.url).client.signUp.email({ name: "Other", email, password: PASSWORD });
      expect(again).toEqual({ data: null, error: { status: 422, code: "USER_ALREADY_EXISTS", message: "User already exists" } });
    });
  });

  describe("getSession", () => {
    it("returns null when signed out", async () => {
      const { client } = nodeClient(server.url);
      expect(await client.getSession()).toEqual({ data: null, error: null });
    });

    it("returns the session and user of the signed-in caller, with ISO date strings", async () => {
      const { client } = nodeClient(server.url);
      const { email, token } = await signUpFresh(client);
      const { data } = await client.getSession();
      expect(data?.user.email).toBe(email);
      expect(data?.session.token).toBe(token);
      expect(typeof data?.session.expiresAt).toBe("string");
      expect(Number.isNaN(Date.parse(data!.session.expiresAt))).toBe(false);
    });

    it("sends its query flags as booleans the server reads", async () => {
      const { client, calls } = nodeClient(server.url);
      await signUpFresh(client);
      const { data } = await client.getSession({ disableCookieCache: true, disableRefresh: false });
      expect(data).not.toBeNull();
      const sent = calls.at(-1)!.url;
      expect(sent.pathname).toBe("/api/auth/get-session");
      expect(sent.searchParams.get("disableCookieCache")).toBe("true");
      expect(sent.searchParams.get("disableRefresh")).toBe("false");
    });
  });

  describe("signOut", () => {
    it("ends the session", async () => {
      const { client, jar } = nodeClient(server.url);
      await signUpFresh(client);
      expect(await client.signOut()).toEqual({ data: { success: true }, error: null });
      expect(jar.get("better-auth.session_token")).toBeUndefined();
      expect((await client.getSession()).data).toBeNull();
    });
  });

  describe("signIn.email", () => {
    it("answers 401 INVALID_EMAIL_OR_PASSWORD for a wrong password", async () => {
      const { email } = await signUpFresh(nodeClient(server.url).client);
      const { client } = nodeClient(server.url);
      const result = await client.signIn.email({ email, password: "not the password" });
      expect(result).toEqual({
        data: null,
        error: { status: 401, code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" },
      });
      expect((await client.getSession()).data).toBeNull();
    });

    it("signs in with the right password", async () => {
      const { email } = await signUpFresh(nodeClient(server.url).client);
      const { client } = nodeClient(server.url);
      const result = await client.signIn.email({ email, password: PASSWORD });
      expect(result.error).toBeNull();
      expect(result.data).toMatchObject({ redirect: false, user: { email } });
      expect(result.data).not.toHaveProperty("url");
      expect((await client.getSession()).data?.user.email).toBe(email);
    });
  });

  describe("updateUser", () => {
    it("changes the name and image, seen by the next getSession", async () => {
      const { client } = nodeClient(server.url);
      await signUpFresh(client);
      const result = await client.updateUser({ name: "Grace", image: "https://example.com/g.png" });
      expect(result).toEqual({ data: { status: true }, error: null });
      const { data } = await client.getSession();
      expect(data?.user).toMatchObject({ name: "Grace", image: "https://example.com/g.png" });
    });

    it("passes the server's 400 through when there is nothing to update", async () => {
      const { client } = nodeClient(server.url);
      await signUpFresh(client);
      const { error } = await client.updateUser({});
      expect(error).toEqual({ status: 400, code: "NO_FIELDS_TO_UPDATE", message: "No fields to update" });
    });

    it("answers 401 UNAUTHORIZED without a session", async () => {
      const { error } = await nodeClient(server.url).client.updateUser({ name: "Nobody" });
      expect(error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    });
  });

  describe("sessions", () => {
    async function twoDevices() {
      const first = nodeClient(server.url);
      const { email } = await signUpFresh(first.client);
      const second = nodeClient(server.url);
      const signedIn = await second.client.signIn.email({ email, password: PASSWORD });
      if (signedIn.error) throw new Error(signedIn.error.message);
      // A user with a second factor would get twoFactorRedirect instead of a session: not this one.
      if (!("token" in signedIn.data)) throw new Error("unexpected second step");
      return { first, second, secondToken: signedIn.data.token };
    }

    it("listSessions returns every session of the user", async () => {
      const { first, secondToken } = await twoDevices();
      const { data, error } = await first.client.listSessions();
      expect(error).toBeNull();
      expect(data).toHaveLength(2);
      expect(data!.map((s) => s.token)).toContain(secondToken);
    });

    it("revokeSession ends the named session only", async () => {
      const { first, second, secondToken } = await twoDevices();
      expect(await first.client.revokeSession({ token: secondToken })).toEqual({ data: { status: true }, error: null });
      expect((await second.client.getSession()).data).toBeNull();
      expect((await first.client.getSession()).data).not.toBeNull();
    });

    it("revokeOtherSessions keeps the caller's session", async () => {
      const { first, second } = await twoDevices();
      expect((await first.client.revokeOtherSessions()).data).toEqual({ status: true });
      expect((await second.client.getSession()).data).toBeNull();
      expect((await first.client.listSessions()).data).toHaveLength(1);
    });

    it("revokeSessions ends every session, the caller's too", async () => {
      const { first, second } = await twoDevices();
      expect((await first.client.revokeSessions()).data).toEqual({ status: true });
      expect((await first.client.getSession()).data).toBeNull();
      expect((await second.client.getSession()).data).toBeNull();
    });

    it("listSessions answers 401 without a session", async () => {
      const { error } = await nodeClient(server.url).client.listSessions();
      expect(error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    });
  });

  describe("ok", () => {
    it("returns { ok: true }", async () => {
      expect(await nodeClient(server.url).client.ok()).toEqual({ data: { ok: true }, error: null });
    });
  });

  describe("options", () => {
    it("sends headers computed per call, so a Node app can pass a cookie it keeps itself", async () => {
      const holder = nodeClient(server.url);
      const { email } = await signUpFresh(holder.client);
      const client = createAuthClient({
        baseURL: server.url,
        headers: () => ({ cookie: holder.jar.header(), origin: server.url }),
      });
      expect((await client.getSession()).data?.user.email).toBe(email);
      expect((await client.updateUser({ name: "Through headers" })).error).toBeNull();
    });

    it("lets a call's headers override the client's", async () => {
      const jar = createCookieJar();
      await signUpFresh(nodeClient(server.url, { jar }).client);
      const { client } = nodeClient(server.url, { jar, headers: { origin: "https://evil.example" } });
      const refused = await client.updateUser({ name: "Mallory" });
      expect(refused.error).toMatchObject({ status: 403, code: "INVALID_ORIGIN" });
      const allowed = await client.updateUser({ name: "Alice" }, { headers: { origin: server.url } });
      expect(allowed.error).toBeNull();
    });

    it("reports a network failure as an error with status 0 instead of throwing", async () => {
      const client = createAuthClient({ baseURL: "http://127.0.0.1:1" });
      const result = await client.ok();
      expect(result.data).toBeNull();
      expect(result.error).toMatchObject({ status: 0, code: "NETWORK_ERROR" });
    });

    it("reports an aborted call as an error with status 0 and code ABORTED", async () => {
      const { client } = nodeClient(server.url);
      const result = await client.ok({ signal: AbortSignal.abort() });
      expect(result.error).toMatchObject({ status: 0, code: "ABORTED" });
    });

    it("refuses a relative baseURL and a missing one outside a browser", () => {
      expect(() => createAuthClient({ baseURL: "/api" })).toThrow(/not an absolute URL/);
      expect(() => createAuthClient()).toThrow(/baseURL is required/);
    });

    it("ignores trailing slashes on baseURL", async () => {
      const { client, calls } = nodeClient(`${server.url}/`);
      expect((await client.ok()).data).toEqual({ ok: true });
      expect(calls[0]!.url.pathname).toBe("/api/auth/ok");
    });
  });

  it("types every method from the route table", () => {
    const client = createAuthClient({ baseURL: "http://127.0.0.1:1" });
    expectTypeOf(client.signIn.email).parameter(0).toEqualTypeOf<SignInEmailBody>();
    expectTypeOf(client.updateUser)
      .parameter(0)
      .toEqualTypeOf<{ name?: string; image?: string | null; lang?: string | number; username?: string; displayUsername?: string }>();
    expectTypeOf<Awaited<ReturnType<typeof client.getSession>>["data"]>().toEqualTypeOf<
      { session: import("../src/index.js").Session; user: User } | null
    >();
    const typeOnly = () => {
      // @ts-expect-error revokeSession needs the token of the session to revoke
      void client.revokeSession();
      // @ts-expect-error signIn.email takes no unknown fields
      void client.signIn.email({ email: "a@b.c", password: "x", nickname: "y" });
      // @ts-expect-error GET /ok takes no body
      void client.$fetch("/ok", { body: {} });
    };
    expect(typeof typeOnly).toBe("function");
    type RevokeArgs = Parameters<typeof client.revokeSession>;
    expectTypeOf<RevokeArgs[0]>().toEqualTypeOf<{ token: string }>();
    // Methods without input take only call options.
    expectTypeOf(client.signOut).parameters.toEqualTypeOf<[options?: import("../src/index.js").CallOptions]>();
    // The cookie jar is not tied to a client.
    expect(typeof createCookieJar().fetch).toBe("function");
  });
});

describe("a server on another base path", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite", { basePath: "/auth" });
  });
  afterAll(async () => server?.close());

  it("is reached through the basePath option", async () => {
    const { client, calls } = nodeClient(server.url, { basePath: "/auth" });
    expect((await client.ok()).data).toEqual({ ok: true });
    expect(calls[0]!.url.pathname).toBe("/auth/ok");
    const { error } = await nodeClient(server.url).client.ok();
    expect(error).toMatchObject({ status: 404, code: "NOT_FOUND" });
  });
});

describe("account and social routes", () => {
  let server: TestServer;
  beforeAll(async () => {
    // A provider whose endpoints are never reached: sign-in/social only builds its authorization URL.
    const endpoints = {
      authorization: "http://127.0.0.1:9/authorize",
      token: "http://127.0.0.1:9/token",
      userInfo: "http://127.0.0.1:9/user",
    };
    server = await startTestServer("sqlite", {
      socialProviders: { github: { clientId: "client-routes-test", clientSecret: "secret", endpoints } },
    });
  });
  afterAll(async () => server?.close());

  it("lists the providers with their names in features()", async () => {
    const { data } = await nodeClient(server.url).client.features();
    expect(data?.socialProviders).toEqual(["github"]);
    expect(data?.providers).toEqual([{ id: "github", name: "GitHub" }]);
  });

  it("signIn.social answers the provider's authorization URL without navigating", async () => {
    const { client } = nodeClient(server.url);
    const { data, error } = await client.signIn.social({ provider: "github", callbackURL: "/", disableRedirect: true });
    expect(error).toBeNull();
    expect(data).toMatchObject({ redirect: false });
    const url = new URL((data as { url: string }).url);
    expect(url.origin + url.pathname).toBe("http://127.0.0.1:9/authorize");
    expect(url.searchParams.get("client_id")).toBe("client-routes-test");
  });

  it("signIn.social refuses an unknown provider with its code", async () => {
    const { error } = await nodeClient(server.url).client.signIn.social({ provider: "nowhere" });
    expect(error).toMatchObject({ status: 404, code: "PROVIDER_NOT_FOUND" });
  });

  it("listAccounts shows the password account, which unlinkAccount will not remove as the last one", async () => {
    const { client } = nodeClient(server.url);
    const { user } = await signUpFresh(client);
    const { data: accounts } = await client.listAccounts();
    expect(accounts).toHaveLength(1);
    expect(accounts![0]).toMatchObject({ providerId: "credential", provider: "credential", userId: user.id });
    expect(accounts![0]).not.toHaveProperty("password");
    const { error } = await client.unlinkAccount({ accountId: accounts![0]!.id });
    expect(error).toMatchObject({ status: 400, code: "YOU_CANT_UNLINK_YOUR_LAST_ACCOUNT" });
    const missing = await client.unlinkAccount({ providerId: "github" });
    expect(missing.error).toMatchObject({ status: 400, code: "ACCOUNT_NOT_FOUND" });
  });
});

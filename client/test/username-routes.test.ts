import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeClient, PASSWORD, startTestServer, uniqueEmail, type TestServer } from "./helpers.js";

describe("username route methods against a real server", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite");
  });
  afterAll(async () => server?.close());

  const uniqueUsername = () => `u_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

  it("signs up with a username, reports it taken in any case, and signs in with it", async () => {
    const username = uniqueUsername();
    const typed = username.toUpperCase().replace("U_", "u_");
    const { client: checker } = nodeClient(server.url);
    expect(await checker.isUsernameAvailable({ username })).toEqual({ data: { available: true }, error: null });

    const { client } = nodeClient(server.url);
    const created = await client.signUp.email({ name: "Una", email: uniqueEmail(), password: PASSWORD, username: typed });
    expect(created.error).toBeNull();
    expect(created.data?.user).toMatchObject({ username, displayUsername: typed });

    expect(await checker.isUsernameAvailable({ username: typed })).toEqual({ data: { available: false }, error: null });

    const { client: other } = nodeClient(server.url);
    const signedIn = await other.signIn.username({ username: typed, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data && "user" in signedIn.data ? signedIn.data.user.username : null).toBe(username);
    expect((await other.getSession()).data?.user.username).toBe(username);
  });

  it("answers the username rules and a wrong password with their codes", async () => {
    const { client } = nodeClient(server.url);
    expect((await client.isUsernameAvailable({ username: "ab" })).error).toMatchObject({ status: 422, code: "USERNAME_IS_TOO_SHORT" });
    expect((await client.isUsernameAvailable({ username: "no spaces" })).error).toMatchObject({ status: 422, code: "USERNAME_IS_INVALID" });
    expect((await client.signIn.username({ username: "nobody_here", password: PASSWORD })).error).toMatchObject({
      status: 401,
      code: "INVALID_USERNAME_OR_PASSWORD",
    });
  });

  it("changes the username through updateUser", async () => {
    const { client } = nodeClient(server.url);
    await client.signUp.email({ name: "Vic", email: uniqueEmail(), password: PASSWORD });
    const username = uniqueUsername();
    expect(await client.updateUser({ username })).toEqual({ data: { status: true }, error: null });
    expect((await client.getSession({ disableCookieCache: true })).data?.user).toMatchObject({ username, displayUsername: username });
  });
});

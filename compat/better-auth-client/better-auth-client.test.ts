import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../server/test/helpers/server.js";
import { DIALECTS } from "../../server/test/helpers/databases.js";
import { betterAuthClient, browser } from "./harness.js";

const PASSWORD = "correct horse battery";
let n = 0;
const email = (p: string) => `${p}-${Date.now().toString(36)}-${++n}@example.com`;

describe.each(DIALECTS)("Better Auth 1.7's client against Gatehouse (%s)", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server?.close());

  it("signs up, reads the session, signs out and in again (core routes)", async () => {
    const b = browser(server.url);
    const client = betterAuthClient(server.base, b, []);
    const address = email("core");
    const up = await client.signUp.email({ email: address, password: PASSWORD, name: "Core" });
    expect(up.error).toBeNull();
    expect(up.data?.user.email).toBe(address);
    const session = await client.getSession();
    expect(session.data?.user.email).toBe(address);
    expect((await client.signOut()).error).toBeNull();
    expect((await client.getSession()).data).toBeNull();
    const wrong = await client.signIn.email({ email: address, password: "not the password" });
    expect(wrong.error?.status).toBe(401);
    const inAgain = await client.signIn.email({ email: address, password: PASSWORD });
    expect(inAgain.data?.user.email).toBe(address);
  });
});

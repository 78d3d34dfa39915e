import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin } from "../src/admin/create-admin.js";
import { loadCreateAdminInput } from "../src/config/env.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

describe("gatehouse create-admin arguments", () => {
  it("reads --flag value and --flag=value, and falls back to the environment for what is missing", () => {
    expect(loadCreateAdminInput(["--email", "a@example.com", "--password=p w=d", "--name", "Ada"], {})).toEqual({
      email: "a@example.com",
      password: "p w=d",
      name: "Ada",
    });
    const env = { GATEHOUSE_ADMIN_EMAIL: "env@example.com", GATEHOUSE_ADMIN_PASSWORD: "from env", GATEHOUSE_ADMIN_NAME: "Env" };
    expect(loadCreateAdminInput(["--name=Flag"], env)).toEqual({ email: "env@example.com", password: "from env", name: "Flag" });
  });

  it("refuses unknown arguments, a flag without a value and a missing email, naming them", () => {
    expect(() => loadCreateAdminInput(["--emial", "a@example.com"], {})).toThrow(/unknown argument "--emial"/);
    expect(() => loadCreateAdminInput(["--email"], {})).toThrow(/--email needs a value/);
    expect(() => loadCreateAdminInput(["--password", "x"], {})).toThrow(/GATEHOUSE_ADMIN_EMAIL/);
  });
});

describe.each(DIALECTS)("gatehouse create-admin on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => server?.close());
  const runtime = () => server.gatehouse.runtime;

  it("creates a verified administrator who can sign in and use the admin routes; a second run changes nothing", async () => {
    const email = uniqueEmail("Root");
    const first = await createAdmin(runtime(), { email, password: PASSWORD, name: "Root" });
    expect(first.action).toBe("created");
    expect(first.user).toMatchObject({ email: email.toLowerCase(), name: "Root", role: "admin", emailVerified: true });
    const c = new TestClient(server.base);
    expect((await c.post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    expect((await c.get("/admin/list-users?limit=1")).status).toBe(200);
    const again = await createAdmin(runtime(), { email, password: "ignored password" });
    expect(again.action).toBe("unchanged");
  });

  it("promotes an existing user and leaves their password as it is", async () => {
    const { email, user } = await signUp(new TestClient(server.base));
    const result = await createAdmin(runtime(), { email: email.toUpperCase(), password: "another password" });
    expect(result).toMatchObject({ action: "promoted", user: { id: user.id, role: "admin" } });
    const c = new TestClient(server.base);
    expect((await c.post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    expect((await c.get("/admin/list-users?limit=1")).status).toBe(200);
  });

  it("refuses a bad email, a missing password for a new user and a short one", async () => {
    await expect(createAdmin(runtime(), { email: "nope", password: PASSWORD })).rejects.toThrow(/not a valid email/);
    await expect(createAdmin(runtime(), { email: uniqueEmail() })).rejects.toThrow(/password is needed/);
    await expect(createAdmin(runtime(), { email: uniqueEmail(), password: "short" })).rejects.toThrow(/Password too short/);
  });
});

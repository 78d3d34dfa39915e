import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setCredentialPassword } from "../src/credentials/credential-account.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/**
 * #14: who is an administrator is the service's answer (admin.adminRoles and adminUserIds), never the role name
 * "admin": list-users and get-user say it per user, list-users filters by it, list-roles names the roles set-role
 * accepts, and has-permission tells a console whether it is open to the caller.
 */
describe.each(DIALECTS)("administrators by configuration on %s", (dialect) => {
  let server: TestServer;
  const tag = `roles${dialect}${Date.now().toString(36)}`;
  const rootId = `root-${tag}`;
  let root: TestClient;
  let superuser: { client: TestClient; id: string };
  let namedAdmin: { client: TestClient; id: string };
  let plain: { client: TestClient; id: string };

  const stores = () => server.gatehouse.runtime.stores;
  async function person(name: string, role: string) {
    const client = new TestClient(server.base);
    const { user } = await signUp(client, { name: `${tag} ${name}` });
    await stores().users.updateUser(user.id, { role, updatedAt: new Date() });
    return { client, id: user.id };
  }

  beforeAll(async () => {
    server = await startTestServer(dialect, { admin: { adminRoles: ["superuser"], adminUserIds: [rootId] } });
    const now = new Date();
    const email = uniqueEmail("root");
    await stores().users.createUser({
      id: rootId,
      name: `${tag} Root`,
      email,
      emailVerified: true,
      image: null,
      createdAt: now,
      updatedAt: now,
      role: "user",
    });
    await setCredentialPassword(stores(), rootId, await server.gatehouse.runtime.hasher.hash(PASSWORD), now);
    root = new TestClient(server.base);
    expect((await root.post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    superuser = await person("Super", "user,superuser");
    namedAdmin = await person("Named", "admin");
    plain = await person("Plain", "user");
  });
  afterAll(async () => server?.close());

  it("has-permission opens the console to adminRoles and adminUserIds, not to a role merely called admin", async () => {
    const asks = (c: TestClient) => c.post("/admin/has-permission", { permissions: { user: ["list"] } });
    expect((await asks(root)).body).toEqual({ error: null, success: true });
    expect((await asks(superuser.client)).body).toEqual({ error: null, success: true });
    expect((await asks(namedAdmin.client)).body).toEqual({ error: null, success: false });
    expect((await asks(plain.client)).body).toEqual({ error: null, success: false });
  });

  it("get-user and list-users say who is an administrator", async () => {
    const expected = { [rootId]: true, [superuser.id]: true, [namedAdmin.id]: false, [plain.id]: false };
    for (const [id, administrator] of Object.entries(expected)) {
      const res = await root.get(`/admin/get-user?id=${encodeURIComponent(id)}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, administrator });
    }
    const listed = await superuser.client.get(`/admin/list-users?searchField=name&searchValue=${tag}&limit=10`);
    expect(listed.status).toBe(200);
    const rows = listed.body.users as { id: string; administrator: boolean }[];
    expect(Object.fromEntries(rows.map((row) => [row.id, row.administrator]))).toEqual(expected);
  });

  it("list-users filters by administrator, combined with a search", async () => {
    const ids = async (value: string) => {
      const res = await root.get(`/admin/list-users?searchField=name&searchValue=${tag}&administrator=${value}&sortBy=name`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(res.body.users.length);
      return (res.body.users as { id: string }[]).map((user) => user.id).sort();
    };
    expect(await ids("true")).toEqual([rootId, superuser.id].sort());
    expect(await ids("false")).toEqual([namedAdmin.id, plain.id].sort());
    expect((await root.get("/admin/list-users?administrator=yes")).status).toBe(400);
    // In-process callers may pass a boolean.
    const inProcess = await server.gatehouse.api.listUsers({
      query: { searchField: "name", searchValue: tag, administrator: true },
      headers: new Headers({ cookie: root.cookieHeader() }),
    });
    expect(inProcess.users.map((user: { id: string }) => user.id).sort()).toEqual([rootId, superuser.id].sort());
  });

  it("list-roles names the roles set-role accepts, and which are administrators'", async () => {
    const res = await superuser.client.get("/admin/list-roles");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      roles: [
        { name: "user", administrator: false },
        { name: "superuser", administrator: true },
      ],
      defaultRole: "user",
    });
    // "admin" is no role here: set-role refuses it, as the list says.
    const refused = await root.post("/admin/set-role", { userId: plain.id, role: "admin" });
    expect(refused.status).toBe(400);
    expect((await namedAdmin.client.get("/admin/list-roles")).status).toBe(403);
    expect((await new TestClient(server.base).get("/admin/list-roles")).status).toBe(401);
  });
});

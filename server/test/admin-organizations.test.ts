import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpAdmin } from "./helpers/admin.js";
import { DIALECTS } from "./helpers/databases.js";
import { signUp, TestClient } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

describe.each(DIALECTS)("organizations overview for administrators on %s", (dialect) => {
  let server: TestServer;
  let admin: TestClient;
  const created: { id: string; name: string; slug: string; ownerId: string }[] = [];
  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = new TestClient(server.base);
    await signUpAdmin(server, admin);
    // Organizations made by their own members, through the member-scoped route; the administrator is in none.
    for (const [name, slug] of [
      ["Acme Tools", "acme-tools"],
      ["Globex", "globex"],
      ["Initech 100%", "initech"],
    ] as const) {
      const owner = new TestClient(server.base);
      const { user } = await signUp(owner);
      const res = await owner.post("/organization/create", { name, slug });
      expect(res.status, res.text).toBe(200);
      created.push({ id: res.body.id, name, slug, ownerId: user.id });
    }
    const joiner = await signUp(new TestClient(server.base));
    await server.gatehouse.runtime.stores.members.createMember({
      id: "extra-member-of-acme",
      organizationId: created[0]!.id,
      userId: joiner.user.id,
      role: "member",
      createdAt: new Date(),
    });
  });
  afterAll(async () => server?.close());

  describe("GET /admin/list-organizations", () => {
    it("lists every organization with its member count, though the administrator belongs to none", async () => {
      expect((await admin.get("/organization/list")).body).toEqual([]);
      const res = await admin.get("/admin/list-organizations");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: 3, limit: 100, offset: 0 });
      expect(res.body.organizations.map((o: { slug: string }) => o.slug)).toEqual(["acme-tools", "globex", "initech"]);
      expect(res.body.organizations[0]).toMatchObject({ id: created[0]!.id, name: "Acme Tools", memberCount: 2 });
      expect(res.body.organizations[1].memberCount).toBe(1);
    });

    it("searches name and slug, sorts and pages", async () => {
      const bySearch = await admin.get("/admin/list-organizations?searchValue=GLOB");
      expect(bySearch.body.organizations.map((o: { name: string }) => o.name)).toEqual(["Globex"]);
      const literal = await admin.get("/admin/list-organizations?searchValue=100%25");
      expect(literal.body.total).toBe(1);
      const sorted = await admin.get("/admin/list-organizations?sortBy=name&sortDirection=desc&limit=2&offset=1");
      expect(sorted.body.total).toBe(3);
      expect(sorted.body.organizations.map((o: { name: string }) => o.name)).toEqual(["Globex", "Acme Tools"]);
      expect((await admin.get("/admin/list-organizations?sortBy=metadata")).status).toBe(400);
    });
  });

  describe("GET /admin/get-organization", () => {
    it("answers the organization with its members and their users", async () => {
      const acme = created[0]!;
      const res = await admin.get(`/admin/get-organization?id=${acme.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: acme.id, name: acme.name, slug: acme.slug, memberCount: 2 });
      expect(res.body.members).toHaveLength(2);
      expect(res.body.members[0]).toMatchObject({ userId: acme.ownerId, role: "owner", user: { id: acme.ownerId } });
    });

    it("answers 404 Organization not found for an unknown id", async () => {
      const res = await admin.get("/admin/get-organization?id=nothing");
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "ORGANIZATION_NOT_FOUND", message: "Organization not found" });
    });
  });

  it("refuses users without the admin role, even an organization's owner, and callers without a session", async () => {
    const owner = new TestClient(server.base);
    await signUp(owner);
    await owner.post("/organization/create", { name: "Own", slug: "own-org" });
    const list = await owner.get("/admin/list-organizations");
    expect(list.status).toBe(403);
    expect(list.body).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_LIST_ORGANIZATIONS", message: "You are not allowed to list organizations" });
    const get = await owner.get(`/admin/get-organization?id=${created[0]!.id}`);
    expect(get.status).toBe(403);
    expect(get.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_GET_ORGANIZATION");
    expect((await new TestClient(server.base).get("/admin/list-organizations")).status).toBe(401);
  });
});

import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type {
  AdminListOrganizationsData,
  AdminListUsersData,
  AdminOrganizationDetail,
  AdminUserDetail,
  User,
} from "../src/index.js";
import { nodeClient, PASSWORD, signUpFresh, startTestServer, uniqueEmail, type TestServer } from "./helpers.js";

describe("admin route methods against a real server", () => {
  let server: TestServer;
  /** A client holding an administrator's session. */
  let admin: ReturnType<typeof nodeClient>;

  beforeAll(async () => {
    server = await startTestServer("sqlite");
    admin = nodeClient(server.url);
    const { user } = await signUpFresh(admin.client, "Root Admin");
    // The way `gatehouse create-admin` does it: no route hands out the first administrator role.
    await server.gatehouse.runtime.stores.users.updateUser(user.id, { role: "admin", updatedAt: new Date() });
  });
  afterAll(async () => server?.close());

  it("derives the method names from the paths", () => {
    const { client } = admin;
    for (const method of [
      client.admin.listUsers,
      client.admin.getUser,
      client.admin.createUser,
      client.admin.updateUser,
      client.admin.setRole,
      client.admin.banUser,
      client.admin.unbanUser,
      client.admin.impersonateUser,
      client.admin.stopImpersonating,
      client.admin.removeUser,
      client.admin.setUserPassword,
      client.admin.listUserSessions,
      client.admin.revokeUserSession,
      client.admin.revokeUserSessions,
      client.admin.hasPermission,
      client.admin.listOrganizations,
      client.admin.getOrganization,
    ]) {
      expect(typeof method).toBe("function");
    }
  });

  it("creates a user, finds them by search and reads them by id", async () => {
    const email = uniqueEmail("admin-find");
    const created = await admin.client.admin.createUser({ email, name: "Findable Person", password: PASSWORD });
    expect(created.error).toBeNull();
    expectTypeOf(created.data!.user).toEqualTypeOf<User>();
    const id = created.data!.user.id;

    const found = await admin.client.admin.listUsers({ searchValue: email, searchField: "email", limit: 10, offset: 0 });
    expect(found.error).toBeNull();
    expectTypeOf(found.data!).toEqualTypeOf<AdminListUsersData>();
    expect(found.data).toMatchObject({ total: 1, limit: 10, offset: 0, users: [{ id, email }] });

    const read = await admin.client.admin.getUser({ id });
    expect(read.data).toMatchObject({ id, email, name: "Findable Person" });
  });

  it("refuses a non-administrator with 403", async () => {
    const { client } = nodeClient(server.url);
    await signUpFresh(client);
    const { data, error } = await client.admin.listUsers();
    expect(data).toBeNull();
    expect(error?.status).toBe(403);
  });

  it("bans a user (sign-in then fails with BANNED_USER) and unbans them", async () => {
    const target = nodeClient(server.url);
    const { email, user } = await signUpFresh(target.client);

    const banned = await admin.client.admin.banUser({ userId: user.id, banReason: "Spamming", banExpiresIn: 3600 });
    expect(banned.error).toBeNull();
    expect(banned.data?.user).toMatchObject({ id: user.id, banned: true, banReason: "Spamming" });
    expect(banned.data?.user.banExpires).toEqual(expect.any(String));

    const refused = await nodeClient(server.url).client.signIn.email({ email, password: PASSWORD });
    expect(refused.error).toMatchObject({ status: 403, code: "BANNED_USER" });

    const filtered = await admin.client.admin.listUsers({ filterField: "banned", filterValue: "true", limit: 100 });
    expect(filtered.data?.users.map((u) => u.id)).toContain(user.id);

    const unbanned = await admin.client.admin.unbanUser({ userId: user.id });
    expect(unbanned.data?.user).toMatchObject({ banned: false, banReason: null, banExpires: null });
    expect((await nodeClient(server.url).client.signIn.email({ email, password: PASSWORD })).error).toBeNull();
  });

  it("sets the role and the password, lists and revokes sessions, and removes the user", async () => {
    const target = nodeClient(server.url);
    const { email, user } = await signUpFresh(target.client);

    expect((await admin.client.admin.setRole({ userId: user.id, role: "admin" })).data?.user.role).toBe("admin");
    expect((await admin.client.admin.setRole({ userId: user.id, role: "user" })).data?.user.role).toBe("user");

    expect(await admin.client.admin.setUserPassword({ userId: user.id, newPassword: "a brand new password" })).toEqual({
      data: { status: true },
      error: null,
    });
    expect((await nodeClient(server.url).client.signIn.email({ email, password: "a brand new password" })).error).toBeNull();

    const listed = await admin.client.admin.listUserSessions({ userId: user.id });
    expect(listed.data?.sessions.length).toBeGreaterThanOrEqual(2);
    const [first] = listed.data!.sessions;
    expect(await admin.client.admin.revokeUserSession({ sessionToken: first!.token })).toEqual({ data: { success: true }, error: null });
    expect(await admin.client.admin.revokeUserSessions({ userId: user.id })).toEqual({ data: { success: true }, error: null });
    expect((await admin.client.admin.listUserSessions({ userId: user.id })).data?.sessions).toEqual([]);

    expect(await admin.client.admin.removeUser({ userId: user.id })).toEqual({ data: { success: true }, error: null });
    expect((await admin.client.admin.getUser({ id: user.id })).error?.status).toBe(404);
  });

  it("impersonates a user and stops, with the session store following along", async () => {
    const { user } = await signUpFresh(nodeClient(server.url).client, "Impersonated Person");
    const acting = nodeClient(server.url);
    const { user: me } = await signUpFresh(acting.client, "Acting Admin");
    await server.gatehouse.runtime.stores.users.updateUser(me.id, { role: "admin", updatedAt: new Date() });

    const started = await acting.client.admin.impersonateUser({ userId: user.id });
    expect(started.error).toBeNull();
    expect(started.data?.session.impersonatedBy).toBe(me.id);
    const during = await acting.client.getSession();
    expect(during.data).toMatchObject({ user: { id: user.id }, session: { impersonatedBy: me.id } });

    const stopped = await acting.client.admin.stopImpersonating();
    expect(stopped.error).toBeNull();
    const after = await acting.client.getSession();
    expect(after.data).toMatchObject({ user: { id: me.id }, session: { impersonatedBy: null } });
  });

  it("#14: lists every organization and reads one with its members, though the administrator is in none", async () => {
    const owner = nodeClient(server.url);
    const { user } = await signUpFresh(owner.client, "Organization Owner");
    const slug = `admin-view-${Date.now().toString(36)}`;
    const created = await owner.client.organization.create({ name: "Admin View Co", slug });
    expect(created.error).toBeNull();
    const id = created.data!.id;

    const listed = await admin.client.admin.listOrganizations({ searchValue: slug, limit: 10, sortBy: "name", sortDirection: "asc" });
    expect(listed.error).toBeNull();
    expectTypeOf(listed.data!).toEqualTypeOf<AdminListOrganizationsData>();
    expect(listed.data).toMatchObject({ total: 1, limit: 10, offset: 0, organizations: [{ id, slug, name: "Admin View Co", memberCount: 1 }] });

    const read = await admin.client.admin.getOrganization({ id });
    expectTypeOf(read.data!).toEqualTypeOf<AdminOrganizationDetail>();
    expect(read.data).toMatchObject({ id, memberCount: 1, members: [{ userId: user.id, role: "owner", user: { name: "Organization Owner" } }] });
    expect((await admin.client.admin.getOrganization({ id: "no-such-organization" })).error).toMatchObject({
      status: 404,
      code: "ORGANIZATION_NOT_FOUND",
    });
    expect((await owner.client.admin.listOrganizations()).error?.status).toBe(403);
  });

  it("#14: asks has-permission for the caller's own roles", async () => {
    expect(await admin.client.admin.hasPermission({ permissions: { user: ["ban"], organization: ["list"] } })).toEqual({
      data: { error: null, success: true },
      error: null,
    });
    const { client } = nodeClient(server.url);
    await signUpFresh(client);
    expect((await client.admin.hasPermission({ permissions: { user: ["ban"] } })).data).toEqual({ error: null, success: false });
  });

  it("#14: edits a user's name and email and marks the address verified; getUser says who may be impersonated", async () => {
    const { user } = await signUpFresh(nodeClient(server.url).client, "Before Rename");
    const read = await admin.client.admin.getUser({ id: user.id });
    expectTypeOf(read.data!).toEqualTypeOf<AdminUserDetail>();
    expect(read.data).toMatchObject({ administrator: false, impersonable: true, emailVerified: false });

    const email = uniqueEmail("renamed");
    const updated = await admin.client.admin.updateUser({ userId: user.id, data: { name: "After Rename", email, emailVerified: true } });
    expect(updated.error).toBeNull();
    expect(updated.data).toMatchObject({ id: user.id, name: "After Rename", email, emailVerified: true });

    const me = (await admin.client.getSession()).data!.user;
    expect((await admin.client.admin.getUser({ id: me.id })).data).toMatchObject({ administrator: true, impersonable: false });
  });
});

import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type { AdminListUsersData, User } from "../src/index.js";
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
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "./helpers/databases.js";
import { signUpAdmin } from "./helpers/admin.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/** Every administrator route, a body or query it accepts, and the message it refuses a non-administrator with. */
const GUARDED: { method: "GET" | "POST"; path: string; body?: object; message: string }[] = [
  { method: "POST", path: "/admin/create-user", body: { email: "x@example.com", name: "X" }, message: "You are not allowed to create users" },
  { method: "GET", path: "/admin/list-users", message: "You are not allowed to list users" },
  { method: "GET", path: "/admin/get-user?id=someone", message: "You are not allowed to get user" },
  { method: "POST", path: "/admin/update-user", body: { userId: "someone", data: { name: "N" } }, message: "You are not allowed to update users" },
  { method: "POST", path: "/admin/set-role", body: { userId: "someone", role: "admin" }, message: "You are not allowed to change users role" },
  { method: "POST", path: "/admin/ban-user", body: { userId: "someone" }, message: "You are not allowed to ban users" },
  { method: "POST", path: "/admin/unban-user", body: { userId: "someone" }, message: "You are not allowed to ban users" },
  { method: "POST", path: "/admin/impersonate-user", body: { userId: "someone" }, message: "You are not allowed to impersonate users" },
  { method: "POST", path: "/admin/remove-user", body: { userId: "someone" }, message: "You are not allowed to delete users" },
  {
    method: "POST",
    path: "/admin/set-user-password",
    body: { userId: "someone", newPassword: PASSWORD },
    message: "You are not allowed to set users password",
  },
  { method: "POST", path: "/admin/list-user-sessions", body: { userId: "someone" }, message: "You are not allowed to list users sessions" },
  { method: "POST", path: "/admin/revoke-user-session", body: { sessionToken: "t" }, message: "You are not allowed to revoke users sessions" },
  { method: "POST", path: "/admin/revoke-user-sessions", body: { userId: "someone" }, message: "You are not allowed to revoke users sessions" },
];

const codeOf = (message: string) => message.toUpperCase().replace(/ /g, "_");

describe.each(DIALECTS)("administrators on %s", (dialect) => {
  let server: TestServer;
  const admin = () => adminClient;
  let adminClient: TestClient;
  let adminId: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    adminClient = new TestClient(server.base);
    adminId = (await signUpAdmin(server, adminClient)).user.id;
  });
  afterAll(async () => server?.close());
  const client = () => new TestClient(server.base);
  const users = () => server.gatehouse.runtime.stores.users;

  describe("guards", () => {
    it("answers 401 on every administrator route without a session", async () => {
      for (const route of [...GUARDED, { method: "POST" as const, path: "/admin/stop-impersonating", body: {} }]) {
        const res = await client().request(route.method, route.path, { body: route.body });
        expect(res.status, route.path).toBe(401);
        expect(res.body).toEqual({ code: "UNAUTHORIZED", message: "Unauthorized" });
      }
    });

    it("answers 403 with the route's own message to a signed-in user without the admin role", async () => {
      const c = client();
      const { user } = await signUp(c);
      expect(user.role).toBe("user");
      for (const route of GUARDED) {
        const res = await c.request(route.method, route.path, { body: route.body });
        expect(res.status, route.path).toBe(403);
        expect(res.body).toEqual({ code: codeOf(route.message), message: route.message });
      }
    });

    it("reads the caller's role from the database: a demoted administrator is refused at once", async () => {
      const c = client();
      const { user } = await signUpAdmin(server, c);
      expect((await c.get("/admin/list-users?limit=1")).status).toBe(200);
      await users().updateUser(user.id, { role: "user", updatedAt: new Date() });
      expect((await c.get("/admin/list-users?limit=1")).status).toBe(403);
    });
  });

  describe("POST /admin/create-user", () => {
    it("creates a user with the default role and a password they can sign in with", async () => {
      const email = uniqueEmail("Created");
      const res = await admin().post("/admin/create-user", { email, password: PASSWORD, name: "Made By Admin" });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ email: email.toLowerCase(), name: "Made By Admin", role: "user", banned: false });
      const signIn = await client().post("/sign-in/email", { email, password: PASSWORD });
      expect(signIn.status).toBe(200);
      expect(signIn.body.user.id).toBe(res.body.user.id);
    });

    it("sets a role (string or list), a verified address and a username; without a password, no credential account", async () => {
      const res = await admin().post("/admin/create-user", {
        email: uniqueEmail(),
        name: "Staff",
        role: ["admin", "user"],
        data: { emailVerified: true, username: "Staff_Member" },
      });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({
        role: "admin,user",
        emailVerified: true,
        username: "staff_member",
        displayUsername: "Staff_Member",
      });
      expect(await server.gatehouse.runtime.stores.accounts.findCredentialAccount(res.body.user.id)).toBeNull();
    });

    it("refuses a taken email, a bad email, an unknown role, a short password and fields it does not know", async () => {
      const { email } = await signUp(client());
      const cases: [object, number, string][] = [
        [{ email: email.toUpperCase(), name: "Dup" }, 400, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL"],
        [{ email: "not-an-email", name: "Bad" }, 400, "INVALID_EMAIL"],
        [{ email: uniqueEmail(), name: "R", role: "superhero" }, 400, "YOU_ARE_NOT_ALLOWED_TO_SET_A_NON_EXISTENT_ROLE_VALUE"],
        [{ email: uniqueEmail(), name: "R", role: " , " }, 400, "INVALID_ROLE_TYPE"],
        [{ email: uniqueEmail(), name: "P", password: "short" }, 400, "PASSWORD_TOO_SHORT"],
        [{ email: uniqueEmail(), name: "F", data: { favouriteColour: "red" } }, 400, "FIELD_NOT_ALLOWED"],
        [{ email: uniqueEmail(), name: "U", data: { username: "x" } }, 422, "USERNAME_IS_TOO_SHORT"],
      ];
      for (const [body, status, code] of cases) {
        const res = await admin().post("/admin/create-user", body);
        expect(res.status, code).toBe(status);
        expect(res.body.code).toBe(code);
      }
    });

    it("is callable in-process without a session (server-side API)", async () => {
      const email = uniqueEmail("server");
      const created = await server.gatehouse.api.createUser({ body: { email, name: "From Server", role: "admin" } });
      expect((created as { user: unknown }).user).toMatchObject({ email, role: "admin" });
    });
  });

  describe("GET /admin/get-user", () => {
    it("answers the user, unwrapped, and 404 for an unknown id", async () => {
      const { user } = await signUp(client());
      const res = await admin().get(`/admin/get-user?id=${user.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: user.id, email: user.email, role: "user" });
      const missing = await admin().get("/admin/get-user?id=nobody");
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ code: "USER_NOT_FOUND", message: "User not found" });
      expect((await admin().get("/admin/get-user")).body.code).toBe("VALIDATION_ERROR");
    });
  });

  describe("POST /admin/update-user", () => {
    it("updates name, email and verification and answers the user", async () => {
      const { user } = await signUp(client());
      const email = uniqueEmail("Renamed");
      const res = await admin().post("/admin/update-user", {
        userId: user.id,
        data: { name: "Renamed", email, emailVerified: true },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: user.id, name: "Renamed", email: email.toLowerCase(), emailVerified: true });
    });

    it("#14: a new address set by an administrator counts as unverified, unless the same request marks it verified", async () => {
      const c = client();
      const { user } = await signUp(c);
      await users().updateUser(user.id, { emailVerified: true, updatedAt: new Date() });
      const email = uniqueEmail("Moved");
      const moved = await admin().post("/admin/update-user", { userId: user.id, data: { email } });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ email: email.toLowerCase(), emailVerified: false });
      // The same address again (in other case) is no change: the verification stays as it is.
      await admin().post("/admin/update-user", { userId: user.id, data: { emailVerified: true } });
      const same = await admin().post("/admin/update-user", { userId: user.id, data: { email: email.toUpperCase(), name: "Moved" } });
      expect(same.body).toMatchObject({ email: email.toLowerCase(), emailVerified: true, name: "Moved" });
      const marked = await admin().post("/admin/update-user", {
        userId: user.id,
        data: { email: uniqueEmail("Marked"), emailVerified: true },
      });
      expect(marked.body.emailVerified).toBe(true);
      // Marking an address verified on its own: what the console's "verified" box sends.
      await admin().post("/admin/update-user", { userId: user.id, data: { emailVerified: false } });
      const verified = await admin().post("/admin/update-user", { userId: user.id, data: { emailVerified: true } });
      expect(verified.body.emailVerified).toBe(true);
      expect((await c.get("/get-session?disableCookieCache=true")).body.user).toMatchObject({ emailVerified: true, name: "Moved" });
    });

    it("refuses empty data, a password, the id, unknown fields, a taken email, and banning oneself", async () => {
      const { user } = await signUp(client());
      const other = await signUp(client());
      const cases: [object, number, string][] = [
        [{ userId: user.id, data: {} }, 400, "NO_DATA_TO_UPDATE"],
        [
          { userId: user.id, data: { password: "new password" } },
          400,
          "PASSWORD_CANNOT_BE_UPDATED_THROUGH_UPDATE_USER_USE_THE_SET_USER_PASSWORD_ENDPOINT_INSTEAD",
        ],
        [{ userId: user.id, data: { id: "another" } }, 400, "USER_ID_CANNOT_BE_UPDATED"],
        [{ userId: user.id, data: { createdAt: "2020-01-01T00:00:00Z" } }, 400, "FIELD_NOT_ALLOWED"],
        [{ userId: user.id, data: { email: other.email } }, 400, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL"],
        [{ userId: user.id, data: { email: ` ${other.email.toUpperCase()} ` } }, 400, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL"],
        [{ userId: adminId, data: { banned: true } }, 400, "YOU_CANNOT_BAN_YOURSELF"],
        [{ userId: "nobody", data: { name: "N" } }, 404, "USER_NOT_FOUND"],
      ];
      for (const [body, status, code] of cases) {
        const res = await admin().post("/admin/update-user", body);
        expect(res.status, code).toBe(status);
        expect(res.body.code).toBe(code);
      }
    });

    it("banning through update-user revokes the user's sessions", async () => {
      const c = client();
      const { user } = await signUp(c);
      const res = await admin().post("/admin/update-user", { userId: user.id, data: { banned: true, banReason: "spam" } });
      expect(res.body).toMatchObject({ banned: true, banReason: "spam" });
      expect((await c.get("/get-session")).body ?? null).toBeNull();
    });
  });

  describe("POST /admin/set-role", () => {
    it("sets one role or several (stored comma-joined), which take effect at once", async () => {
      const c = client();
      const { user } = await signUp(c);
      const res = await admin().post("/admin/set-role", { userId: user.id, role: ["admin", "user"] });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ id: user.id, role: "admin,user" });
      expect((await c.get("/admin/list-users?limit=1")).status).toBe(200);
      const back = await admin().post("/admin/set-role", { userId: user.id, role: "user" });
      expect(back.body.user.role).toBe("user");
      expect((await c.get("/admin/list-users?limit=1")).status).toBe(403);
    });

    it("refuses an unknown role and answers 404 for an unknown user", async () => {
      const { user } = await signUp(client());
      const unknown = await admin().post("/admin/set-role", { userId: user.id, role: "admin,owner" });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toBe("You are not allowed to set a non-existent role value");
      const missing = await admin().post("/admin/set-role", { userId: "nobody", role: "user" });
      expect(missing.status).toBe(404);
    });
  });

  describe("POST /admin/set-user-password", () => {
    it("sets a new password, and creates the credential account of a user who had none", async () => {
      const { email, user } = await signUp(client());
      const res = await admin().post("/admin/set-user-password", { userId: user.id, newPassword: "a brand new secret" });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: true });
      expect((await client().post("/sign-in/email", { email, password: PASSWORD })).status).toBe(401);
      expect((await client().post("/sign-in/email", { email, password: "a brand new secret" })).status).toBe(200);

      const created = await admin().post("/admin/create-user", { email: uniqueEmail(), name: "No Password" });
      await admin().post("/admin/set-user-password", { userId: created.body.user.id, newPassword: PASSWORD });
      const signIn = await client().post("/sign-in/email", { email: created.body.user.email, password: PASSWORD });
      expect(signIn.status).toBe(200);
    });

    it("checks the password length and answers 404 for an unknown user", async () => {
      const { user } = await signUp(client());
      const short = await admin().post("/admin/set-user-password", { userId: user.id, newPassword: "short" });
      expect(short.body.code).toBe("PASSWORD_TOO_SHORT");
      const missing = await admin().post("/admin/set-user-password", { userId: "nobody", newPassword: PASSWORD });
      expect(missing.status).toBe(404);
      const empty = await admin().post("/admin/set-user-password", { userId: user.id, newPassword: "" });
      expect(empty.body.code).toBe("VALIDATION_ERROR");
    });
  });

  describe("POST /admin/remove-user", () => {
    it("deletes the user with their sessions and accounts", async () => {
      const c = client();
      const { user, email } = await signUp(c);
      const res = await admin().post("/admin/remove-user", { userId: user.id });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await users().findUserById(user.id)).toBeNull();
      expect(await server.gatehouse.runtime.stores.accounts.listUserAccounts(user.id)).toEqual([]);
      expect((await c.get("/get-session")).body ?? null).toBeNull();
      expect((await client().post("/sign-in/email", { email, password: PASSWORD })).status).toBe(401);
    });

    it("refuses to remove oneself and answers 404 for an unknown user", async () => {
      const self = await admin().post("/admin/remove-user", { userId: adminId });
      expect(self.status).toBe(400);
      expect(self.body).toEqual({ code: "YOU_CANNOT_REMOVE_YOURSELF", message: "You cannot remove yourself" });
      expect((await admin().post("/admin/remove-user", { userId: "nobody" })).status).toBe(404);
    });
  });

  describe("user sessions", () => {
    it("lists a user's sessions and revokes one of them by token", async () => {
      const { email, user } = await signUp(client());
      const second = client();
      await second.post("/sign-in/email", { email, password: PASSWORD });
      const listed = await admin().post("/admin/list-user-sessions", { userId: user.id });
      expect(listed.status).toBe(200);
      expect(listed.body.sessions).toHaveLength(2);
      expect(listed.body.sessions[0]).toMatchObject({ userId: user.id, impersonatedBy: null });
      const token = (await second.get("/get-session")).body.session.token;
      const revoked = await admin().post("/admin/revoke-user-session", { sessionToken: token });
      expect(revoked.body).toEqual({ success: true });
      expect((await second.get("/get-session")).body ?? null).toBeNull();
      expect((await admin().post("/admin/list-user-sessions", { userId: user.id })).body.sessions).toHaveLength(1);
      expect((await admin().post("/admin/list-user-sessions", { userId: "nobody" })).status).toBe(404);
    });

    it("revokes every session of a user", async () => {
      const c = client();
      const { user } = await signUp(c);
      const res = await admin().post("/admin/revoke-user-sessions", { userId: user.id });
      expect(res.body).toEqual({ success: true });
      expect((await c.get("/get-session")).body ?? null).toBeNull();
      expect((await admin().post("/admin/list-user-sessions", { userId: user.id })).body.sessions).toEqual([]);
    });
  });

  describe("POST /admin/has-permission", () => {
    it("answers for the caller's own roles", async () => {
      const yes = await admin().post("/admin/has-permission", { permissions: { user: ["list", "ban"], session: ["revoke"] } });
      expect(yes.status).toBe(200);
      expect(yes.body).toEqual({ error: null, success: true });
      const adminsOnly = await admin().post("/admin/has-permission", { permissions: { user: ["impersonate-admins"] } });
      expect(adminsOnly.body.success).toBe(false);
      const unknown = await admin().post("/admin/has-permission", { permissions: { invoice: ["pay"] } });
      expect(unknown.body.success).toBe(false);
      const c = client();
      await signUp(c);
      const no = await c.post("/admin/has-permission", { permissions: { user: ["list"] }, role: "admin" });
      expect(no.body).toEqual({ error: null, success: false });
    });

    it("needs permissions and, over HTTP, a session", async () => {
      const none = await admin().post("/admin/has-permission", {});
      expect(none.status).toBe(400);
      expect(none.body.message).toBe("invalid permission check. no permission(s) were passed.");
      const anonymous = await client().post("/admin/has-permission", { permissions: { user: ["list"] } });
      expect(anonymous.status).toBe(401);
    });

    it("in-process, answers for a role or a user id", async () => {
      const api = server.gatehouse.api;
      expect(await api.userHasPermission({ body: { role: "user,admin", permissions: { user: ["delete"] } } })).toEqual({
        error: null,
        success: true,
      });
      const byId = await api.userHasPermission({ body: { userId: adminId, permissions: { session: ["list"] } } });
      expect(byId).toEqual({ error: null, success: true });
      await expect(api.userHasPermission({ body: { permissions: { user: ["list"] } } })).rejects.toThrow(
        "user id or role is required",
      );
      await expect(api.userHasPermission({ body: { userId: "nobody", permissions: { user: ["list"] } } })).rejects.toThrow(
        "user not found",
      );
    });
  });
});

describe.each(DIALECTS)("administrator options on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, {
      admin: { defaultRole: "member", adminRoles: ["admin", "staff"], adminUserIds: ["root-user-id"] },
    });
  });
  afterAll(async () => server?.close());
  const client = () => new TestClient(server.base);

  it("gives new users defaultRole, and the roles of adminRoles the administrator's actions", async () => {
    const c = client();
    const { user } = await signUp(c);
    expect(user.role).toBe("member");
    expect((await c.get("/admin/list-users?limit=1")).status).toBe(403);
    await server.gatehouse.runtime.stores.users.updateUser(user.id, { role: "member,staff", updatedAt: new Date() });
    expect((await c.get("/admin/list-users?limit=1")).status).toBe(200);
    const roles = await c.post("/admin/set-role", { userId: user.id, role: "member,staff" });
    expect(roles.status).toBe(200);
    expect((await c.post("/admin/set-role", { userId: user.id, role: "user" })).status).toBe(200);
  });

  it("lets the users of adminUserIds pass every check, whatever their role, but not impersonate administrators (#12.3.13)", async () => {
    const now = new Date();
    await server.gatehouse.runtime.stores.users.createUser({
      id: "root-user-id",
      name: "Root",
      email: uniqueEmail("root"),
      emailVerified: true,
      image: null,
      createdAt: now,
      updatedAt: now,
      role: "member",
    });
    const api = server.gatehouse.api;
    const answer = await api.userHasPermission({
      body: { userId: "root-user-id", permissions: { user: ["ban", "delete", "set-role"], session: ["revoke"] } },
    });
    expect(answer).toEqual({ error: null, success: true });
    // Impersonating another administrator is for nobody while admin.allowImpersonatingAdmins is off.
    const admins = await api.userHasPermission({ body: { userId: "root-user-id", permissions: { user: ["impersonate-admins"] } } });
    expect(admins).toEqual({ error: null, success: false });
  });
});

import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../src/config/index.js";
import type { User } from "../src/storage/models.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD } from "./helpers/http-client.js";
import { activeOrganizationOf, fastHasher, organizationFixtures, uniqueSlug } from "./helpers/organization.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(DIALECTS)("organizations on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      dialect,
      {
        emailVerification: { sendOnSignUp: false },
        user: { deleteUser: { enabled: true } },
        organization: {
          organizationLimit: 3,
          allowUserToCreateOrganization: async (user: User) => user.name !== "Not Allowed",
        },
      },
      { hasher: fastHasher() },
    );
  });
  afterAll(async () => server?.close());
  const { client, person, organization, join, team3 } = organizationFixtures(() => server);

  describe("POST /organization/create", () => {
    it("creates it with its owner and a default team, answers metadata parsed, and makes it active", async () => {
      const owner = await person();
      const slug = uniqueSlug("acme");
      const res = await owner.client.post("/organization/create", {
        name: "Acme Corp",
        slug,
        logo: "https://img.example/acme.png",
        metadata: { plan: "pro", seats: 5 },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: "Acme Corp",
        slug,
        logo: "https://img.example/acme.png",
        metadata: { plan: "pro", seats: 5 },
        members: [{ userId: owner.id, role: "owner" }],
      });
      expect(res.body.id).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(res.body.createdAt).toMatch(ISO);
      const session = (await owner.client.get("/get-session")).body.session;
      expect(session.activeOrganizationId).toBe(res.body.id);
      const teams = (await owner.client.get(`/organization/list-teams?organizationId=${res.body.id}`)).body;
      expect(teams).toMatchObject([{ name: "Acme Corp", organizationId: res.body.id }]);
      expect(session.activeTeamId).toBe(teams[0].id);
      const teamMembers = (await owner.client.get(`/organization/list-team-members?teamId=${teams[0].id}`)).body;
      expect(teamMembers).toMatchObject([{ userId: owner.id, teamId: teams[0].id }]);
    });

    it("keeps the current active organization when keepCurrentActiveOrganization is set", async () => {
      const owner = await person();
      const first = await organization(owner);
      const res = await owner.client.post("/organization/create", {
        name: "Second",
        slug: uniqueSlug(),
        keepCurrentActiveOrganization: true,
      });
      expect(res.status).toBe(200);
      expect(await activeOrganizationOf(owner)).toBe(first.id);
    });

    it("refuses a slug in use: 400 Organization already exists", async () => {
      const owner = await person();
      const org = await organization(owner);
      const res = await (await person()).client.post("/organization/create", { name: "Copy", slug: org.slug });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "ORGANIZATION_ALREADY_EXISTS", message: "Organization already exists" });
    });

    it("needs a session over HTTP and refuses a userId other than the caller's", async () => {
      const anonymous = await client().post("/organization/create", { name: "Nope", slug: uniqueSlug() });
      expect(anonymous.status).toBe(401);
      const [caller, other] = await Promise.all([person(), person()]);
      const res = await caller.client.post("/organization/create", { name: "X", slug: uniqueSlug(), userId: other.id });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("FIELD_NOT_ALLOWED");
    });

    it("server-side: creates for a userId without a session; neither gives Either userId or session is required", async () => {
      const user = await person();
      const created = (await server.gatehouse.api.createOrganization({
        body: { name: "Server Made", slug: uniqueSlug(), userId: user.id },
      })) as { id: string; members: { userId: string; role: string }[] };
      expect(created.members).toMatchObject([{ userId: user.id, role: "owner" }]);
      const listed = (await user.client.get("/organization/list")).body;
      expect(listed.map((o: { id: string }) => o.id)).toContain(created.id);
      await expect(
        server.gatehouse.api.createOrganization({ body: { name: "Orphan", slug: uniqueSlug() } }),
      ).rejects.toMatchObject({ status: 400, message: "Either userId or session is required" });
    });

    it("asks allowUserToCreateOrganization (a function here): 403 You are not allowed to create a new organization", async () => {
      const refused = await person({ name: "Not Allowed" });
      const res = await refused.client.post("/organization/create", { name: "Nope", slug: uniqueSlug() });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        code: "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION",
        message: "You are not allowed to create a new organization",
      });
    });

    it("stops at organizationLimit: 403 You have reached the maximum number of organizations", async () => {
      const owner = await person();
      for (let i = 0; i < 3; i++) await organization(owner);
      const res = await owner.client.post("/organization/create", { name: "Fourth", slug: uniqueSlug() });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe("You have reached the maximum number of organizations");
    });

    it("answers hostile or malformed input with 400 VALIDATION_ERROR, never 500", async () => {
      const owner = await person();
      const bodies: unknown[] = [
        { name: "A", slug: "Upper Case" },
        { name: "A", slug: "a".repeat(65) },
        { name: "A", slug: "" },
        { name: "A", slug: "ok/../x" },
        { name: "A", slug: 42 },
        { name: "", slug: uniqueSlug() },
        { name: " ", slug: uniqueSlug() },
        { name: "n".repeat(257), slug: uniqueSlug() },
        { name: "A", slug: uniqueSlug(), metadata: [1, 2] },
        { name: "A", slug: uniqueSlug(), metadata: "text" },
        { name: "A", slug: uniqueSlug(), metadata: { big: "x".repeat(20_000) } },
        { name: "A", slug: uniqueSlug(), logo: "l".repeat(5000) },
        { name: "A", slug: uniqueSlug(), userId: "u".repeat(65) },
        { name: "A", slug: uniqueSlug(), userId: "'; drop table member; --" },
        { name: { $ne: null }, slug: uniqueSlug() },
        ["not", "an", "object"],
      ];
      for (const body of bodies) {
        const res = await owner.client.post("/organization/create", body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.body.code).toBe("VALIDATION_ERROR");
      }
      const get = await owner.client.get(`/organization/get-organization?organizationId=${"x".repeat(100)}`);
      expect(get.status).toBe(400);
      expect(get.body.code).toBe("VALIDATION_ERROR");
    });
  });

  describe("POST /organization/check-slug", () => {
    it("answers status true for a free slug and 400 slug is taken for a used one", async () => {
      const owner = await person();
      const org = await organization(owner);
      expect((await owner.client.post("/organization/check-slug", { slug: uniqueSlug() })).body).toEqual({ status: true });
      const taken = await owner.client.post("/organization/check-slug", { slug: org.slug });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ code: "SLUG_IS_TAKEN", message: "slug is taken" });
      expect((await client().post("/organization/check-slug", { slug: "free" })).status).toBe(401);
      expect((await owner.client.post("/organization/check-slug", { slug: "NOT OK" })).body.code).toBe("VALIDATION_ERROR");
    });
  });

  describe("POST /organization/update", () => {
    it("changes name, slug, logo and metadata of the active organization, answering metadata parsed", async () => {
      const owner = await person();
      const org = await organization(owner, { metadata: { a: 1 } });
      const slug = uniqueSlug("renamed");
      const res = await owner.client.post("/organization/update", {
        data: { name: "Renamed", slug, logo: null, metadata: { b: [1, 2] } },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: org.id, name: "Renamed", slug, logo: null, metadata: { b: [1, 2] } });
      const cleared = await owner.client.post("/organization/update", { organizationId: org.id, data: { metadata: null } });
      expect(cleared.body.metadata).toBeNull();
    });

    it("refuses a slug another organization uses, a non-member, and a missing organization", async () => {
      const [owner, stranger, orgless] = await Promise.all([person(), person(), person()]);
      const org = await organization(owner);
      const other = await organization(stranger);
      const taken = await owner.client.post("/organization/update", { organizationId: org.id, data: { slug: other.slug } });
      expect(taken.status).toBe(400);
      expect(taken.body.code).toBe("ORGANIZATION_SLUG_ALREADY_TAKEN");
      const foreign = await stranger.client.post("/organization/update", { organizationId: org.id, data: { name: "Mine" } });
      expect(foreign.status).toBe(400);
      expect(foreign.body).toEqual({
        code: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
        message: "User is not a member of the organization",
      });
      const none = await orgless.client.post("/organization/update", { data: { name: "Nothing" } });
      expect(none.status).toBe(400);
      expect(none.body).toEqual({ code: "ORGANIZATION_NOT_FOUND", message: "Organization not found" });
    });
  });

  describe("GET /organization/list, get-organization, get-full-organization", () => {
    it("lists the caller's organizations with metadata parsed", async () => {
      const owner = await person();
      const a = await organization(owner, { metadata: { tier: "gold" } });
      const b = await organization(owner);
      const res = await owner.client.get("/organization/list");
      expect(res.status).toBe(200);
      expect(res.body.map((o: { id: string }) => o.id)).toEqual([a.id, b.id]);
      expect(res.body[0].metadata).toEqual({ tier: "gold" });
      expect(res.body[1].metadata).toBeNull();
      expect((await (await person()).client.get("/organization/list")).body).toEqual([]);
    });

    it("gets one by id, by slug or the active one; null without one; 400 unknown; 403 for non-members", async () => {
      const [owner, stranger, orgless] = await Promise.all([person(), person(), person()]);
      const org = await organization(owner, { metadata: { x: true } });
      for (const path of [
        "/organization/get-organization",
        `/organization/get-organization?organizationId=${org.id}`,
        `/organization/get-organization?organizationSlug=${org.slug}`,
      ]) {
        const res = await owner.client.get(path);
        expect(res.status, path).toBe(200);
        expect(res.body).toMatchObject({ id: org.id, slug: org.slug, metadata: { x: true } });
      }
      const none = await orgless.client.get("/organization/get-organization");
      expect(none.status).toBe(200);
      expect(none.body).toBeNull();
      const unknown = await owner.client.get("/organization/get-organization?organizationId=nope");
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toBe("Organization not found");
      const foreign = await stranger.client.get(`/organization/get-organization?organizationSlug=${org.slug}`);
      expect(foreign.status).toBe(403);
      expect(foreign.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    });

    it("gets the full organization: members with users, teams with counts, invitations for those who may invite", async () => {
      const { org, owner, member } = await team3();
      const invited = await owner.client.post("/organization/invite-member", { email: "full@example.com", role: "member" });
      expect(invited.status).toBe(200);
      const full = await owner.client.get(`/organization/get-full-organization?organizationId=${org.id}`);
      expect(full.status).toBe(200);
      expect(full.body.members).toHaveLength(3);
      expect(full.body.members.find((m: { userId: string }) => m.userId === owner.id)).toMatchObject({
        role: "owner",
        user: { id: owner.id, email: owner.email },
      });
      expect(full.body.teams).toMatchObject([{ name: "Acme", memberCount: 1 }]);
      expect(full.body.invitations).toMatchObject([{ id: invited.body.id, status: "pending" }]);
      const limited = await owner.client.get(`/organization/get-full-organization?organizationId=${org.id}&membersLimit=1`);
      expect(limited.body.members).toHaveLength(1);
      const asMember = await member.client.get("/organization/get-full-organization");
      expect(asMember.body.id).toBe(org.id);
      expect(asMember.body.invitations).toEqual([]);
      const bad = await owner.client.get("/organization/get-full-organization?membersLimit=abc");
      expect(bad.body.code).toBe("VALIDATION_ERROR");
    });
  });

  describe("POST /organization/set-active", () => {
    it("switches, clears with null, accepts a slug, and refuses unknown organizations and non-members", async () => {
      const [owner, stranger] = await Promise.all([person(), person()]);
      const a = await organization(owner);
      const b = await organization(owner);
      expect(await activeOrganizationOf(owner)).toBe(b.id);
      const switched = await owner.client.post("/organization/set-active", { organizationId: a.id });
      expect(switched.status).toBe(200);
      expect(switched.body).toMatchObject({ id: a.id, metadata: null });
      expect(await activeOrganizationOf(owner)).toBe(a.id);
      expect((await owner.client.post("/organization/set-active", { organizationSlug: b.slug })).body.id).toBe(b.id);
      const cleared = await owner.client.post("/organization/set-active", { organizationId: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toBeNull();
      expect(await activeOrganizationOf(owner)).toBeNull();
      expect((await owner.client.post("/organization/set-active", {})).body).toBeNull();
      const unknown = await owner.client.post("/organization/set-active", { organizationId: "missing" });
      expect(unknown.status).toBe(400);
      expect(unknown.body.code).toBe("ORGANIZATION_NOT_FOUND");
      const foreign = await stranger.client.post("/organization/set-active", { organizationId: a.id });
      expect(foreign.status).toBe(403);
      expect(foreign.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    });
  });

  describe("POST /organization/delete", () => {
    it("deletes it with its members, clears it from every member's session, and answers the organization", async () => {
      const { org, owner, admin, member } = await team3();
      expect(await activeOrganizationOf(member)).toBe(org.id);
      const res = await owner.client.post("/organization/delete", { organizationId: org.id });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: org.id, slug: org.slug });
      for (const p of [owner, admin, member]) {
        expect(await activeOrganizationOf(p)).toBeNull();
        expect((await p.client.get("/organization/list")).body).toEqual([]);
      }
      const gone = await owner.client.get(`/organization/get-organization?organizationId=${org.id}`);
      expect(gone.status).toBe(400);
      const again = await owner.client.post("/organization/delete", { organizationId: org.id });
      expect(again.status).toBe(400);
      expect(again.body.code).toBe("ORGANIZATION_NOT_FOUND");
    });

    it("refuses non-members", async () => {
      const [owner, stranger] = await Promise.all([person(), person()]);
      const org = await organization(owner);
      const res = await stranger.client.post("/organization/delete", { organizationId: org.id });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    });
  });

  describe("POST /organization/leave", () => {
    it("lets a member leave: answers the membership and clears their active organization", async () => {
      const { org, owner, member } = await team3();
      const res = await member.client.post("/organization/leave", { organizationId: org.id });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ organizationId: org.id, userId: member.id, role: "member", user: { email: member.email } });
      expect(await activeOrganizationOf(member)).toBeNull();
      const members = (await owner.client.get("/organization/list-members")).body.members;
      expect(members.map((m: { userId: string }) => m.userId)).not.toContain(member.id);
      const again = await member.client.post("/organization/leave", { organizationId: org.id });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ code: "MEMBER_NOT_FOUND", message: "Member not found" });
    });

    it("refuses the only owner, and lets one of two owners go", async () => {
      const { org, owner, admin } = await team3();
      const only = await owner.client.post("/organization/leave", { organizationId: org.id });
      expect(only.status).toBe(400);
      expect(only.body).toEqual({
        code: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER",
        message: "You cannot leave the organization as the only owner",
      });
      const adminMember = (await admin.client.get("/organization/get-active-member")).body;
      await owner.client.post("/organization/update-member-role", { memberId: adminMember.id, role: "owner" });
      expect((await owner.client.post("/organization/leave", { organizationId: org.id })).status).toBe(200);
      expect(await activeOrganizationOf(owner)).toBeNull();
    });
  });

  describe("POST /organization/remove-member", () => {
    it("removes by member id or by email, clears the removed user's active organization and team memberships", async () => {
      const { org, owner, admin, member, plainMember } = await team3();
      const team = (await owner.client.post("/organization/create-team", { name: "Ops" })).body;
      await owner.client.post("/organization/add-team-member", { teamId: team.id, userId: member.id });
      const res = await owner.client.post("/organization/remove-member", { memberIdOrEmail: plainMember.id });
      expect(res.status).toBe(200);
      expect(res.body.member).toMatchObject({ id: plainMember.id, userId: member.id, user: { email: member.email } });
      expect(await activeOrganizationOf(member)).toBeNull();
      expect((await member.client.get("/organization/list-user-teams")).body).toEqual([]);
      const byEmail = await owner.client.post("/organization/remove-member", {
        memberIdOrEmail: admin.email.toUpperCase(),
        organizationId: org.id,
      });
      expect(byEmail.status).toBe(200);
      expect(await activeOrganizationOf(admin)).toBeNull();
      const unknown = await owner.client.post("/organization/remove-member", { memberIdOrEmail: plainMember.id });
      expect(unknown.status).toBe(400);
      expect(unknown.body.code).toBe("MEMBER_NOT_FOUND");
    });

    it("protects owners: an admin cannot remove one, and the only owner cannot be removed", async () => {
      const { org, owner, admin } = await team3();
      const ownerMember = org.members[0]!;
      const byAdmin = await admin.client.post("/organization/remove-member", { memberIdOrEmail: ownerMember.id });
      expect(byAdmin.status).toBe(403);
      expect(byAdmin.body).toEqual({
        code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER",
        message: "You are not allowed to delete this member",
      });
      const self = await owner.client.post("/organization/remove-member", { memberIdOrEmail: owner.email });
      expect(self.status).toBe(400);
      expect(self.body.code).toBe("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");
    });

    it("needs an organization: 400 No active organization", async () => {
      const orgless = await person();
      const res = await orgless.client.post("/organization/remove-member", { memberIdOrEmail: "someone@example.com" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "NO_ACTIVE_ORGANIZATION", message: "No active organization" });
    });
  });

  describe("POST /organization/update-member-role", () => {
    it("sets one role or several (arrays are joined with commas); several roles add up", async () => {
      const { owner, member, plainMember } = await team3();
      const res = await owner.client.post("/organization/update-member-role", {
        memberId: plainMember.id,
        role: ["admin", "member"],
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: plainMember.id, role: "admin,member" });
      // admin,member may now invite (admin allows it, member does not: one role suffices).
      const invite = await member.client.post("/organization/invite-member", { email: "multi@example.com", role: "member" });
      expect(invite.status).toBe(200);
      const back = await owner.client.post("/organization/update-member-role", { memberId: plainMember.id, role: "member" });
      expect(back.body.role).toBe("member");
    });

    it("refuses unknown roles, and owner changes by admins, and leaves the organization with an owner", async () => {
      const { org, owner, admin, plainMember } = await team3();
      const ownerMember = org.members[0]!;
      const unknown = await owner.client.post("/organization/update-member-role", { memberId: plainMember.id, role: "superhero" });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ code: "ROLE_NOT_FOUND", message: "Role not found" });
      const empty = await owner.client.post("/organization/update-member-role", { memberId: plainMember.id, role: [] });
      expect(empty.body.code).toBe("VALIDATION_ERROR");
      const demote = await admin.client.post("/organization/update-member-role", { memberId: ownerMember.id, role: "member" });
      expect(demote.status).toBe(403);
      expect(demote.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
      const grant = await admin.client.post("/organization/update-member-role", { memberId: plainMember.id, role: "owner" });
      expect(grant.status).toBe(403);
      const lastOwner = await owner.client.post("/organization/update-member-role", { memberId: ownerMember.id, role: "admin" });
      expect(lastOwner.status).toBe(400);
      expect(lastOwner.body.code).toBe("YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER");
    });
  });

  describe("add-member (server-side API only)", () => {
    it("is not routed over HTTP, adds a user, and refuses duplicates and unknown users", async () => {
      const [owner, newcomer] = await Promise.all([person(), person()]);
      const org = await organization(owner);
      const http = await owner.client.post("/organization/add-member", { userId: newcomer.id, role: "member" });
      expect(http.status).toBe(404);
      const added = await join(org.id, newcomer, ["admin", "member"].join(","));
      expect(added).toMatchObject({ userId: newcomer.id, role: "admin,member" });
      await expect(join(org.id, newcomer)).rejects.toMatchObject({
        status: 400,
        message: "User is already a member of this organization",
      });
      await expect(
        server.gatehouse.api.addMember({ body: { userId: "nobody", role: "member", organizationId: org.id } }),
      ).rejects.toMatchObject({ status: 400, message: "User not found" });
    });
  });

  describe("GET get-active-member, get-active-member-role, list-members", () => {
    it("answers the caller's membership and role, and another member's role", async () => {
      const { org, owner, admin, member } = await team3();
      const active = await member.client.get("/organization/get-active-member");
      expect(active.status).toBe(200);
      expect(active.body).toMatchObject({ organizationId: org.id, userId: member.id, role: "member", user: { email: member.email } });
      expect((await admin.client.get("/organization/get-active-member-role")).body).toEqual({ role: "admin" });
      expect((await member.client.get(`/organization/get-active-member-role?userId=${owner.id}`)).body).toEqual({ role: "owner" });
      const orgless = await person();
      const none = await orgless.client.get("/organization/get-active-member");
      expect(none.status).toBe(400);
      expect(none.body.code).toBe("NO_ACTIVE_ORGANIZATION");
      const foreign = await orgless.client.get(`/organization/get-active-member-role?organizationId=${org.id}`);
      expect(foreign.status).toBe(403);
      expect(foreign.body).toEqual({
        code: "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION",
        message: "You are not a member of this organization",
      });
    });

    it("pages, sorts and filters members with the total", async () => {
      const { org, owner, admin, member } = await team3();
      const all = await member.client.get("/organization/list-members");
      expect(all.status).toBe(200);
      expect(all.body.total).toBe(3);
      const order = all.body.members.map((m: { userId: string }) => m.userId);
      expect([...order].sort()).toEqual([owner.id, admin.id, member.id].sort());
      const page = await owner.client.get(`/organization/list-members?organizationId=${org.id}&limit=1&offset=1`);
      expect(page.body).toMatchObject({ total: 3, members: [{ userId: order[1] }] });
      const desc = await owner.client.get("/organization/list-members?sortBy=createdAt&sortDirection=desc&limit=1");
      expect(desc.body.members[0].userId).toBe(order[2]);
      const byEmail = await owner.client.get("/organization/list-members?sortBy=email");
      const emails = byEmail.body.members.map((m: { user: { email: string } }) => m.user.email);
      expect(emails).toEqual([...emails].sort());
      const admins = await owner.client.get("/organization/list-members?filterField=role&filterValue=admin");
      expect(admins.body).toMatchObject({ total: 1, members: [{ userId: admin.id }] });
      const notAdmins = await owner.client.get("/organization/list-members?filterField=role&filterOperator=ne&filterValue=admin");
      expect(notAdmins.body.total).toBe(2);
      const wildcard = await owner.client.get("/organization/list-members?filterField=role&filterOperator=contains&filterValue=%25");
      expect(wildcard.body.total).toBe(0);
      const contains = await owner.client.get("/organization/list-members?filterField=role&filterOperator=contains&filterValue=wne");
      expect(contains.body).toMatchObject({ total: 1, members: [{ userId: owner.id }] });
      for (const bad of ["limit=0", "limit=-1", "offset=x", "sortBy=password", "filterField=password&filterValue=x"]) {
        const res = await owner.client.get(`/organization/list-members?${bad}`);
        expect(res.status, bad).toBe(400);
        expect(res.body.code).toBe("VALIDATION_ERROR");
      }
      const foreign = await (await person()).client.get(`/organization/list-members?organizationId=${org.id}`);
      expect(foreign.status).toBe(403);
      expect(foreign.body.code).toBe("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
    });
  });

  describe("POST /organization/has-permission", () => {
    it("passes when one role allows every action on each resource, and says why it fails", async () => {
      const { org, owner, admin, member } = await team3();
      const check = async (who: typeof owner, permissions: Record<string, string[]>) =>
        (await who.client.post("/organization/has-permission", { permissions })).body;
      expect(await check(owner, { organization: ["update", "delete"] })).toEqual({ error: null, success: true });
      expect(await check(admin, { organization: ["delete"] })).toEqual({
        error: "unauthorized to access resource",
        success: false,
      });
      expect(await check(admin, { organization: ["update"], member: ["create", "delete"], team: ["update"] })).toEqual({
        error: null,
        success: true,
      });
      expect(await check(admin, { organization: ["update"], invitation: ["create", "delete"] })).toMatchObject({ success: false });
      expect(await check(member, { member: ["create"] })).toEqual({
        error: "You are not allowed to access resource",
        success: false,
      });
      expect(await check(member, { ac: ["read"] })).toEqual({ error: null, success: true });
      expect(await check(owner, { billing: ["read"] })).toMatchObject({ success: false, error: "You are not allowed to access resource" });
      const legacy = await owner.client.post("/organization/has-permission", { permission: { member: ["create"] } });
      expect(legacy.body).toEqual({ error: null, success: false });
      const explicit = await owner.client.post("/organization/has-permission", {
        organizationId: org.id,
        permissions: { member: ["delete"] },
      });
      expect(explicit.body.success).toBe(true);
      const orgless = await person();
      const none = await orgless.client.post("/organization/has-permission", { permissions: { member: ["create"] } });
      expect(none.status).toBe(400);
      const foreign = await orgless.client.post("/organization/has-permission", {
        organizationId: org.id,
        permissions: { ac: ["read"] },
      });
      expect(foreign.status).toBe(403);
      const hostile = await owner.client.post("/organization/has-permission", { permissions: { member: "create" } });
      expect(hostile.body.code).toBe("VALIDATION_ERROR");
    });
  });

  describe("the role table (SPEC.md section 6)", () => {
    type World = Awaited<ReturnType<typeof team3>>;
    type Who = "owner" | "admin" | "member";
    const ALLOWED: Record<Who, boolean> = { owner: true, admin: true, member: false };
    interface Cell {
      name: string;
      allowed: Record<Who, boolean>;
      /** The refusal's code. */
      code: string;
      run(w: World, who: Who): Promise<{ status: number; body: any }>;
    }
    const invitationBody = () => ({ email: `${uniqueSlug()}@example.com`, role: "member" });
    const cells: Cell[] = [
      {
        name: "organization update",
        allowed: ALLOWED,
        code: "NOT_ALLOWED_TO_UPDATE_OR_DELETE_THIS_ORGANIZATION",
        run: (w, who) => w.people[who].client.post("/organization/update", { data: { name: `By ${who}` } }),
      },
      {
        name: "organization delete",
        allowed: { owner: true, admin: false, member: false },
        code: "NOT_ALLOWED_TO_UPDATE_OR_DELETE_THIS_ORGANIZATION",
        run: (w, who) => w.people[who].client.post("/organization/delete", { organizationId: w.org.id }),
      },
      {
        name: "member create",
        allowed: ALLOWED,
        code: "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_MEMBER",
        async run(w, who) {
          const newcomer = await person();
          const headers = { cookie: w.people[who].client.cookieHeader() };
          try {
            const data = await server.gatehouse.api.addMember({ headers, body: { userId: newcomer.id, role: "member" } });
            return { status: 200, body: data };
          } catch (error) {
            const e = error as { status: number; code: string };
            return { status: e.status, body: { code: e.code } };
          }
        },
      },
      {
        name: "member update",
        allowed: ALLOWED,
        code: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER",
        run: (w, who) =>
          w.people[who].client.post("/organization/update-member-role", { memberId: w.plainMember.id, role: "member" }),
      },
      {
        name: "member delete",
        allowed: ALLOWED,
        code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER",
        async run(w, who) {
          const target = await join(w.org.id, await person());
          return w.people[who].client.post("/organization/remove-member", { memberIdOrEmail: target.id });
        },
      },
      {
        name: "invitation create",
        allowed: ALLOWED,
        code: "YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION",
        run: (w, who) => w.people[who].client.post("/organization/invite-member", invitationBody()),
      },
      {
        name: "invitation cancel",
        allowed: ALLOWED,
        code: "YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION",
        async run(w, who) {
          const invitation = await w.owner.client.post("/organization/invite-member", invitationBody());
          return w.people[who].client.post("/organization/cancel-invitation", { invitationId: invitation.body.id });
        },
      },
      {
        name: "team create",
        allowed: ALLOWED,
        code: "YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION",
        run: (w, who) => w.people[who].client.post("/organization/create-team", { name: `Team of ${who}` }),
      },
      {
        name: "team update",
        allowed: ALLOWED,
        code: "NOT_ALLOWED_TO_DELETE_TEAMS_OR_UPDATE_THIS_TEAM",
        async run(w, who) {
          const team = (await w.owner.client.post("/organization/create-team", { name: "To rename" })).body;
          return w.people[who].client.post("/organization/update-team", { teamId: team.id, data: { name: "Renamed" } });
        },
      },
      {
        name: "team delete",
        allowed: ALLOWED,
        code: "NOT_ALLOWED_TO_DELETE_TEAMS_OR_UPDATE_THIS_TEAM",
        async run(w, who) {
          const team = (await w.owner.client.post("/organization/create-team", { name: "To remove" })).body;
          return w.people[who].client.post("/organization/remove-team", { teamId: team.id });
        },
      },
    ];

    const label = (cell: Cell) =>
      (["owner", "admin", "member"] as const).map((who) => `${who} ${cell.allowed[who] ? "yes" : "no"}`).join(", ");
    for (const cell of cells) {
      it(`${cell.name}: ${label(cell)}`, async () => {
        // Refusals first, on one organization; each allowed role then gets an organization of its own
        // (an allowed delete ends the organization).
        const refusing = await team3();
        for (const who of ["member", "admin", "owner"] as const) {
          if (cell.allowed[who]) continue;
          const res = await cell.run(refusing, who);
          expect(res.status, `${cell.name} by ${who}`).toBe(403);
          expect(res.body.code).toBe(cell.code);
        }
        for (const who of ["member", "admin", "owner"] as const) {
          if (!cell.allowed[who]) continue;
          const world = who === "owner" ? refusing : await team3();
          const res = await cell.run(world, who);
          expect(res.status, `${cell.name} by ${who}: ${JSON.stringify(res.body)}`).toBe(200);
        }
      });
    }
  });

  describe("when a member's account is deleted", () => {
    /** Every member's role, as one of them reads the organization. */
    async function rolesIn(organizationId: string, reader: { client: { get(path: string): Promise<{ status: number; body: any }> } }) {
      const full = await reader.client.get(`/organization/get-full-organization?organizationId=${organizationId}`);
      expect(full.status).toBe(200);
      return Object.fromEntries((full.body.members as { userId: string; role: string }[]).map((m) => [m.userId, m.role]));
    }

    it("deletes the organizations they were alone in and hands the others to a successor owner", async () => {
      const { org, owner, admin, member } = await team3();
      const alone = await organization(owner);
      const gone = await owner.client.post("/delete-user", { password: PASSWORD });
      expect(gone.status).toBe(200);

      // Nobody else was in `alone`: it went with its owner.
      const runtime = server.gatehouse.runtime;
      expect(await runtime.stores.organizations.findOrganizationById(alone.id)).toBeNull();
      // `org` passed to its admin, the longest-standing admin; the plain member stays a member.
      const full = await admin.client.get(`/organization/get-full-organization?organizationId=${org.id}`);
      expect(full.status).toBe(200);
      const roles = Object.fromEntries(
        (full.body.members as { userId: string; role: string }[]).map((m) => [m.userId, m.role]),
      );
      expect(roles).toEqual({ [admin.id]: "owner", [member.id]: "member" });
      // The new owner can act as one.
      const renamed = await admin.client.post("/organization/update", { organizationId: org.id, data: { name: "Renamed" } });
      expect(renamed.status).toBe(200);
    });

    it("passes ownership to the longest-standing member when there is no admin", async () => {
      const [owner, first, second] = await Promise.all([person(), person(), person()]);
      const org = await organization(owner);
      await join(org.id, first, "member");
      // Joined in a later millisecond, so "longest-standing" is not decided by the id tie-break.
      await sleep(5);
      await join(org.id, second, "member");
      expect((await owner.client.post("/delete-user", { password: PASSWORD })).status).toBe(200);
      expect(await rolesIn(org.id, second)).toEqual({ [first.id]: "owner", [second.id]: "member" });
    });

    it("leaves ownership alone when another owner remains", async () => {
      const [owner, coOwner, member] = await Promise.all([person(), person(), person()]);
      const org = await organization(owner);
      await join(org.id, coOwner, "owner");
      await join(org.id, member, "member");
      expect((await owner.client.post("/delete-user", { password: PASSWORD })).status).toBe(200);
      expect(await rolesIn(org.id, member)).toEqual({ [coOwner.id]: "owner", [member.id]: "member" });
    });
  });

  describe("ids of another organization", () => {
    it("refuses member, invitation and team ids that belong to an organization the caller is not acting in", async () => {
      const a = await team3();
      const b = await team3();
      const bTeam = (await b.owner.client.get("/organization/list-teams")).body[0];
      const bInvitation = (
        await b.owner.client.post("/organization/invite-member", { email: `${uniqueSlug()}@example.com`, role: "member" })
      ).body;

      const removeForeign = await a.owner.client.post("/organization/remove-member", { memberIdOrEmail: b.plainMember.id });
      expect(removeForeign.status).toBe(400);
      expect(removeForeign.body.code).toBe("MEMBER_NOT_FOUND");
      const removeByEmail = await a.owner.client.post("/organization/remove-member", { memberIdOrEmail: b.member.email });
      expect(removeByEmail.body.code).toBe("MEMBER_NOT_FOUND");
      const promoteForeign = await a.owner.client.post("/organization/update-member-role", {
        memberId: b.plainMember.id,
        role: "admin",
      });
      expect(promoteForeign.status).toBe(400);
      expect(promoteForeign.body.code).toBe("MEMBER_NOT_FOUND");
      const actInB = await a.owner.client.post("/organization/remove-member", {
        memberIdOrEmail: b.plainMember.id,
        organizationId: b.org.id,
      });
      expect(actInB.status).toBe(400);

      const cancelForeign = await a.owner.client.post("/organization/cancel-invitation", { invitationId: bInvitation.id });
      expect(cancelForeign.status).toBe(400);
      expect(cancelForeign.body.code).toBe("INVITATION_NOT_FOUND");
      const listForeign = await a.owner.client.get(`/organization/list-invitations?organizationId=${b.org.id}`);
      expect(listForeign.status).toBe(403);

      for (const [path, body] of [
        ["/organization/update-team", { teamId: bTeam.id, data: { name: "Hijacked" } }],
        ["/organization/remove-team", { teamId: bTeam.id }],
        ["/organization/add-team-member", { teamId: bTeam.id, userId: a.member.id }],
        ["/organization/remove-team-member", { teamId: bTeam.id, userId: b.owner.id }],
        ["/organization/set-active-team", { teamId: bTeam.id }],
      ] as const) {
        const res = await a.owner.client.post(path, body);
        expect(res.status, path).toBe(400);
        expect(res.body.code, path).toBe("TEAM_NOT_FOUND");
      }
      const listTeamForeign = await a.owner.client.get(`/organization/list-team-members?teamId=${bTeam.id}`);
      expect(listTeamForeign.body.code).toBe("TEAM_NOT_FOUND");
      const inviteToForeignTeam = await a.owner.client.post("/organization/invite-member", {
        email: `${uniqueSlug()}@example.com`,
        role: "member",
        teamId: bTeam.id,
      });
      expect(inviteToForeignTeam.body.code).toBe("TEAM_NOT_FOUND");
      const aTeam = (await a.owner.client.get("/organization/list-teams")).body[0];
      const outsider = await a.owner.client.post("/organization/add-team-member", { teamId: aTeam.id, userId: b.member.id });
      expect(outsider.status).toBe(400);
      expect(outsider.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");

      // Nothing of b changed.
      const full = (await b.owner.client.get("/organization/get-full-organization")).body;
      expect(full.members).toHaveLength(3);
      expect(full.members.find((m: { id: string }) => m.id === b.plainMember.id).role).toBe("member");
      expect(full.invitations.find((i: { id: string }) => i.id === bInvitation.id).status).toBe("pending");
      expect(full.teams).toMatchObject([{ id: bTeam.id, name: bTeam.name }]);
    });
  });
});

describe("organization options", () => {
  it("defaults to SPEC.md's limits and this product's choices, and names a bad option", () => {
    const { organization } = resolveConfig({ secret: "s".repeat(32) });
    expect(organization).toMatchObject({
      allowUserToCreateOrganization: true,
      creatorRole: "owner",
      membershipLimit: 100,
      invitationLimit: 100,
      invitationExpiresIn: 172_800,
      requireEmailVerificationOnInvitation: true,
      teams: { enabled: true, defaultTeam: { enabled: true }, allowRemovingAllTeams: false },
    });
    expect(organization.organizationLimit).toBeUndefined();
    const rule = (user: User) => user.emailVerified;
    expect(resolveConfig({ secret: "x", organization: { allowUserToCreateOrganization: rule } }).organization.allowUserToCreateOrganization).toBe(rule);
    expect(() => resolveConfig({ secret: "x", organization: { allowUserToCreateOrganization: "yes" } } as never)).toThrow(
      /options\.organization\.allowUserToCreateOrganization/,
    );
    expect(() => resolveConfig({ secret: "x", organization: { creatorRole: "king" } } as never)).toThrow(/creatorRole/);
    expect(() => resolveConfig({ secret: "x", organization: { teams: { maximumTeams: 0 } } })).toThrow(/maximumTeams/);
  });
});

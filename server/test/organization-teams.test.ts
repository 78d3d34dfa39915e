import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "./helpers/databases.js";
import { uniqueEmail } from "./helpers/http-client.js";
import { fastHasher, organizationFixtures, type Person } from "./helpers/organization.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

const activeTeamOf = async (p: Person): Promise<string | null> =>
  (await p.client.get("/get-session")).body?.session?.activeTeamId ?? null;

describe.each(DIALECTS)("organization teams on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      dialect,
      {
        emailVerification: { sendOnSignUp: false },
        organization: { teams: { maximumTeams: 4, maximumMembersPerTeam: 3 } },
      },
      { hasher: fastHasher() },
    );
  });
  afterAll(async () => server?.close());
  const { client, person, organization, join, team3 } = organizationFixtures(() => server);

  describe("POST /organization/create-team and GET /organization/list-teams", () => {
    it("creates teams in the active or named organization, up to maximumTeams", async () => {
      const { org, owner, member } = await team3();
      const res = await owner.client.post("/organization/create-team", { name: "  Platform  " });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: "Platform", organizationId: org.id });
      expect(res.body.id).toMatch(/^[A-Za-z0-9]{32}$/);
      await owner.client.post("/organization/create-team", { name: "Second", organizationId: org.id });
      await owner.client.post("/organization/create-team", { name: "Third" });
      const over = await owner.client.post("/organization/create-team", { name: "Fifth" });
      expect(over.status).toBe(400);
      expect(over.body.code).toBe("YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS");
      const list = await member.client.get("/organization/list-teams");
      expect(list.status).toBe(200);
      expect(list.body.map((t: { name: string }) => t.name).sort()).toEqual(["Acme", "Platform", "Second", "Third"]);
    });

    it("refuses without an organization, outside one, bad names; server-side calls need no session", async () => {
      const { org } = await team3();
      const [orgless, stranger] = await Promise.all([person(), person()]);
      expect((await orgless.client.post("/organization/create-team", { name: "X" })).body.code).toBe("NO_ACTIVE_ORGANIZATION");
      const foreign = await stranger.client.post("/organization/create-team", { name: "X", organizationId: org.id });
      expect(foreign.status).toBe(400);
      expect(foreign.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
      const listForeign = await stranger.client.get(`/organization/list-teams?organizationId=${org.id}`);
      expect(listForeign.status).toBe(403);
      expect(listForeign.body.code).toBe("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
      for (const name of ["", "   ", "n".repeat(257), 7]) {
        const res = await stranger.client.post("/organization/create-team", { name, organizationId: org.id });
        expect(res.body.code).toBe("VALIDATION_ERROR");
      }
      const anonymous = await client().post("/organization/create-team", { name: "X", organizationId: org.id });
      expect(anonymous.status).toBe(401);
      const made = (await server.gatehouse.api.createTeam({ body: { name: "By server", organizationId: org.id } })) as {
        organizationId: string;
      };
      expect(made.organizationId).toBe(org.id);
    });
  });

  describe("POST /organization/update-team", () => {
    it("renames a team; unknown ids are Team not found", async () => {
      const { owner } = await team3();
      const team = (await owner.client.get("/organization/list-teams")).body[0];
      const res = await owner.client.post("/organization/update-team", { teamId: team.id, data: { name: "Renamed" } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: team.id, name: "Renamed" });
      expect(res.body.updatedAt).not.toBeNull();
      const unknown = await owner.client.post("/organization/update-team", { teamId: "missing", data: { name: "X" } });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ code: "TEAM_NOT_FOUND", message: "Team not found" });
      const empty = await owner.client.post("/organization/update-team", { teamId: team.id, data: { name: "" } });
      expect(empty.body.code).toBe("VALIDATION_ERROR");
    });
  });

  describe("POST /organization/remove-team", () => {
    it("keeps the last team, removes others, clears them from sessions and pending invitations", async () => {
      const { owner, member } = await team3();
      const defaultTeam = (await owner.client.get("/organization/list-teams")).body[0];
      const last = await owner.client.post("/organization/remove-team", { teamId: defaultTeam.id });
      expect(last.status).toBe(400);
      expect(last.body).toEqual({ code: "UNABLE_TO_REMOVE_LAST_TEAM", message: "Unable to remove last team" });
      const extra = (await owner.client.post("/organization/create-team", { name: "Extra" })).body;
      await owner.client.post("/organization/add-team-member", { teamId: extra.id, userId: member.id });
      await member.client.post("/organization/set-active-team", { teamId: extra.id });
      expect(await activeTeamOf(member)).toBe(extra.id);
      const invitation = (
        await owner.client.post("/organization/invite-member", {
          email: uniqueEmail(),
          role: "member",
          teamId: [extra.id, defaultTeam.id],
        })
      ).body;
      const res = await owner.client.post("/organization/remove-team", { teamId: extra.id });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: "Team removed successfully." });
      expect(await activeTeamOf(member)).toBeNull();
      const invitations = (await owner.client.get("/organization/list-invitations")).body;
      expect(invitations.find((i: { id: string }) => i.id === invitation.id).teamId).toBe(defaultTeam.id);
      expect((await owner.client.get("/organization/list-teams")).body.map((t: { id: string }) => t.id)).toEqual([defaultTeam.id]);
      const again = await owner.client.post("/organization/remove-team", { teamId: extra.id });
      expect(again.body.code).toBe("TEAM_NOT_FOUND");
    });

    it("server-side calls may remove a team without a session", async () => {
      const { owner } = await team3();
      const extra = (await owner.client.post("/organization/create-team", { name: "Extra" })).body;
      await expect(server.gatehouse.api.removeTeam({ body: { teamId: extra.id } })).resolves.toEqual({
        message: "Team removed successfully.",
      });
      const anonymous = await client().post("/organization/remove-team", { teamId: extra.id });
      expect(anonymous.status).toBe(401);
    });
  });

  describe("add-team-member, remove-team-member, list-team-members", () => {
    it("adds members of the organization (idempotently), up to maximumMembersPerTeam", async () => {
      const { org, owner, admin, member } = await team3();
      const team = (await owner.client.post("/organization/create-team", { name: "Crew" })).body;
      const added = await admin.client.post("/organization/add-team-member", { teamId: team.id, userId: member.id });
      expect(added.status).toBe(200);
      expect(added.body).toMatchObject({ teamId: team.id, userId: member.id });
      const repeated = await admin.client.post("/organization/add-team-member", { teamId: team.id, userId: member.id });
      expect(repeated.body.id).toBe(added.body.id);
      await owner.client.post("/organization/add-team-member", { teamId: team.id, userId: owner.id, organizationId: org.id });
      await owner.client.post("/organization/add-team-member", { teamId: team.id, userId: admin.id });
      const fourth = await join(org.id, await person());
      const full = await owner.client.post("/organization/add-team-member", { teamId: team.id, userId: fourth.userId });
      expect(full.status).toBe(403);
      expect(full.body.code).toBe("TEAM_MEMBER_LIMIT_REACHED");
      const listed = await member.client.get(`/organization/list-team-members?teamId=${team.id}`);
      expect(listed.body.map((m: { userId: string }) => m.userId).sort()).toEqual([owner.id, admin.id, member.id].sort());
    });

    it("removes a user from a team and clears it as their active team", async () => {
      const { owner, member } = await team3();
      const team = (await owner.client.post("/organization/create-team", { name: "Crew" })).body;
      await owner.client.post("/organization/add-team-member", { teamId: team.id, userId: member.id });
      await member.client.post("/organization/set-active-team", { teamId: team.id });
      const res = await owner.client.post("/organization/remove-team-member", { teamId: team.id, userId: member.id });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: "Team member removed successfully." });
      expect(await activeTeamOf(member)).toBeNull();
      const again = await owner.client.post("/organization/remove-team-member", { teamId: team.id, userId: member.id });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ code: "USER_IS_NOT_A_MEMBER_OF_THE_TEAM", message: "User is not a member of the team" });
      const byMember = await member.client.post("/organization/remove-team-member", { teamId: team.id, userId: owner.id });
      expect(byMember.status).toBe(403);
      expect(byMember.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER");
      const addByMember = await member.client.post("/organization/add-team-member", { teamId: team.id, userId: member.id });
      expect(addByMember.status).toBe(403);
    });

    it("lists a team's members for its members and for owners and admins; others and no team are refused", async () => {
      const { owner, member } = await team3();
      const team = (await owner.client.post("/organization/create-team", { name: "Closed" })).body;
      await owner.client.post("/organization/add-team-member", { teamId: team.id, userId: owner.id });
      expect((await owner.client.get(`/organization/list-team-members?teamId=${team.id}`)).status).toBe(200);
      const outsider = await member.client.get(`/organization/list-team-members?teamId=${team.id}`);
      expect(outsider.status).toBe(400);
      expect(outsider.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
      const noTeam = await member.client.get("/organization/list-team-members");
      expect(noTeam.status).toBe(400);
      expect(noTeam.body).toEqual({ code: "YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM", message: "You do not have an active team" });
      const ownActive = await owner.client.get("/organization/list-team-members"); // the default team is active
      expect(ownActive.status).toBe(200);
      expect(ownActive.body.map((m: { userId: string }) => m.userId)).toEqual([owner.id]);
    });
  });

  describe("set-active-team and list-user-teams", () => {
    it("sets and clears the active team, only for teams of the active organization the caller is in", async () => {
      const { owner, member } = await team3();
      const team = (await owner.client.post("/organization/create-team", { name: "Mine" })).body;
      const notIn = await member.client.post("/organization/set-active-team", { teamId: team.id });
      expect(notIn.status).toBe(403);
      expect(notIn.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
      await owner.client.post("/organization/add-team-member", { teamId: team.id, userId: member.id });
      const res = await member.client.post("/organization/set-active-team", { teamId: team.id });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: team.id, name: "Mine" });
      expect(await activeTeamOf(member)).toBe(team.id);
      expect((await member.client.post("/organization/set-active-team", {})).body.id).toBe(team.id);
      const cleared = await member.client.post("/organization/set-active-team", { teamId: null });
      expect(cleared.body).toBeNull();
      expect(await activeTeamOf(member)).toBeNull();
      const unknown = await member.client.post("/organization/set-active-team", { teamId: "missing" });
      expect(unknown.body.code).toBe("TEAM_NOT_FOUND");
      const orgless = await person();
      const none = await orgless.client.post("/organization/set-active-team", { teamId: team.id });
      expect(none.body.code).toBe("NO_ACTIVE_ORGANIZATION");
    });

    it("lists the caller's teams across organizations, and another member's for owners and admins", async () => {
      const a = await team3();
      const owner = a.owner;
      const b = await organization(owner, { name: "Beta" });
      const mine = (await owner.client.get("/organization/list-user-teams")).body.map((t: { name: string }) => t.name);
      expect(mine.sort()).toEqual(["Acme", "Beta"]);
      const inB = (await owner.client.get(`/organization/list-user-teams?organizationId=${b.id}`)).body;
      expect(inB.map((t: { name: string }) => t.name)).toEqual(["Beta"]);
      const switched = (await a.owner.client.post("/organization/set-active", { organizationId: a.org.id })).body;
      expect(switched.id).toBe(a.org.id);
      const crew = (await owner.client.post("/organization/create-team", { name: "Crew" })).body;
      await owner.client.post("/organization/add-team-member", { teamId: crew.id, userId: a.member.id });
      const theirs = await a.admin.client.get(`/organization/list-user-teams?userId=${a.member.id}`);
      expect(theirs.status).toBe(200);
      expect(theirs.body.map((t: { id: string }) => t.id)).toEqual([crew.id]);
      const byMember = await a.member.client.get(`/organization/list-user-teams?userId=${a.admin.id}`);
      expect(byMember.status).toBe(403);
      expect(byMember.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
      const stranger = await person();
      const notMember = await a.owner.client.get(`/organization/list-user-teams?userId=${stranger.id}`);
      expect(notMember.status).toBe(400);
      expect(notMember.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    });
  });
});

describe("organization team options (SQLite)", () => {
  let removable: TestServer;
  let teamless: TestServer;
  beforeAll(async () => {
    [removable, teamless] = await Promise.all([
      startTestServer(
        "sqlite",
        {
          emailVerification: { sendOnSignUp: false },
          organization: { teams: { allowRemovingAllTeams: true, defaultTeam: { enabled: false } } },
        },
        { hasher: fastHasher() },
      ),
      startTestServer(
        "sqlite",
        { emailVerification: { sendOnSignUp: false }, organization: { teams: { enabled: false } } },
        { hasher: fastHasher() },
      ),
    ]);
  });
  afterAll(async () => {
    await Promise.all([removable?.close(), teamless?.close()]);
  });

  it("defaultTeam.enabled false creates no team; allowRemovingAllTeams lets the last one go", async () => {
    const { person, organization } = organizationFixtures(() => removable);
    const owner = await person();
    await organization(owner);
    expect((await owner.client.get("/organization/list-teams")).body).toEqual([]);
    expect((await owner.client.get("/get-session")).body.session.activeTeamId).toBeNull();
    const only = (await owner.client.post("/organization/create-team", { name: "Only" })).body;
    const res = await owner.client.post("/organization/remove-team", { teamId: only.id });
    expect(res.status).toBe(200);
  });

  it("teams.enabled false: no default team, team routes answer 404, invitations cannot name teams", async () => {
    const { person, organization } = organizationFixtures(() => teamless);
    const owner = await person();
    await organization(owner);
    for (const [method, path] of [
      ["POST", "/organization/create-team"],
      ["GET", "/organization/list-teams"],
      ["POST", "/organization/set-active-team"],
      ["GET", "/organization/list-user-teams"],
    ] as const) {
      const res = await owner.client.request(method, path, method === "POST" ? { body: { name: "X" } } : {});
      expect(res.status, path).toBe(404);
    }
    const full = (await owner.client.get("/organization/get-full-organization")).body;
    expect(full.teams).toEqual([]);
    const invite = await owner.client.post("/organization/invite-member", { email: uniqueEmail(), role: "member", teamId: "whatever" });
    expect(invite.body.code).toBe("TEAM_NOT_FOUND");
  });
});

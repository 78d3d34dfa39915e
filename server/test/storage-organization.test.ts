import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateId } from "../src/crypto/random.js";
import { isUniqueViolation } from "../src/storage/constraint-errors.js";
import type { Stores } from "../src/modules.js";
import type { Invitation, Member, Organization, Team } from "../src/organization/store/index.js";
import type { User } from "../src/storage/models.js";
import { DIALECTS } from "./helpers/databases.js";
import { openMigratedStorage, userRecord, type MigratedStorage } from "./helpers/storage.js";

/** The organization repositories' conformance suite: SQLite and PostgreSQL must pass it unchanged. */
describe.each(DIALECTS)("organization storage on %s", (dialect) => {
  let storage: MigratedStorage;
  let stores: Stores;

  beforeAll(async () => {
    storage = await openMigratedStorage(dialect);
    stores = storage.stores;
  });
  afterAll(async () => storage?.close());

  const t0 = new Date("2026-03-04T05:06:07.891Z");
  async function user(): Promise<User> {
    const u = userRecord(t0, { name: "Member", emailVerified: true });
    await stores.users.createUser(u);
    return u;
  }
  async function organization(overrides: Partial<Organization> = {}): Promise<Organization> {
    const id = generateId();
    return stores.organizations.createOrganization({
      id,
      name: "Org",
      slug: `slug-${id.toLowerCase()}`,
      logo: null,
      metadata: JSON.stringify({ a: 1 }),
      createdAt: t0,
      requireTwoFactor: false,
      ...overrides,
    });
  }
  const member = (organizationId: string, userId: string, role = "member"): Member => ({
    id: generateId(),
    organizationId,
    userId,
    role,
    createdAt: t0,
  });
  const invitation = (organizationId: string, inviterId: string, overrides: Partial<Invitation> = {}): Invitation => ({
    id: generateId(),
    organizationId,
    email: `${generateId().toLowerCase()}@example.com`,
    role: "member",
    teamId: null,
    status: "pending",
    expiresAt: new Date(Date.now() + 3_600_000),
    createdAt: t0,
    inviterId,
    ...overrides,
  });
  const team = (organizationId: string): Team => ({ id: generateId(), name: "Team", organizationId, createdAt: t0, updatedAt: null });

  it("round-trips every row with dates to the millisecond", async () => {
    const owner = await user();
    const org = await organization();
    expect(await stores.organizations.findOrganizationById(org.id)).toEqual(org);
    expect(await stores.organizations.findOrganizationBySlug(org.slug)).toEqual(org);
    const m = await stores.members.createMember(member(org.id, owner.id, "owner"));
    const found = await stores.members.findMemberByUserId(org.id, owner.id);
    expect(found).toEqual({ ...m, user: { id: owner.id, name: owner.name, email: owner.email, image: null } });
    const i = await stores.invitations.createInvitation(invitation(org.id, owner.id, { teamId: "a,b" }));
    expect(await stores.invitations.findInvitationById(i.id)).toEqual(i);
    const tm = team(org.id);
    await stores.teams.createTeam(tm);
    expect(await stores.teams.findTeamById(tm.id)).toEqual(tm);
    await stores.teams.createTeamMember({ id: generateId(), teamId: tm.id, userId: owner.id, createdAt: t0 });
    expect(await stores.teams.listOrganizationTeamsWithCounts(org.id)).toEqual([{ ...tm, memberCount: 1 }]);
  });

  it("allows one membership per user and organization, and one team membership per user and team", async () => {
    const u = await user();
    const org = await organization();
    await stores.members.createMember(member(org.id, u.id));
    const duplicate = await stores.members.createMember(member(org.id, u.id)).catch((error: unknown) => error);
    expect(isUniqueViolation(duplicate)).toBe(true);
    const t = team(org.id);
    await stores.teams.createTeam(t);
    await stores.teams.createTeamMember({ id: generateId(), teamId: t.id, userId: u.id, createdAt: t0 });
    const again = await stores.teams
      .createTeamMember({ id: generateId(), teamId: t.id, userId: u.id, createdAt: t0 })
      .catch((error: unknown) => error);
    expect(isUniqueViolation(again)).toBe(true);
    const slugTaken = await organization({ slug: org.slug }).catch((error: unknown) => error);
    expect(isUniqueViolation(slugTaken)).toBe(true);
  });

  it("settles a pending invitation once: a second settle, or an expired one, finds nothing", async () => {
    const u = await user();
    const org = await organization();
    const open = await stores.invitations.createInvitation(invitation(org.id, u.id));
    const now = new Date();
    const [first, second] = await Promise.all([
      stores.invitations.settlePendingInvitation(open.id, "accepted", now),
      stores.invitations.settlePendingInvitation(open.id, "rejected", now),
    ]);
    expect([first?.status, second?.status].filter(Boolean)).toHaveLength(1);
    const expired = await stores.invitations.createInvitation(invitation(org.id, u.id, { expiresAt: new Date(now.getTime() - 1) }));
    expect(await stores.invitations.settlePendingInvitation(expired.id, "canceled", now)).toBeNull();
    expect((await stores.invitations.findInvitationById(expired.id))?.status).toBe("pending");
    expect(await stores.invitations.countPendingInvitations(org.id, now)).toBe(0);
  });

  it("deleting an organization takes its members, invitations, teams and team members; deleting a user their memberships", async () => {
    const [a, b] = [await user(), await user()];
    const org = await organization();
    await stores.members.createMember(member(org.id, a.id));
    await stores.members.createMember(member(org.id, b.id));
    const i = await stores.invitations.createInvitation(invitation(org.id, a.id));
    const t = team(org.id);
    await stores.teams.createTeam(t);
    await stores.teams.createTeamMember({ id: generateId(), teamId: t.id, userId: b.id, createdAt: t0 });
    await stores.users.deleteUser(b.id);
    expect(await stores.members.countOrganizationMembers(org.id)).toBe(1);
    expect(await stores.teams.countTeamMembers(t.id)).toBe(0);
    expect(await stores.organizations.lockOrganization(org.id)).toBe(true);
    expect(await stores.organizations.deleteOrganization(org.id)).toBe(true);
    expect(await stores.organizations.lockOrganization(org.id)).toBe(false);
    expect(await stores.members.countUserMemberships(a.id)).toBe(0);
    expect(await stores.invitations.findInvitationById(i.id)).toBeNull();
    expect(await stores.teams.findTeamById(t.id)).toBeNull();
  });

  it("clears an organization or a team from sessions: everyone's, or one user's", async () => {
    const [a, b] = [await user(), await user()];
    const session = (userId: string, organizationId: string | null, teamId: string | null) => ({
      id: generateId(),
      token: generateId(),
      userId,
      expiresAt: new Date(Date.now() + 3_600_000),
      ipAddress: "",
      userAgent: "",
      createdAt: t0,
      updatedAt: t0,
      activeOrganizationId: organizationId,
      activeTeamId: teamId,
      impersonatedBy: null,
      loginMethod: null,
    });
    const [sa, sb, sOther] = [session(a.id, "org-1", "team-1"), session(b.id, "org-1", "team-1"), session(b.id, "org-2", null)];
    for (const s of [sa, sb, sOther]) await stores.sessions.createSession(s);
    expect(await stores.sessions.clearActiveTeam("team-1", a.id)).toBe(1);
    expect((await stores.sessions.findSessionAndUser(sb.token))?.session.activeTeamId).toBe("team-1");
    expect(await stores.sessions.clearActiveOrganization("org-1", b.id)).toBe(1);
    expect((await stores.sessions.findSessionAndUser(sa.token))?.session.activeOrganizationId).toBe("org-1");
    expect(await stores.sessions.clearActiveOrganization("org-1")).toBe(1);
    const other = (await stores.sessions.findSessionAndUser(sOther.token))!.session;
    expect(other.activeOrganizationId).toBe("org-2");
    expect(await stores.sessions.setActiveOrganization(sa.token, "org-3", "team-3")).toBe(true);
    expect((await stores.sessions.findSessionAndUser(sa.token))?.session).toMatchObject({
      activeOrganizationId: "org-3",
      activeTeamId: "team-3",
    });
  });

  it("finds members mentioning a role with LIKE's wildcards escaped, and lists a user's teams only where they are a member", async () => {
    const [a, b] = [await user(), await user()];
    const org = await organization();
    await stores.members.createMember(member(org.id, a.id, "admin,owner"));
    await stores.members.createMember(member(org.id, b.id, "member"));
    expect((await stores.members.listMembersMentioningRole(org.id, "owner")).map((m) => m.userId)).toEqual([a.id]);
    expect(await stores.members.listMembersMentioningRole(org.id, "%")).toEqual([]);
    expect(await stores.members.listMembersMentioningRole(org.id, "_")).toEqual([]);
    const t = team(org.id);
    await stores.teams.createTeam(t);
    await stores.teams.createTeamMember({ id: generateId(), teamId: t.id, userId: b.id, createdAt: t0 });
    expect((await stores.teams.listUserTeams(b.id)).map((x) => x.id)).toEqual([t.id]);
    await stores.members.deleteMember(org.id, (await stores.members.findMemberByUserId(org.id, b.id))!.id);
    expect(await stores.teams.listUserTeams(b.id)).toEqual([]);
  });
});

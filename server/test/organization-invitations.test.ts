import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStores } from "../src/modules.js";
import { manualClock } from "./helpers/clock.js";
import { DIALECTS } from "./helpers/databases.js";
import { uniqueEmail } from "./helpers/http-client.js";
import { activeOrganizationOf, fastHasher, organizationFixtures, type Person } from "./helpers/organization.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { startTestSmtp, type TestSmtp } from "./helpers/smtp.js";

const ORIGIN = "http://app.test";
const DAY = 86_400_000;

describe.each(DIALECTS)("organization invitations on %s", (dialect) => {
  let server: TestServer;
  let smtp: TestSmtp;
  const clock = manualClock();

  beforeAll(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer(
      dialect,
      {
        baseURL: ORIGIN,
        email: { smtpUrl: smtp.url, from: "Gatehouse <auth@app.test>" },
        emailVerification: { sendOnSignUp: false },
        organization: { membershipLimit: 4, invitationLimit: 3 },
      },
      { hasher: fastHasher(), now: clock.now },
    );
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });
  const { client, person, organization, join, team3 } = organizationFixtures(() => server, ORIGIN);

  /**
   * Runs `work` while another transaction of the service holds the organization's lock (taken as an accept takes
   * it), and commits once `waiters` statements of the service wait for that lock (PostgreSQL).
   */
  async function whileOrganizationLocked<T>(organizationId: string, waiters: number, work: () => Promise<T>) {
    let running!: Promise<T>;
    await server.gatehouse.database.db.transaction().execute(async (trx) => {
      await createStores(trx, { dialect }).organizations.lockOrganization(organizationId);
      running = work();
      // Work that ends before it waits cannot wait any more: say what it answered rather than time out.
      let settled: PromiseSettledResult<T> | undefined;
      running.then(
        (value) => (settled = { status: "fulfilled", value }),
        (reason: unknown) => (settled = { status: "rejected", reason }),
      );
      const deadline = Date.now() + 30_000;
      for (;;) {
        // Who waits for this transaction's connection, directly or behind another waiter (a second waiter
        // queues on the first).
        const { rows } = await sql<{ n: string }>`
          with recursive w(pid) as (
            select pid from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))
            union select a.pid from pg_stat_activity a join w on w.pid = any(pg_blocking_pids(a.pid))
          ) select count(*) as n from w`.execute(trx);
        if (Number(rows[0]!.n) >= waiters) break;
        if (settled) {
          const answer = settled.status === "fulfilled" ? JSON.stringify(settled.value) : String((settled.reason as Error)?.message ?? settled.reason);
          throw new Error(`the work ended (${settled.status}: ${answer}) before ${waiters} statements waited for the lock`);
        }
        if (Date.now() > deadline) throw new Error(`fewer than ${waiters} statements came to wait for the lock`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    });
    return running;
  }

  async function invite(from: Person, body: Record<string, unknown>) {
    return from.client.post("/organization/invite-member", { role: "member", ...body });
  }

  describe("POST /organization/invite-member", () => {
    it("creates a pending two-day invitation and mails a link to the web app's invitation page", async () => {
      const owner = await person({ name: "Ada Owner" });
      const org = await organization(owner, { name: "Acme Labs" });
      const email = uniqueEmail("invitee");
      const before = clock.now().getTime();
      const res = await invite(owner, { email: email.toUpperCase() });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        organizationId: org.id,
        email,
        role: "member",
        teamId: null,
        status: "pending",
        inviterId: owner.id,
      });
      const life = new Date(res.body.expiresAt).getTime() - before;
      expect(life).toBeGreaterThanOrEqual(2 * DAY - 5_000);
      expect(life).toBeLessThanOrEqual(2 * DAY + 5_000);
      const mail = await smtp.waitFor(email);
      expect(mail.subject).toBe("Ada Owner invited you to join Acme Labs");
      expect(mail.text).toContain(`Ada Owner (${owner.email}) invited you to join the organization Acme Labs`);
      expect(mail.links).toContain(`${ORIGIN}/invitation/${res.body.id}`);
      expect(mail.html).toContain(`${ORIGIN}/invitation/${res.body.id}`);
    });

    it("writes in the recipient's saved language, else the inviter's Accept-Language, else English", async () => {
      const owner = await person({ name: "Ada" });
      await organization(owner, { name: "Acme" });
      const german = await person({ lang: "de" });
      await owner.client.post("/organization/invite-member", { email: german.email, role: "member" }, {
        headers: { "accept-language": "fr" },
      });
      expect((await smtp.waitFor(german.email)).subject).toBe("Ada hat dich zu Acme eingeladen");
      const stranger = uniqueEmail("fr");
      await owner.client.post("/organization/invite-member", { email: stranger, role: "member" }, {
        headers: { "accept-language": "fr-CA, en;q=0.5" },
      });
      expect((await smtp.waitFor(stranger)).subject).toBe("Ada vous invite à rejoindre Acme");
      const plain = uniqueEmail("en");
      await invite(owner, { email: plain });
      expect((await smtp.waitFor(plain)).subject).toBe("Ada invited you to join Acme");
    });

    it("refuses a second invitation, renews and re-sends one with resend, and refuses members", async () => {
      const { owner, member } = await team3();
      const email = uniqueEmail("twice");
      const first = await invite(owner, { email });
      await smtp.waitFor(email);
      const second = await invite(owner, { email });
      expect(second.status).toBe(400);
      expect(second.body).toEqual({
        code: "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION",
        message: "User is already invited to this organization",
      });
      clock.advance(60_000);
      try {
        const resent = await invite(owner, { email, resend: true });
        expect(resent.status).toBe(200);
        expect(resent.body.id).toBe(first.body.id);
        expect(new Date(resent.body.expiresAt).getTime()).toBeGreaterThan(new Date(first.body.expiresAt).getTime());
        await smtp.waitFor(email);
      } finally {
        clock.reset();
      }
      const existing = await invite(owner, { email: member.email });
      expect(existing.status).toBe(400);
      expect(existing.body.code).toBe("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION");
    });

    it("checks the email, the role, who may invite an owner, the teams and the invitation limit", async () => {
      const { org, owner, admin } = await team3();
      expect((await invite(owner, { email: "not-an-email" })).body).toEqual({ code: "INVALID_EMAIL", message: "Invalid email" });
      expect((await invite(owner, { email: uniqueEmail(), role: "king" })).body.code).toBe("ROLE_NOT_FOUND");
      expect((await invite(owner, { email: uniqueEmail(), role: "" })).body.code).toBe("VALIDATION_ERROR");
      const ownerInvite = await invite(admin, { email: uniqueEmail(), role: "owner" });
      expect(ownerInvite.status).toBe(403);
      expect(ownerInvite.body.message).toBe("You are not allowed to invite a user with this role");
      expect((await invite(owner, { email: uniqueEmail(), teamId: "missing" })).body.code).toBe("TEAM_NOT_FOUND");
      expect((await invite(owner, { email: uniqueEmail(), teamId: "a,b" })).body.code).toBe("VALIDATION_ERROR");
      const orgless = await person();
      const none = await invite(orgless, { email: uniqueEmail() });
      expect(none.body.code).toBe("NO_ACTIVE_ORGANIZATION");
      const notMember = await invite(orgless, { email: uniqueEmail(), organizationId: org.id });
      expect(notMember.body.code).toBe("MEMBER_NOT_FOUND");
      for (let i = 0; i < 3; i++) expect((await invite(owner, { email: uniqueEmail("limit") })).status).toBe(200);
      const over = await invite(owner, { email: uniqueEmail("limit") });
      expect(over.status).toBe(403);
      expect(over.body).toEqual({ code: "INVITATION_LIMIT_REACHED", message: "Invitation limit reached" });
    });
  });

  describe("POST /organization/accept-invitation", () => {
    it("makes the recipient a member with the invitation's role and teams, and sets the active organization", async () => {
      const { org, owner } = await team3();
      const ops = (await owner.client.post("/organization/create-team", { name: "Ops" })).body;
      const dev = (await owner.client.post("/organization/create-team", { name: "Dev" })).body;
      const invitee = await person();
      const invitation = await invite(owner, { email: invitee.email.toUpperCase(), role: ["admin"], teamId: [ops.id, dev.id] });
      expect(invitation.body.teamId).toBe(`${ops.id},${dev.id}`);
      const res = await invitee.client.post("/organization/accept-invitation", { invitationId: invitation.body.id });
      expect(res.status).toBe(200);
      expect(res.body.invitation).toMatchObject({ id: invitation.body.id, status: "accepted" });
      expect(res.body.member).toMatchObject({ organizationId: org.id, userId: invitee.id, role: "admin" });
      const session = (await invitee.client.get("/get-session")).body.session;
      expect(session.activeOrganizationId).toBe(org.id);
      expect(session.activeTeamId).toBeNull(); // two teams: none is chosen for them
      const teams = (await invitee.client.get("/organization/list-user-teams")).body.map((t: { id: string }) => t.id);
      expect(teams.sort()).toEqual([ops.id, dev.id].sort());
      const again = await invitee.client.post("/organization/accept-invitation", { invitationId: invitation.body.id });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ code: "INVITATION_NOT_FOUND", message: "Invitation not found" });
    });

    it("#12.3.12: an owner invitation from an owner since demoted to admin cannot be accepted", async () => {
      const [owner, coOwner, invitee] = await Promise.all([person(), person(), person()]);
      const org = await organization(owner);
      await join(org.id, coOwner, "owner");
      const invitation = await invite(owner, { email: invitee.email, role: "owner" });
      expect(invitation.status).toBe(200);
      const demoted = await coOwner.client.post("/organization/update-member-role", {
        memberId: org.members[0]!.id,
        role: "admin",
        organizationId: org.id,
      });
      expect(demoted.status).toBe(200);
      // As admin they may still invite, but not hand out ownership: the invitation no longer stands.
      const res = await invitee.client.post("/organization/accept-invitation", { invitationId: invitation.body.id });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: "INVITER_IS_NO_LONGER_ALLOWED_TO_INVITE_A_USER_WITH_THIS_ROLE",
        message: "Inviter is no longer allowed to invite a user with this role",
      });
      expect(await server.gatehouse.runtime.stores.members.findMemberByUserId(org.id, invitee.id)).toBeNull();
    });

    it("makes the invitation's only team the active team", async () => {
      const { owner } = await team3();
      const team = (await owner.client.get("/organization/list-teams")).body[0];
      const invitee = await person();
      const invitation = await invite(owner, { email: invitee.email, teamId: team.id });
      await invitee.client.post("/organization/accept-invitation", { invitationId: invitation.body.id });
      expect((await invitee.client.get("/get-session")).body.session.activeTeamId).toBe(team.id);
    });

    it("refuses anyone but the verified recipient, and unknown ids", async () => {
      const { owner } = await team3();
      const [invitee, stranger, unverified] = await Promise.all([person(), person(), person({ verified: false })]);
      const invitation = await invite(owner, { email: invitee.email });
      for (const path of ["/organization/accept-invitation", "/organization/reject-invitation"]) {
        const res = await stranger.client.post(path, { invitationId: invitation.body.id });
        expect(res.status, path).toBe(403);
        expect(res.body).toEqual({
          code: "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION",
          message: "You are not the recipient of the invitation",
        });
      }
      expect((await stranger.client.get(`/organization/get-invitation?id=${invitation.body.id}`)).status).toBe(403);
      const forUnverified = await invite(owner, { email: unverified.email });
      const accept = await unverified.client.post("/organization/accept-invitation", { invitationId: forUnverified.body.id });
      expect(accept.status).toBe(403);
      expect(accept.body.code).toBe("EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION");
      const view = await unverified.client.get(`/organization/get-invitation?id=${forUnverified.body.id}`);
      expect(view.status).toBe(403);
      expect(view.body.code).toBe("EMAIL_VERIFICATION_REQUIRED_TO_VIEW_OR_LIST_INVITATIONS_FOR_THE_SESSION_EMAIL");
      const unknown = await invitee.client.post("/organization/accept-invitation", { invitationId: "nope" });
      expect(unknown.status).toBe(400);
      expect(unknown.body.code).toBe("INVITATION_NOT_FOUND");
    });

    it("refuses an expired invitation everywhere", async () => {
      const { owner } = await team3();
      const invitee = await person();
      const invitation = await invite(owner, { email: invitee.email });
      clock.advance(2 * DAY + 60_000);
      try {
        const id = invitation.body.id;
        const accept = await invitee.client.post("/organization/accept-invitation", { invitationId: id });
        expect(accept.body.code).toBe("INVITATION_NOT_FOUND");
        const reject = await invitee.client.post("/organization/reject-invitation", { invitationId: id });
        expect(reject.body).toEqual({ code: "INVITATION_NOT_FOUND", message: "Invitation not found!" });
        const cancel = await owner.client.post("/organization/cancel-invitation", { invitationId: id });
        expect(cancel.body.code).toBe("INVITATION_NOT_FOUND");
        expect((await invitee.client.get(`/organization/get-invitation?id=${id}`)).status).toBe(400);
        // An expired invitation does not block a new one.
        expect((await invite(owner, { email: invitee.email })).status).toBe(200);
      } finally {
        clock.reset();
      }
    });

    it("counts members before accepting: 403 Organization membership limit reached, the invitation stays pending", async () => {
      const { org, owner } = await team3();
      await join(org.id, await person());
      const invitee = await person();
      const invitation = await invite(owner, { email: invitee.email });
      const res = await invitee.client.post("/organization/accept-invitation", { invitationId: invitation.body.id });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        code: "ORGANIZATION_MEMBERSHIP_LIMIT_REACHED",
        message: "Organization membership limit reached",
      });
      const still = await invitee.client.get(`/organization/get-invitation?id=${invitation.body.id}`);
      expect(still.body.status).toBe("pending");
      await expect(join(org.id, await person())).rejects.toMatchObject({ status: 403 });
    });

    it("lets exactly one of two concurrent accepts through (HTTP)", async () => {
      const { org, owner } = await team3();
      const invitee = await person();
      const invitation = await invite(owner, { email: invitee.email });
      const answers = await Promise.all(
        [0, 1].map(() => invitee.client.post("/organization/accept-invitation", { invitationId: invitation.body.id })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
      const loser = answers.find((a) => a.status === 400)!;
      expect(["FAILED_TO_RETRIEVE_INVITATION", "INVITATION_NOT_FOUND"]).toContain(loser.body.code);
      const query = `organizationId=${org.id}&filterField=userId&filterValue=${invitee.id}`;
      const members = (await owner.client.get(`/organization/list-members?${query}`)).body;
      expect(members.total).toBe(1);
    });

    it("lets exactly one of two concurrent accepts through (server-side API): the other fails to retrieve it", async () => {
      const { org, owner } = await team3();
      const invitee = await person();
      const invitation = await invite(owner, { email: invitee.email });
      const headers = { cookie: invitee.client.cookieHeader() };
      const accept = () => server.gatehouse.api.acceptInvitation({ headers, body: { invitationId: invitation.body.id } });
      // Both must read the invitation pending before either writes. On PostgreSQL another connection holds the
      // organization's row lock until both accepts wait behind it (past their read); SQLite's one connection
      // runs both reads before either transaction starts.
      const results =
        dialect === "postgres"
          ? await whileOrganizationLocked(org.id, 2, () => Promise.allSettled([accept(), accept()]))
          : await Promise.allSettled([accept(), accept()]);
      expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
      const failure = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      // The conditional UPDATE decides.
      expect(failure.reason).toMatchObject({ status: 400, message: "Failed to retrieve invitation" });
      const members = await server.gatehouse.runtime.stores.members.listMembers(org.id, {
        limit: 10,
        offset: 0,
        sortBy: "createdAt",
        sortDirection: "asc",
        filter: { field: "userId", operator: "eq", value: invitee.id },
      });
      expect(members.total).toBe(1);
    });
  });

  describe("POST reject-invitation and cancel-invitation", () => {
    it("rejects: the invitation is rejected and cannot be answered again", async () => {
      const { owner } = await team3();
      const invitee = await person();
      const invitation = await invite(owner, { email: invitee.email });
      const res = await invitee.client.post("/organization/reject-invitation", { invitationId: invitation.body.id });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ invitation: { id: invitation.body.id, status: "rejected" }, member: null });
      const again = await invitee.client.post("/organization/reject-invitation", { invitationId: invitation.body.id });
      expect(again.body).toEqual({ code: "INVITATION_NOT_FOUND", message: "Invitation not found!" });
      expect((await invitee.client.post("/organization/accept-invitation", { invitationId: invitation.body.id })).status).toBe(400);
      const unknown = await invitee.client.post("/organization/reject-invitation", { invitationId: "unknown" });
      expect(unknown.body.message).toBe("Invitation not found!");
    });

    it("cancels: only pending ones, and the recipient can no longer accept", async () => {
      const { owner } = await team3();
      const invitee = await person();
      const invitation = await invite(owner, { email: invitee.email });
      const res = await owner.client.post("/organization/cancel-invitation", { invitationId: invitation.body.id });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: invitation.body.id, status: "canceled" });
      expect((await owner.client.post("/organization/cancel-invitation", { invitationId: invitation.body.id })).status).toBe(400);
      const accept = await invitee.client.post("/organization/accept-invitation", { invitationId: invitation.body.id });
      expect(accept.body.code).toBe("INVITATION_NOT_FOUND");
    });
  });

  describe("GET get-invitation, list-invitations, list-user-invitations", () => {
    it("shows the recipient the invitation with the organization's name and slug and the inviter's email", async () => {
      const { org, owner, admin } = await team3();
      const invitee = await person();
      const invitation = await invite(admin, { email: invitee.email });
      const res = await invitee.client.get(`/organization/get-invitation?id=${invitation.body.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: invitation.body.id,
        status: "pending",
        organizationName: org.name,
        organizationSlug: org.slug,
        inviterEmail: admin.email,
      });
      await owner.client.post("/organization/remove-member", { memberIdOrEmail: admin.email });
      const orphaned = await invitee.client.get(`/organization/get-invitation?id=${invitation.body.id}`);
      expect(orphaned.status).toBe(400);
      expect(orphaned.body).toEqual({
        code: "INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION",
        message: "Inviter is no longer a member of the organization",
      });
      expect((await invitee.client.get("/organization/get-invitation?id=")).body.code).toBe("VALIDATION_ERROR");
    });

    it("lists an organization's invitations of every status for those who may invite", async () => {
      const { org, owner, admin, member } = await team3();
      const pending = await invite(owner, { email: uniqueEmail() });
      const canceled = await invite(owner, { email: uniqueEmail() });
      await owner.client.post("/organization/cancel-invitation", { invitationId: canceled.body.id });
      const toOwner = await invite(owner, { email: uniqueEmail(), role: "owner" });
      const list = await owner.client.get(`/organization/list-invitations?organizationId=${org.id}`);
      expect(list.status).toBe(200);
      const byId = Object.fromEntries(list.body.map((i: { id: string; status: string }) => [i.id, i.status]));
      expect(byId).toEqual({ [pending.body.id]: "pending", [canceled.body.id]: "canceled", [toOwner.body.id]: "pending" });
      // An admin does not see invitations that would make someone an owner.
      const asAdmin = (await admin.client.get("/organization/list-invitations")).body.map((i: { id: string }) => i.id);
      expect(asAdmin.sort()).toEqual([pending.body.id, canceled.body.id].sort());
      const asMember = await member.client.get("/organization/list-invitations");
      expect(asMember.status).toBe(403);
      expect(asMember.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_LIST_INVITATIONS_FOR_THIS_ORGANIZATION");
      const orgless = await person();
      const none = await orgless.client.get("/organization/list-invitations");
      expect(none.status).toBe(400);
      expect(none.body).toEqual({ code: "ORGANIZATION_ID_IS_REQUIRED", message: "Organization ID is required" });
      const foreign = await orgless.client.get(`/organization/list-invitations?organizationId=${org.id}`);
      expect(foreign.status).toBe(403);
      expect(foreign.body.message).toBe("You are not a member of this organization");
    });

    it("lists the signed-in user's pending invitations; an email is for server-side calls only", async () => {
      const a = await team3();
      const b = await team3();
      const invitee = await person();
      const fromA = await invite(a.owner, { email: invitee.email });
      const fromB = await invite(b.owner, { email: invitee.email });
      await invitee.client.post("/organization/reject-invitation", { invitationId: fromB.body.id });
      const res = await invitee.client.get("/organization/list-user-invitations");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject([{ id: fromA.body.id, organizationName: a.org.name, organizationSlug: a.org.slug }]);
      const byEmail = await invitee.client.get(`/organization/list-user-invitations?email=${encodeURIComponent(invitee.email)}`);
      expect(byEmail.status).toBe(400);
      expect(byEmail.body.message).toBe("User email cannot be passed for client side API calls.");
      const serverSide = (await server.gatehouse.api.listUserInvitations({ query: { email: invitee.email } })) as { id: string }[];
      expect(serverSide.map((i) => i.id)).toEqual([fromA.body.id]);
      const unverified = await person({ verified: false });
      expect((await unverified.client.get("/organization/list-user-invitations")).status).toBe(403);
      const anonymous = await client().get("/organization/list-user-invitations");
      expect(anonymous.status).toBe(401);
    });
  });

  it("accepting while in another organization switches the active one to the new organization", async () => {
    const { org, owner } = await team3();
    const invitee = await person();
    const own = await organization(invitee);
    expect(await activeOrganizationOf(invitee)).toBe(own.id);
    const invitation = await invite(owner, { email: invitee.email });
    await invitee.client.post("/organization/accept-invitation", { invitationId: invitation.body.id });
    expect(await activeOrganizationOf(invitee)).toBe(org.id);
  });
});

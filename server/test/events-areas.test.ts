import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemEventSource } from "../src/events/emit.js";
import type { StoredEvent } from "../src/events/store/index.js";
import type { EventType } from "../src/events/types.js";
import { linkProfileToUser, signInWithProfile } from "../src/social/account-linking.js";
import type { OAuthTokens } from "../src/social/provider.js";
import { totpCode } from "../src/two-factor/totp.js";
import { issueEmailToken } from "../src/verification/email-token.js";
import { signUpAdmin } from "./helpers/admin.js";
import { manualClock } from "./helpers/clock.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { uniqueSlug } from "./helpers/organization.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { startTestSmtp, type TestSmtp } from "./helpers/smtp.js";
import { SoftAuthenticator } from "./helpers/soft-authenticator.js";

/**
 * Issue #17 item 1: each change of security state writes exactly one event (its type, actor, subject and
 * organization), through the real routes on both databases, area by area; and a change that fails after its write
 * (forced in its transaction) leaves no event.
 */

const NEW_PASSWORD = "another horse battery";
const TOTP = { digits: 6, period: 30 } as const;

interface Expected {
  type: EventType;
  actorId: string | null;
  userId: string | null;
  organizationId?: string | null;
  data?: Record<string, unknown>;
}

describe.each(DIALECTS)("each change writes its event on %s", (dialect) => {
  let server: TestServer;
  let smtp: TestSmtp;
  let admin: TestClient;
  let adminId: string;
  const clock = manualClock();

  beforeAll(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer(
      dialect,
      {
        email: { smtpUrl: smtp.url },
        emailVerification: { sendOnSignUp: false },
        user: { deleteUser: { enabled: true, sendDeleteAccountVerification: false } },
        socialProviders: { github: { clientId: "github-client-id", clientSecret: "github-secret" } },
        account: { accountLinking: { trustedProviders: ["github"] } },
      },
      { now: clock.now },
    );
    admin = new TestClient(server.base);
    adminId = (await signUpAdmin(server, admin)).user.id;
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const client = () => new TestClient(server.base);
  const stores = () => server.gatehouse.runtime.stores;
  const latestSeq = async () => (await stores().events.list({}, 1))[0]?.seq ?? 0;

  /** Runs the change and answers the events it wrote (every event after the ones before it). */
  async function eventsOf(change: () => Promise<unknown>): Promise<StoredEvent[]> {
    const before = await latestSeq();
    await change();
    return stores().events.listAfter(before, 100);
  }

  /** The change writes exactly these events, in this order. */
  async function expectEvents(change: () => Promise<unknown>, expected: Expected[]): Promise<StoredEvent[]> {
    const events = await eventsOf(change);
    expect(events.map((e) => e.type)).toEqual(expected.map((e) => e.type));
    expected.forEach((want, i) => {
      const got = events[i]!;
      expect({ type: got.type, actorId: got.actorId, userId: got.userId }, want.type).toEqual({
        type: want.type,
        actorId: want.actorId,
        userId: want.userId,
      });
      if (want.organizationId !== undefined) expect(got.organizationId, want.type).toBe(want.organizationId);
      if (want.data) expect(got.data, want.type).toMatchObject(want.data);
    });
    return events;
  }

  const ok = async (res: Promise<{ status: number; text: string }>, status = 200) => {
    const answer = await res;
    expect(answer.status, answer.text).toBe(status);
    return answer;
  };

  it("user: updated, email change (unverified at once; verified: requested, then confirmed), verified, deleted", async () => {
    const c = client();
    const { user } = await signUp(c);
    await expectEvents(() => ok(c.post("/update-user", { name: "Renamed", lang: "de" })), [
      { type: "user.updated", actorId: user.id, userId: user.id, data: { fields: ["name", "lang"] } },
    ]);
    const moved = uniqueEmail("moved");
    await expectEvents(() => ok(c.post("/change-email", { newEmail: moved })), [
      { type: "email.changed", actorId: user.id, userId: user.id, data: { from: user.email, to: moved } },
    ]);
    // The new address is mailed a verification link; it is proven here by one issued as the service issues it.
    await smtp.waitFor(moved);
    const { token: proof } = await issueEmailToken(
      stores(),
      { email: moved, userId: user.id, purpose: "verify-email" },
      { secret: server.gatehouse.config.secret, expiresIn: 3600, now: clock.now() },
    );
    await expectEvents(() => ok(c.get(`/verify-email?token=${proof}`)), [
      { type: "email.verified", actorId: user.id, userId: user.id, data: { email: moved, passwordRemoved: false } },
    ]);
    const next = uniqueEmail("next");
    await expectEvents(() => ok(c.post("/change-email", { newEmail: next })), [
      { type: "email.change_requested", actorId: user.id, userId: user.id, data: { newEmail: next } },
    ]);
    const mail = await smtp.waitFor(moved);
    const link = mail.links.find((l) => l.includes("/verify-email"))!;
    const token = new URL(link).searchParams.get("token")!;
    await expectEvents(() => ok(c.get(`/verify-email?token=${token}`)), [
      { type: "email.changed", actorId: user.id, userId: user.id, data: { from: moved, to: next } },
    ]);
    await expectEvents(() => ok(c.post("/delete-user", { password: PASSWORD })), [
      { type: "user.deleted", actorId: user.id, userId: user.id, data: { email: next } },
    ]);
  });

  it("sessions: sign-out, revoke one, revoke the others, revoke all", async () => {
    const { user, email } = await signUp(client());
    const sign = async () => {
      const c = client();
      await ok(c.post("/sign-in/email", { email, password: PASSWORD }));
      return c;
    };
    const [a, b] = [await sign(), await sign()];
    await sign();
    const [signedOut] = await expectEvents(() => ok(a.post("/sign-out")), [
      { type: "session.signed_out", actorId: user.id, userId: user.id },
    ]);
    expect(typeof signedOut!.data.sessionId).toBe("string");
    const own = ((await b.get("/get-session")).body as { session: { token: string } }).session.token;
    const sessions = (await b.get("/list-sessions")).body as { token: string }[];
    const other = sessions.find((s) => s.token !== own)!;
    await expectEvents(() => ok(b.post("/revoke-session", { token: other.token })), [
      { type: "session.revoked", actorId: user.id, userId: user.id, data: { scope: "one", count: 1 } },
    ]);
    await sign();
    await expectEvents(() => ok(b.post("/revoke-other-sessions")), [
      { type: "session.revoked", actorId: user.id, userId: user.id, data: { scope: "others" } },
    ]);
    await expectEvents(() => ok(b.post("/revoke-sessions")), [
      { type: "session.revoked", actorId: user.id, userId: user.id, data: { scope: "all", count: 1 } },
    ]);
  });

  it("passwords: changed, reset by a mailed link, set by an administrator", async () => {
    const c = client();
    const { user, email } = await signUp(c);
    await expectEvents(() => ok(c.post("/change-password", { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, revokeOtherSessions: true })), [
      { type: "password.changed", actorId: user.id, userId: user.id, data: { otherSessionsRevoked: true } },
    ]);
    await ok(client().post("/request-password-reset", { email, redirectTo: "/reset-password" }));
    const mail = await smtp.waitFor(email, (m) => m.subject === "Reset your password");
    const token = mail.links.find((l) => l.includes("/reset-password/"))!.split("/reset-password/")[1]!.split("?")[0]!;
    await expectEvents(() => ok(client().post("/reset-password", { token, newPassword: PASSWORD })), [
      { type: "password.reset", actorId: user.id, userId: user.id },
    ]);
    await expectEvents(() => ok(admin.post("/admin/set-user-password", { userId: user.id, newPassword: NEW_PASSWORD })), [
      { type: "password.set", actorId: adminId, userId: user.id, data: { byAdministrator: true } },
    ]);
  });

  it("sign-ins: succeeded with its method and factors, failed with a reason, a banned user refused", async () => {
    const { user, email } = await signUp(client());
    await expectEvents(() => ok(client().post("/sign-in/email", { email, password: PASSWORD })), [
      { type: "sign_in.succeeded", actorId: user.id, userId: user.id, data: { method: "email", factors: ["password"] } },
    ]);
    await expectEvents(() => ok(client().post("/sign-in/email", { email, password: "wrong password!" }), 401), [
      { type: "sign_in.failed", actorId: null, userId: user.id, data: { method: "email", reason: "invalid_credentials" } },
    ]);
  });

  it("administrators: create, update, role, ban, unban, revoke sessions, impersonate and stop, remove", async () => {
    const email = uniqueEmail("made");
    const made = await eventsOf(() => ok(admin.post("/admin/create-user", { email, password: PASSWORD, name: "Made" })));
    expect(made.map((e) => e.type)).toEqual(["user.created"]);
    const userId = (await stores().users.findUserByEmail(email))!.id;
    expect(made[0]).toMatchObject({ actorId: adminId, userId, data: { method: "admin", email } });
    await expectEvents(() => ok(admin.post("/admin/update-user", { userId, data: { name: "Remade" } })), [
      { type: "user.updated", actorId: adminId, userId, data: { fields: ["name"] } },
    ]);
    await expectEvents(() => ok(admin.post("/admin/set-role", { userId, role: "admin" })), [
      { type: "user.role_changed", actorId: adminId, userId, data: { from: "user", to: "admin" } },
    ]);
    await ok(admin.post("/admin/set-role", { userId, role: "user" }));
    const c = client();
    await ok(c.post("/sign-in/email", { email, password: PASSWORD }));
    await expectEvents(() => ok(admin.post("/admin/ban-user", { userId, banReason: "spam" })), [
      { type: "user.banned", actorId: adminId, userId, data: { reason: "spam", expiresAt: null, sessionsRevoked: 1 } },
    ]);
    await expectEvents(() => ok(client().post("/sign-in/email", { email, password: PASSWORD }), 403), [
      { type: "sign_in.failed", actorId: null, userId, data: { method: "email", reason: "banned" } },
    ]);
    await expectEvents(() => ok(admin.post("/admin/unban-user", { userId })), [
      { type: "user.unbanned", actorId: adminId, userId, data: { expired: false } },
    ]);
    // Unbanning a user who is not banned changes nothing: no event.
    await expectEvents(() => ok(admin.post("/admin/unban-user", { userId })), []);
    await ok(client().post("/sign-in/email", { email, password: PASSWORD }));
    await expectEvents(() => ok(admin.post("/admin/revoke-user-sessions", { userId })), [
      { type: "session.revoked", actorId: adminId, userId, data: { scope: "all", count: 1 } },
    ]);
    const acting = client();
    await ok(acting.post("/sign-in/email", { email: (await stores().users.findUserById(adminId))!.email, password: PASSWORD }));
    await expectEvents(() => ok(acting.post("/admin/impersonate-user", { userId })), [
      { type: "impersonation.started", actorId: adminId, userId },
    ]);
    // While impersonating, the administrator is the actor of what the session does.
    await expectEvents(() => ok(acting.post("/update-user", { name: "Done by the admin" })), [
      { type: "user.updated", actorId: adminId, userId },
    ]);
    await expectEvents(() => ok(acting.post("/admin/stop-impersonating")), [
      { type: "impersonation.stopped", actorId: adminId, userId },
    ]);
    await expectEvents(() => ok(admin.post("/admin/remove-user", { userId })), [
      { type: "user.deleted", actorId: adminId, userId, data: { email } },
    ]);
  });

  it("second factors: enabled, a wrong code at sign-in, disabled, reset by an administrator", async () => {
    const c = client();
    const { user, email } = await signUp(c);
    const enable = await ok(c.post("/two-factor/enable", { password: PASSWORD }));
    const secret = new URL((enable as unknown as { body: { totpURI: string } }).body.totpURI).searchParams.get("secret")!;
    await expectEvents(() => ok(c.post("/two-factor/verify-totp", { code: totpCode(secret, TOTP, clock.now()) })), [
      { type: "two_factor.enabled", actorId: user.id, userId: user.id, data: { method: "totp" } },
    ]);
    clock.advance(31_000);
    const pending = client();
    // The password's step owes a second one: no session, no sign-in event yet.
    await expectEvents(() => ok(pending.post("/sign-in/email", { email, password: PASSWORD })), []);
    const wrong = String((Number(totpCode(secret, TOTP, clock.now())) + 1) % 1_000_000).padStart(6, "0");
    await expectEvents(() => ok(pending.post("/two-factor/verify-totp", { code: wrong }), 401), [
      { type: "sign_in.failed", actorId: null, userId: user.id, data: { method: "totp", reason: "invalid_second_factor" } },
    ]);
    await expectEvents(() => ok(pending.post("/two-factor/verify-totp", { code: totpCode(secret, TOTP, clock.now()) })), [
      { type: "sign_in.succeeded", actorId: user.id, userId: user.id, data: { method: "email", factors: ["password", "totp"] } },
    ]);
    await expectEvents(() => ok(pending.post("/two-factor/disable", { password: PASSWORD })), [
      { type: "two_factor.disabled", actorId: user.id, userId: user.id },
    ]);
    await expectEvents(() => ok(admin.post("/admin/reset-user-factors", { userId: user.id })), [
      { type: "two_factor.reset", actorId: adminId, userId: user.id, data: { totp: false, passkeysRemoved: 0 } },
    ]);
  });

  it("passkeys: added, a sign-in with it, removed", async () => {
    const c = client();
    const { user } = await signUp(c);
    const authenticator = new SoftAuthenticator(new URL(server.url).origin);
    const options = await ok(c.get("/passkey/generate-register-options"));
    const response = authenticator.createCredential((options as unknown as { body: never }).body);
    const [added] = await expectEvents(() => ok(c.post("/passkey/verify-registration", { response, name: "Laptop" })), [
      { type: "passkey.added", actorId: user.id, userId: user.id, data: { name: "Laptop" } },
    ]);
    const other = client();
    const auth = await ok(other.get("/passkey/generate-authenticate-options"));
    const assertion = authenticator.getAssertion((auth as unknown as { body: never }).body);
    await expectEvents(() => ok(other.post("/passkey/verify-authentication", { response: assertion })), [
      { type: "sign_in.succeeded", actorId: user.id, userId: user.id, data: { method: "passkey" } },
    ]);
    await expectEvents(() => ok(c.post("/passkey/delete-passkey", { id: added!.data.passkeyId, password: PASSWORD })), [
      { type: "passkey.removed", actorId: user.id, userId: user.id, data: { passkeyId: added!.data.passkeyId } },
    ]);
  });

  it("accounts: a provider sign-up, a link by address, a link-social, an unlink", async () => {
    const { runtime } = server.gatehouse;
    const provider = runtime.oauth.providers.get("github")!;
    const tokens: OAuthTokens = {
      accessToken: "at",
      refreshToken: null,
      idToken: null,
      accessTokenExpiresAt: null,
      refreshTokenExpiresAt: null,
      scopes: [],
      claims: null,
      raw: {},
    };
    const profile = (id: string, email: string) => ({ user: { id, email, emailVerified: true, name: "Octo", image: null }, data: {} });
    const source = systemEventSource(runtime);
    const newcomer = uniqueEmail("octo");
    const [created] = await expectEvents(
      () => signInWithProfile(source, runtime, provider, profile(`gh-${newcomer}`, newcomer), tokens, { email: newcomer, requestSignUp: true }),
      [{ type: "user.created", actorId: expect.any(String) as never, userId: expect.any(String) as never, data: { method: "social", providerId: "github" } }],
    );
    expect(created!.actorId).toBe(created!.userId);

    const c = client();
    const { user, email } = await signUp(c);
    await stores().users.updateUser(user.id, { emailVerified: true, updatedAt: clock.now() });
    await expectEvents(() => signInWithProfile(source, runtime, provider, profile(`gh-${email}`, email), tokens, { email, requestSignUp: true }), [
      { type: "account.linked", actorId: user.id, userId: user.id, data: { providerId: "github", accountId: `gh-${email}` } },
    ]);
    await expectEvents(() => linkProfileToUser(source, runtime, provider, profile(`gh2-${email}`, email), tokens, { userId: user.id, email }), [
      { type: "account.linked", actorId: user.id, userId: user.id, data: { accountId: `gh2-${email}` } },
    ]);
    await expectEvents(() => ok(c.post("/unlink-account", { providerId: "github", accountId: `gh2-${email}` })), [
      { type: "account.unlinked", actorId: user.id, userId: user.id, data: { providerId: "github", accountId: `gh2-${email}` } },
    ]);
  });

  it("organizations: created, updated, members added, role changed, removed, left; invitations; deleted", async () => {
    const owner = client();
    const { user: ownerUser } = await signUp(owner);
    const slug = uniqueSlug();
    const [created] = await expectEvents(() => ok(owner.post("/organization/create", { name: "Events Inc", slug })), [
      { type: "organization.created", actorId: ownerUser.id, userId: ownerUser.id, data: { name: "Events Inc", slug, role: "owner" } },
    ]);
    const organizationId = created!.organizationId!;
    expect(organizationId).toEqual(expect.any(String));
    const inOrg = { organizationId };
    await expectEvents(() => ok(owner.post("/organization/update", { organizationId, data: { name: "Events Ltd" } })), [
      { type: "organization.updated", actorId: ownerUser.id, userId: null, ...inOrg, data: { fields: ["name"] } },
    ]);

    const joiner = client();
    const { user: joinerUser, email: joinerEmail } = await signUp(joiner);
    await stores().users.updateUser(joinerUser.id, { emailVerified: true, updatedAt: clock.now() });
    const [invited] = await expectEvents(() => ok(owner.post("/organization/invite-member", { email: joinerEmail, role: "member", organizationId })), [
      { type: "invitation.created", actorId: ownerUser.id, userId: null, ...inOrg, data: { email: joinerEmail, role: "member", renewed: false } },
    ]);
    const invitationId = invited!.data.invitationId as string;
    const [accepted] = await expectEvents(() => ok(joiner.post("/organization/accept-invitation", { invitationId })), [
      { type: "invitation.accepted", actorId: joinerUser.id, userId: joinerUser.id, ...inOrg, data: { invitationId, role: "member" } },
    ]);
    const memberId = accepted!.data.memberId as string;
    await expectEvents(() => ok(owner.post("/organization/update-member-role", { organizationId, memberId, role: "admin" })), [
      { type: "member.role_changed", actorId: ownerUser.id, userId: joinerUser.id, ...inOrg, data: { memberId, from: "member", to: "admin" } },
    ]);
    await expectEvents(() => ok(joiner.post("/organization/leave", { organizationId })), [
      { type: "member.removed", actorId: joinerUser.id, userId: joinerUser.id, ...inOrg, data: { memberId, left: true } },
    ]);

    const declined = client();
    const { user: declinedUser, email: declinedEmail } = await signUp(declined);
    await stores().users.updateUser(declinedUser.id, { emailVerified: true, updatedAt: clock.now() });
    const [second] = await eventsOf(() => ok(owner.post("/organization/invite-member", { email: declinedEmail, role: "member", organizationId })));
    await expectEvents(() => ok(declined.post("/organization/reject-invitation", { invitationId: second!.data.invitationId })), [
      { type: "invitation.rejected", actorId: declinedUser.id, userId: declinedUser.id, ...inOrg },
    ]);
    const [third] = await eventsOf(() => ok(owner.post("/organization/invite-member", { email: uniqueEmail("never"), role: "member", organizationId })));
    await expectEvents(() => ok(owner.post("/organization/cancel-invitation", { invitationId: third!.data.invitationId })), [
      { type: "invitation.canceled", actorId: ownerUser.id, userId: null, ...inOrg, data: { invitationId: third!.data.invitationId } },
    ]);

    const added = await signUp(client());
    const cookie = owner.cookieHeader();
    const member = await expectEvents(
      () => server.gatehouse.api.addMember({ body: { userId: added.user.id, role: "member", organizationId }, headers: { cookie } }),
      [{ type: "member.added", actorId: ownerUser.id, userId: added.user.id, ...inOrg, data: { role: "member" } }],
    );
    await expectEvents(() => ok(owner.post("/organization/remove-member", { organizationId, memberIdOrEmail: member[0]!.data.memberId })), [
      { type: "member.removed", actorId: ownerUser.id, userId: added.user.id, ...inOrg, data: { left: false } },
    ]);
    await expectEvents(() => ok(owner.post("/organization/delete", { organizationId })), [
      { type: "organization.deleted", actorId: ownerUser.id, userId: null, ...inOrg, data: { name: "Events Ltd", slug } },
    ]);
  });

  describe("a change that fails after its write leaves no event", () => {
    it("a password change failing in a module's hook, after its event was written, rolls the event back with it", async () => {
      const failing = await startTestServer(
        dialect,
        {},
        {
          modules: [
            ...server.gatehouse.runtime.modules,
            {
              name: "failing",
              enabled: () => true,
              endpoints: {},
              migrations: {},
              tables: {},
              repositories: () => ({}),
              errors: {},
              async beforeUserRemoved() {
                return {};
              },
              async onCredentialsReset() {
                throw new Error("forced failure after the change");
              },
            },
          ],
        },
      );
      try {
        const c = new TestClient(failing.base);
        const { user } = await signUp(c);
        const before = (await failing.gatehouse.runtime.stores.events.list({ userId: user.id }, 100)).length;
        // change-password writes the password and its event, then the modules' hooks run in the same
        // transaction: one throws.
        const res = await c.post("/change-password", { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
        expect(res.status).toBe(500);
        const after = await failing.gatehouse.runtime.stores.events.list({ userId: user.id }, 100);
        expect(after).toHaveLength(before);
        expect(after.map((e) => e.type)).not.toContain("password.changed");
        // The change itself is gone too: the old password still signs in.
        expect((await new TestClient(failing.base).post("/sign-in/email", { email: user.email, password: PASSWORD })).status).toBe(200);
      } finally {
        await failing.close();
      }
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type Landing } from "./helpers/browser.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { organizationFixtures } from "./helpers/organization.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { startTestSmtp, type TestSmtp } from "./helpers/smtp.js";
import { startTestIdentityProvider, type IdentityAccount, type TestIdentityProvider } from "./helpers/test-identity-provider.js";

/**
 * Issue #12 part 3, items 7 to 11 (and #14's reset items): attacks on mailed tokens, pre-registration and linking,
 * run over real HTTP against both databases, with mail read from a real SMTP server and social sign-in through a
 * real OpenID provider.
 */
const NEW_PASSWORD = "a brand new password";

/** A mailed link's path and query below the API base (links are built on the request's origin). */
const pathOf = (link: string) => {
  const url = new URL(link);
  return url.pathname.replace(/^\/api\/auth/, "") + url.search;
};

const sessionCookieSet = (setCookies: string[]) =>
  setCookies.some((line) => line.startsWith("better-auth.session_token=") && !/max-age=0/i.test(line));

describe.each(DIALECTS)("mailed tokens, pre-registration and linking on %s", (dialect) => {
  let smtp: TestSmtp;
  let idp: TestIdentityProvider;
  /** Auto sign-in after verification, deletion by mailed link, Google (untrusted for linking) as the provider. */
  let server: TestServer;
  /** The same with requireEmailVerification: sign-up hands out no session. */
  let strict: TestServer;
  let counter = 0;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    idp = await startTestIdentityProvider();
    const issuer = idp.issuer;
    const endpoints = {
      authorization: `${issuer}/auth`,
      token: `${issuer}/token`,
      userInfo: `${issuer}/me`,
      jwks: `${issuer}/jwks`,
      issuer,
    };
    [server, strict] = await Promise.all([
      startTestServer(dialect, {
        email: { smtpUrl: smtp.url },
        emailVerification: { autoSignInAfterVerification: true },
        user: { deleteUser: { enabled: true, sendDeleteAccountVerification: true } },
        socialProviders: { google: { clientId: "google-client", clientSecret: "google-secret", endpoints } },
      }),
      startTestServer(dialect, {
        email: { smtpUrl: smtp.url },
        emailAndPassword: { requireEmailVerification: true },
      }),
    ]);
    idp.start([
      {
        client_id: "google-client",
        client_secret: "google-secret",
        redirect_uris: [`${server.base}/callback/google`],
        token_endpoint_auth_method: "client_secret_post",
      },
    ]);
  });
  afterAll(async () => {
    await Promise.allSettled([server?.close(), strict?.close()]);
    await idp?.close();
    await smtp?.close();
  });

  const client = (on: TestServer = server) => new TestClient(on.base);

  async function verificationLink(email: string): Promise<string> {
    const mail = await smtp.waitFor(email, (m) => m.links.some((l) => l.includes("/verify-email?")));
    return mail.links.find((l) => l.includes("/verify-email?"))!;
  }

  async function resetToken(email: string, on: TestServer = server): Promise<string> {
    expect((await client(on).post("/forget-password", { email, redirectTo: "/reset-password" })).status).toBe(200);
    const mail = await smtp.waitFor(email, (m) => m.subject === "Reset your password");
    return new URL(mail.links.find((l) => l.includes("/reset-password/"))!).pathname.split("/").pop()!;
  }

  /** A person at the provider, who signs in there next. */
  const person = (overrides: Partial<IdentityAccount> = {}): IdentityAccount => {
    counter += 1;
    const account: IdentityAccount = {
      sub: `${dialect}-attack-${counter}-${Math.random().toString(36).slice(2, 8)}`,
      email: uniqueEmail("idp"),
      email_verified: true,
      name: "Provider Person",
      ...overrides,
    };
    idp.addAccount(account);
    idp.loginAs(account.sub);
    return account;
  };
  const onApp = (url: URL) => url.origin === server.url && !url.pathname.startsWith("/api/auth");
  const landed = (landing: Landing) => landing.url.pathname + landing.url.search;
  async function browserSession(browser: Browser) {
    const res = await browser.request("GET", `${server.base}/get-session`);
    return (await res.json()) as { user: Record<string, unknown> } | null;
  }

  describe("#12.3.7: a verification link signs in once, at most", () => {
    it("#12.3.7: a used verification link does not sign in again after the owner changed the password and revoked every session", async () => {
      const owner = client();
      const { email } = await signUp(owner);
      const link = await verificationLink(email);
      const used = await owner.get(pathOf(link));
      expect(used.status).toBe(302);
      expect(used.headers.get("location")).toBe("/verify-email?verified=true");
      expect((await owner.get("/get-session")).body.user.emailVerified).toBe(true);
      const changed = await owner.post("/change-password", {
        currentPassword: PASSWORD,
        newPassword: NEW_PASSWORD,
        revokeOtherSessions: true,
      });
      expect(changed.status).toBe(200);

      const thief = client();
      const replay = await thief.get(pathOf(link));
      expect(replay.status).toBe(302);
      expect(replay.headers.get("location")).toBe("/verify-email?error=invalid_token");
      expect(sessionCookieSet(replay.setCookies)).toBe(false);
      expect((await thief.get("/get-session")).body ?? null).toBeNull();
      const token = new URL(link).searchParams.get("token")!;
      const json = await client().get(`/verify-email?token=${token}`);
      expect(json.status).toBe(401);
      expect(json.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    });

    it("#12.3.7: once the address is proven, an older unused link signs no one in", async () => {
      const owner = client();
      const { email } = await signUp(owner);
      const older = await verificationLink(email);
      expect((await owner.post("/send-verification-email", { email })).status).toBe(200);
      const newer = await verificationLink(email);
      expect((await owner.get(pathOf(newer))).headers.get("location")).toBe("/verify-email?verified=true");

      const thief = client();
      const res = await thief.get(pathOf(older));
      expect(res.headers.get("location")).toBe("/verify-email?error=invalid_token");
      expect((await thief.get("/get-session")).body ?? null).toBeNull();
    });

    it("#12.3.7: of two browsers opening the same link at once, exactly one is signed in", async () => {
      const { email } = await signUp(client());
      const link = await verificationLink(email);
      const [a, b] = [client(), client()];
      const answers = await Promise.all([a.get(pathOf(link)), b.get(pathOf(link))]);
      const locations = answers.map((r) => r.headers.get("location")).sort();
      expect(locations).toEqual(["/verify-email?error=invalid_token", "/verify-email?verified=true&passwordRemoved=true"]);
      const sessions = await Promise.all([a.get("/get-session"), b.get("/get-session")]);
      expect(sessions.filter((s) => s.body?.user).length).toBe(1);
    });
  });

  it("#12.3.8: a verification token verifies only the user it was made for, never the next owner of the address", async () => {
    const u = client();
    const address = uniqueEmail("moving");
    await signUp(u, { email: address });
    const uLink = await verificationLink(address);
    // U moves to another address (unverified: at once); V then registers the address U left.
    expect((await u.post("/change-email", { newEmail: uniqueEmail("moved") })).status).toBe(200);
    const v = client();
    const { user: vUser } = await signUp(v, { email: address });
    await verificationLink(address); // V's own mail, left unused

    const replayer = client();
    const res = await replayer.get(pathOf(uLink));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/verify-email?error=invalid_token");
    expect((await replayer.get("/get-session")).body ?? null).toBeNull();
    const vNow = await server.gatehouse.runtime.stores.users.findUserById(vUser.id);
    expect(vNow!.emailVerified).toBe(false);
    expect((await v.get("/get-session")).body.user.id).toBe(vUser.id);
  });

  describe("#12.3.9: pre-registration takeover", () => {
    it("#12.3.9: the victim's proof of the mailbox ends the attacker's session and removes the attacker's password; the registrant's own browser keeps both", async () => {
      const attacker = client();
      const victimEmail = uniqueEmail("victim");
      await signUp(attacker, { email: victimEmail });
      expect((await attacker.get("/get-session")).body.user.email).toBe(victimEmail);
      const link = await verificationLink(victimEmail);

      const victim = client();
      const proof = await victim.get(pathOf(link));
      expect(proof.status).toBe(302);
      expect(proof.headers.get("location")).toBe("/verify-email?verified=true&passwordRemoved=true");
      expect((await attacker.get("/get-session")).body ?? null).toBeNull();
      const withOldPassword = await client().post("/sign-in/email", { email: victimEmail, password: PASSWORD });
      expect(withOldPassword.status).toBe(401);
      // The mailbox owner is signed in by the link (autoSignInAfterVerification) and sets a password by reset.
      expect((await victim.get("/get-session")).body.user).toMatchObject({ email: victimEmail, emailVerified: true });
      const token = await resetToken(victimEmail);
      expect((await client().post("/reset-password", { token, newPassword: NEW_PASSWORD })).body).toEqual({ status: true });
      expect((await client().post("/sign-in/email", { email: victimEmail, password: NEW_PASSWORD })).status).toBe(200);

      // The registrant who opens the link in their own browser keeps the password and the session, signed in or not.
      const registrant = client();
      const { email } = await signUp(registrant);
      const ownLink = await verificationLink(email);
      expect((await registrant.get(pathOf(ownLink))).headers.get("location")).toBe("/verify-email?verified=true");
      expect((await registrant.get("/get-session")).body.user.emailVerified).toBe(true);
      expect((await client().post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);

      // Signed out before opening the link: the browser that chose the password is still known.
      const away = client();
      const other = await signUp(away);
      const otherLink = await verificationLink(other.email);
      expect((await away.post("/sign-out", {})).status).toBe(200);
      expect((await away.get(pathOf(otherLink))).headers.get("location")).toBe("/verify-email?verified=true");
      expect((await client().post("/sign-in/email", { email: other.email, password: PASSWORD })).status).toBe(200);
    });

    it("#12.3.9: with requireEmailVerification the attacker's password stops working once the victim proves the address", async () => {
      const victimEmail = uniqueEmail("victim");
      const signedUp = await client(strict).post("/sign-up/email", { name: "A", email: victimEmail, password: PASSWORD });
      expect(signedUp.body.token).toBeNull();
      const link = await verificationLink(victimEmail);
      const token = new URL(link).searchParams.get("token")!;
      const proof = await client(strict).get(`/verify-email?token=${token}`);
      expect(proof.status).toBe(200);
      expect(proof.body).toMatchObject({ status: true, passwordRemoved: true, user: { email: victimEmail, emailVerified: true } });
      const attempt = await client(strict).post("/sign-in/email", { email: victimEmail, password: PASSWORD });
      expect(attempt.status).toBe(401);

      // A real registrant who opens the link in the browser they signed up in keeps their password.
      const registrant = client(strict);
      const email = uniqueEmail("registrant");
      await registrant.post("/sign-up/email", { name: "R", email, password: PASSWORD });
      expect((await registrant.get(pathOf(await verificationLink(email)))).headers.get("location")).toBe("/verify-email?verified=true");
      expect((await client(strict).post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
      // So does one who proved the password on a refused sign-in in another browser, then opened the new link there.
      const laterEmail = uniqueEmail("later");
      await client(strict).post("/sign-up/email", { name: "L", email: laterEmail, password: PASSWORD });
      await verificationLink(laterEmail);
      const phone = client(strict);
      expect((await phone.post("/sign-in/email", { email: laterEmail, password: PASSWORD })).status).toBe(403);
      expect((await phone.get(pathOf(await verificationLink(laterEmail)))).headers.get("location")).toBe("/verify-email?verified=true");
      expect((await client(strict).post("/sign-in/email", { email: laterEmail, password: PASSWORD })).status).toBe(200);
    });

    it("#12.3.9: the victim's later social sign-in joins a row the attacker can no longer enter", async () => {
      const attacker = new Browser();
      const victimEmail = uniqueEmail("victim");
      const signedUp = await attacker.request("POST", `${server.base}/sign-up/email`, {
        json: { name: "Attacker", email: victimEmail, password: PASSWORD },
      });
      expect(signedUp.status).toBe(200);
      const userId = ((await signedUp.json()) as { user: { id: string } }).user.id;
      const victim = new Browser();
      const proof = await victim.request("GET", await verificationLink(victimEmail));
      expect(proof.headers.get("location")).toBe("/verify-email?verified=true&passwordRemoved=true");

      person({ email: victimEmail, email_verified: true });
      const fresh = new Browser();
      const { url } = (await (
        await fresh.request("POST", `${server.base}/sign-in/social`, { json: { provider: "google", callbackURL: "/home" } })
      ).json()) as { url: string };
      expect(landed(await fresh.follow(url, onApp))).toBe("/home");
      expect((await browserSession(fresh))?.user.id).toBe(userId);
      expect(await browserSession(attacker)).toBeNull();
      const withOldPassword = await attacker.request("POST", `${server.base}/sign-in/email`, {
        json: { email: victimEmail, password: PASSWORD },
      });
      expect(withOldPassword.status).toBe(401);
    });
  });

  describe("#12.3.10: link-social and an address the provider did not verify", () => {
    it("#12.3.10: refuses the redirect flow with unable_to_link_account and an ID token with 401", async () => {
      const owner = new Browser();
      const email = uniqueEmail("owner");
      await owner.request("POST", `${server.base}/sign-up/email`, { json: { name: "Owner", email, password: PASSWORD } });
      await owner.request("GET", await verificationLink(email));
      expect((await browserSession(owner))?.user.emailVerified).toBe(true);

      const stranger = person({ email, email_verified: false });
      const start = await owner.request("POST", `${server.base}/link-social`, {
        json: { provider: "google", callbackURL: "/account", errorCallbackURL: "/link-failed" },
      });
      expect(start.status).toBe(200);
      const { url } = (await start.json()) as { url: string };
      expect(landed(await owner.follow(url, onApp))).toBe("/link-failed?error=unable_to_link_account");

      const token = await idp.signIdToken({ sub: stranger.sub, aud: "google-client", email, email_verified: false });
      const byToken = await owner.request("POST", `${server.base}/link-social`, { json: { provider: "google", idToken: { token } } });
      expect(byToken.status).toBe(401);
      expect(((await byToken.json()) as { message: string }).message).toBe("Account not linked - linking not allowed");
      const accounts = (await (await owner.request("GET", `${server.base}/list-accounts`)).json()) as { providerId: string }[];
      expect(accounts.map((a) => a.providerId)).toEqual(["credential"]);
    });
  });

  describe("#12.3.11: reset tokens end together, and token-bearing answers are private", () => {
    it("#12.3.11: the older of two reset tokens stops working once the newer one is used", async () => {
      const { email } = await signUp(client());
      const older = await resetToken(email);
      const newer = await resetToken(email);
      expect((await client().post("/reset-password", { token: newer, newPassword: NEW_PASSWORD })).body).toEqual({
        status: true,
      });
      const stale = await client().post("/reset-password", { token: older, newPassword: "the attacker's choice" });
      expect(stale.status).toBe(400);
      expect(stale.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
      const link = await client().get(`/reset-password/${older}?callbackURL=/reset-password`);
      expect(link.headers.get("location")).toBe("/reset-password?error=INVALID_TOKEN");
    });

    it("#12.3.11: twenty concurrent redemptions of one reset token: exactly one sets the password", async () => {
      const { email } = await signUp(client());
      const token = await resetToken(email);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => client().post("/reset-password", { token, newPassword: `${NEW_PASSWORD}-${i}` })),
      );
      const won = answers.filter((answer) => answer.status === 200);
      expect(won).toHaveLength(1);
      for (const lost of answers.filter((answer) => answer.status !== 200)) {
        expect(lost.status).toBe(400);
        expect(lost.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
      }
      // The one that won set the password; every other one's password was never stored.
      const signIns = await Promise.all(
        answers.map((_, i) => client().post("/sign-in/email", { email, password: `${NEW_PASSWORD}-${i}` })),
      );
      expect(signIns.filter((answer) => answer.status === 200)).toHaveLength(1);
    });

    it("#12.3.11 (#14): a password change ends every reset link mailed before it", async () => {
      const owner = client();
      const { email } = await signUp(owner);
      const token = await resetToken(email);
      const changed = await owner.post("/change-password", { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
      expect(changed.status).toBe(200);
      const stale = await client().post("/reset-password", { token, newPassword: "the attacker's choice" });
      expect(stale.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
      expect((await client().post("/sign-in/email", { email, password: NEW_PASSWORD })).status).toBe(200);
    });

    it("#12.3.11: every answer carrying a token in its URL or body is sent with no-store and no-referrer", async () => {
      const private_ = (res: { headers: Headers }) => ({
        cacheControl: res.headers.get("cache-control"),
        referrerPolicy: res.headers.get("referrer-policy"),
      });
      const expected = { cacheControl: "no-store", referrerPolicy: "no-referrer" };
      const owner = client();
      const { email } = await signUp(owner);
      const token = await resetToken(email);
      const reset = await client().get(`/reset-password/${token}?callbackURL=/reset-password`);
      expect(reset.headers.get("location")).toBe(`/reset-password?token=${token}`);
      expect(private_(reset)).toEqual(expected);
      expect(private_(await client().get("/reset-password/nope?callbackURL=/reset-password"))).toEqual(expected);
      expect(private_(await client().post("/reset-password", { token: "x".repeat(24), newPassword: NEW_PASSWORD }))).toEqual(
        expected,
      );

      const link = await verificationLink(email);
      expect(private_(await owner.get(pathOf(link)))).toEqual(expected);
      expect(private_(await client().get("/verify-email?token=forged"))).toEqual(expected);

      expect((await owner.post("/delete-user", {})).body.message).toBe("Verification email sent");
      const mail = await smtp.waitFor(email, (m) => m.subject === "Confirm the deletion of your account");
      const deletion = mail.links.find((l) => l.includes("/delete-user/callback"))!;
      const wrong = new URL(deletion);
      wrong.searchParams.set("token", "0".repeat(32));
      expect(private_(await owner.get(pathOf(wrong.href)))).toEqual(expected);
      const deleted = await owner.get(pathOf(deletion));
      expect(deleted.status).toBe(302);
      expect(private_(deleted)).toEqual(expected);

      // The invitation link's id, read by the invitee's page.
      const org = organizationFixtures(() => server);
      const [inviter, invitee] = await Promise.all([org.person(), org.person()]);
      await org.organization(inviter);
      const invited = await inviter.client.post("/organization/invite-member", { email: invitee.email, role: "member" });
      expect(invited.status).toBe(200);
      const viewed = await invitee.client.get(`/organization/get-invitation?id=${invited.body.id}`);
      expect(viewed.status).toBe(200);
      expect(private_(viewed)).toEqual(expected);
    });

    it("#14: a password reset signs the user out everywhere by default", async () => {
      const laptop = client();
      const { email } = await signUp(laptop);
      const phone = client();
      expect((await phone.post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
      const token = await resetToken(email);
      expect((await client().post("/reset-password", { token, newPassword: NEW_PASSWORD })).body).toEqual({ status: true });
      expect((await laptop.get("/get-session")).body ?? null).toBeNull();
      expect((await phone.get("/get-session")).body ?? null).toBeNull();
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpAdmin } from "./helpers/admin.js";
import { DIALECTS } from "./helpers/databases.js";
import { PASSWORD, signUp, TestClient, uniqueEmail } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { startTestSmtp, type ReceivedMail, type TestSmtp } from "./helpers/smtp.js";

const ORIGIN = "http://app.test";
const NEW_PASSWORD = "a brand new passphrase";

const pathOf = (link: string) => {
  const url = new URL(link);
  return url.pathname.replace(/^\/api\/auth/, "") + url.search;
};

const subject = (text: string) => (mail: ReceivedMail) => mail.subject === text;

describe.each(DIALECTS)("#14 account security on %s", (dialect) => {
  let server: TestServer;
  let smtp: TestSmtp;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer(dialect, {
      baseURL: ORIGIN,
      email: { smtpUrl: smtp.url, from: "Gatehouse <auth@app.test>" },
      user: { deleteUser: { enabled: true } },
    });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });
  const client = () => new TestClient(server.base, ORIGIN);
  const taken = new Set<ReceivedMail>();
  /** smtp.waitFor, remembering what this file took, so noMoreMail can tell what arrived besides. */
  async function take(to: string, where?: (mail: ReceivedMail) => boolean) {
    const mail = await smtp.waitFor(to, where);
    taken.add(mail);
    return mail;
  }

  /** Signs up, verifies the address by its link, and returns the signed-in client. */
  async function verifiedUser(overrides: Record<string, unknown> = {}) {
    const c = client();
    const signed = await signUp(c, overrides);
    const mail = await take(signed.email, subject("Verify your email address"));
    await c.get(pathOf(mail.links[0]!));
    return { c, ...signed };
  }

  /** No mail to `to` other than the ones already taken arrives within a moment. */
  async function noMoreMail(to: string, where: (mail: ReceivedMail) => boolean = () => true) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const untaken = smtp.received.filter((m) => !taken.has(m) && m.to === to.toLowerCase() && where(m));
    expect(untaken.map((m) => m.subject)).toEqual([]);
  }

  describe("#14 pages that claim what did not happen: the redirects carry what happened", () => {
    it("#14: a verification link's redirect says verified=true only when it verified; a reused one says invalid_token", async () => {
      const c = client();
      const { email } = await signUp(c);
      const mail = await take(email, subject("Verify your email address"));
      const used = await c.get(pathOf(mail.links[0]!));
      expect(used.headers.get("location")).toBe("/verify-email?verified=true");
      const reused = await c.get(pathOf(mail.links[0]!));
      expect(reused.headers.get("location")).toBe("/verify-email?error=invalid_token");
    });

    it("#14: the deletion link's redirect carries deleted=true only when it deleted the account", async () => {
      const c = client();
      const { email, user } = await signUp(c);
      await c.post("/delete-user", { callbackURL: "/account-deleted" });
      const mail = await take(email, subject("Confirm the deletion of your account"));
      const link = pathOf(mail.links.find((l) => l.includes("/delete-user/callback"))!);
      const signedOut = await client().get(link);
      expect(signedOut.headers.get("location")).toBe("/account-deleted?error=unauthorized");
      const done = await c.get(link);
      expect(done.headers.get("location")).toBe("/account-deleted?deleted=true");
      expect(await server.gatehouse.runtime.stores.users.findUserById(user.id)).toBeNull();
    });
  });

  describe("#14 your password was changed", () => {
    it("#14: change-password mails the owner, in their language, with what to do and no token", async () => {
      const { c, email } = await verifiedUser();
      expect((await c.post("/update-user", { lang: "ru" })).status).toBe(200);
      const changed = await c.post("/change-password", { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
      expect(changed.status).toBe(200);
      const notice = await take(email, subject("Ваш пароль изменён"));
      expect(notice.text).toContain(email);
      expect(notice.text).toContain("Если нет");
      expect(notice.links).toEqual([`${ORIGIN}/forgot-password`]);
      expect(notice.text).not.toMatch(/token=|reset-password\//);
    });

    it("#14: a reset mails the notice after the change, and so does an administrator setting the password", async () => {
      const { email, user } = await verifiedUser();
      await client().post("/forget-password", { email, redirectTo: "/reset-password" });
      const reset = await take(email, subject("Reset your password"));
      const landing = await client().get(pathOf(reset.links[0]!));
      const token = new URL(landing.headers.get("location")!, ORIGIN).searchParams.get("token")!;
      expect((await client().post("/reset-password", { token, newPassword: NEW_PASSWORD })).status).toBe(200);
      const afterReset = await take(email, subject("Your password was changed"));
      expect(afterReset.html).toContain(`href="${ORIGIN}/forgot-password"`);

      const admin = client();
      await signUpAdmin(server, admin);
      const set = await admin.post("/admin/set-user-password", { userId: user.id, newPassword: "set by the admin" });
      expect(set.status).toBe(200);
      await take(email, subject("Your password was changed"));
    });

    it("#14: set-password (server API) mails the notice; a refused change mails nothing", async () => {
      const c = client();
      const { email, user } = await signUp(c);
      await take(email, subject("Verify your email address"));
      const wrong = await c.post("/change-password", { currentPassword: "not the password", newPassword: NEW_PASSWORD });
      expect(wrong.status).toBe(400);
      await noMoreMail(email, subject("Your password was changed"));

      // A user without a password (as after signing up through a provider) sets one through the server API.
      const credential = await server.gatehouse.runtime.stores.accounts.findCredentialAccount(user.id);
      await server.gatehouse.runtime.stores.accounts.clearAccountPassword(credential!.id, new Date());
      const headers = new Headers({ cookie: c.cookieHeader() });
      await server.gatehouse.api.setPassword({ body: { newPassword: NEW_PASSWORD }, headers });
      await take(email, subject("Your password was changed"));
    });
  });

  describe("#14 your email address was changed", () => {
    it("#14: the old address is asked with a subject that says what it asks, and told once the change took effect", async () => {
      const { c, email } = await verifiedUser({ name: "Olga" });
      expect((await c.post("/update-user", { lang: "pl" })).status).toBe(200);
      const newEmail = uniqueEmail("moved");
      expect((await c.post("/change-email", { newEmail, callbackURL: "/account?emailChanged=1" })).status).toBe(200);
      const ask = await take(email, subject("Potwierdź zmianę adresu e-mail"));
      // Asking is not telling: nothing says it changed before the link is used.
      await noMoreMail(email);

      await c.get(pathOf(ask.links[0]!));
      const told = await take(email, subject("Twój adres e-mail został zmieniony"));
      expect(told.text).toContain(email);
      expect(told.text).toContain(newEmail);
      expect(told.text).toContain("Jeśli nie");
      expect(told.links).toEqual([]);
      await take(newEmail);
    });

    it("#14: an administrator's change tells the old, verified address; an unverified address changed at once is not mailed", async () => {
      const { email, user } = await verifiedUser();
      const admin = client();
      await signUpAdmin(server, admin);
      const newEmail = uniqueEmail("by-admin");
      expect((await admin.post("/admin/update-user", { userId: user.id, data: { email: newEmail } })).status).toBe(200);
      const told = await take(email, subject("Your email address was changed"));
      expect(told.text).toContain(newEmail);

      const unverified = client();
      const signed = await signUp(unverified);
      await take(signed.email, subject("Verify your email address"));
      const moved = uniqueEmail("moved");
      expect((await unverified.post("/change-email", { newEmail: moved })).status).toBe(200);
      await take(moved, subject("Verify your email address"));
      await noMoreMail(signed.email);
    });
  });

  describe("#14 profile pictures are checked as the page will load them", () => {
    it.each([
      ["http://example.com/me.png"],
      ["javascript:alert(1)"],
      ["data:text/html;base64,PHNjcmlwdD4="],
      ["data:image/svg+xml;base64,PHN2Zz4="],
      ["https://user:pass@example.com/me.png"],
      ["//example.com/me.png"],
      ["me.png"],
    ])("#14: update-user refuses %s beside the image field", async (image) => {
      const c = client();
      await signUp(c);
      const res = await c.post("/update-user", { image });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.issues.map((issue: { path: string }) => issue.path)).toEqual(["body.image"]);
    });

    it("#14: https:// and a small data:image URL are accepted, empty and null clear it; sign-up checks the same", async () => {
      const c = client();
      await signUp(c);
      for (const image of ["https://example.com/me.png", "data:image/png;base64,iVBORw0KGgo=", "", null]) {
        expect((await c.post("/update-user", { image })).status).toBe(200);
        expect((await c.get("/get-session")).body.user.image).toBe(image);
      }
      const refused = await client().post("/sign-up/email", {
        name: "Pic",
        email: uniqueEmail(),
        password: PASSWORD,
        image: "http://example.com/me.png",
      });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe("VALIDATION_ERROR");
    });
  });

  it("#14: GET /features tells the password length bounds the forms check before sending", async () => {
    const res = await client().get("/features");
    expect(res.body.emailAndPassword).toMatchObject({ minPasswordLength: 8, maxPasswordLength: 128 });
  });
});

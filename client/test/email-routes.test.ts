import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from "vitest";
import { startTestSmtp, type TestSmtp } from "../../server/test/helpers/smtp.js";
import { AuthClientError, createAuthClient, type DeleteUserBody, type OutboxMail } from "../src/index.js";
import { flushIO, nodeClient, PASSWORD, signUpFresh, startTestServer, valueMatching, type TestServer } from "./helpers.js";

/** The mailed link to a route of the API (links are built on the server's own URL here). */
function linkTo(mail: { links: string[] }, route: string): URL {
  const link = mail.links.find((l) => new URL(l).pathname.startsWith(`/api/auth${route}`));
  if (!link) throw new Error(`no ${route} link in ${mail.links.join(", ")}`);
  return new URL(link);
}

describe("mail-backed route methods against a real server and a real SMTP server", () => {
  let smtp: TestSmtp;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer("sqlite", {
      email: { smtpUrl: smtp.url },
      user: { deleteUser: { enabled: true } },
    });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  describe("sendVerificationEmail and verifyEmail", () => {
    it("mails a link whose token verifies the address, and the session store sees it", async () => {
      const { client } = nodeClient(server.url);
      const { email } = await signUpFresh(client);
      await smtp.waitFor(email); // the sign-up's own verification mail

      expect(await client.sendVerificationEmail({ email })).toEqual({ data: { status: true }, error: null });
      const token = linkTo(await smtp.waitFor(email), "/verify-email").searchParams.get("token")!;

      const unbind = client.$session.listen(() => undefined);
      await valueMatching(client.$session, (s) => s.data?.user.emailVerified === false);
      const verified = await client.verifyEmail({ token });
      expect(verified.error).toBeNull();
      expect(verified.data).toMatchObject({ status: true, user: { email, emailVerified: true } });
      // /verify-email is a session-changing path: the store reads the session again by itself.
      const state = await valueMatching(client.$session, (s) => s.data?.user.emailVerified === true);
      expect(state.error).toBeNull();
      unbind();
    });

    it("answers 401 INVALID_TOKEN for a forged token", async () => {
      const { error } = await nodeClient(server.url).client.verifyEmail({ token: "not.a.token" });
      expect(error).toEqual({ status: 401, code: "INVALID_TOKEN", message: "invalid token" });
    });
  });

  describe("forgetPassword and resetPassword", () => {
    it("mails a reset link whose token sets a new password, once", async () => {
      const { email } = await signUpFresh(nodeClient(server.url).client);
      await smtp.waitFor(email);
      const { client } = nodeClient(server.url);
      expect(await client.forgetPassword({ email, redirectTo: "/reset-password" })).toEqual({ data: { status: true }, error: null });
      const link = linkTo(await smtp.waitFor(email), "/reset-password/");
      expect(link.searchParams.get("callbackURL")).toBe("/reset-password");
      const token = link.pathname.split("/").at(-1)!;

      expect(await client.resetPassword({ newPassword: "a brand new password", token })).toEqual({ data: { status: true }, error: null });
      const again = await client.resetPassword({ newPassword: "yet another password", token });
      expect(again.error).toMatchObject({ status: 400, code: "INVALID_TOKEN" });

      expect((await client.signIn.email({ email, password: PASSWORD })).error?.code).toBe("INVALID_EMAIL_OR_PASSWORD");
      expect((await client.signIn.email({ email, password: "a brand new password" })).error).toBeNull();
    });

    it("answers status true for an unknown address too, through either name", async () => {
      const { client } = nodeClient(server.url);
      expect((await client.forgetPassword({ email: "nobody-here@example.com" })).data).toEqual({ status: true });
      expect((await client.requestPasswordReset({ email: "nobody-here@example.com" })).data).toMatchObject({ status: true });
    });
  });

  describe("changePassword", () => {
    it("refuses a wrong current password, then changes it and can revoke the other sessions", async () => {
      const first = nodeClient(server.url);
      const { email } = await signUpFresh(first.client);
      const second = nodeClient(server.url);
      await second.client.signIn.email({ email, password: PASSWORD });

      const wrong = await first.client.changePassword({ currentPassword: "not it at all", newPassword: "a new password" });
      expect(wrong.error).toMatchObject({ status: 400, code: "INVALID_PASSWORD" });

      const changed = await first.client.changePassword({
        currentPassword: PASSWORD,
        newPassword: "a new password",
        revokeOtherSessions: true,
      });
      expect(changed.error).toBeNull();
      expect(typeof changed.data?.token).toBe("string");
      expect((await second.client.getSession()).data).toBeNull();
      expect((await first.client.getSession()).data?.session.token).toBe(changed.data?.token);
    });
  });

  describe("changeEmail", () => {
    it("changes an unverified address at once and mails a verification link to the new one", async () => {
      const { client } = nodeClient(server.url);
      const { email } = await signUpFresh(client);
      await smtp.waitFor(email);
      const newEmail = `new-${email}`;
      expect(await client.changeEmail({ newEmail })).toEqual({ data: { status: true }, error: null });
      expect((await client.getSession()).data?.user).toMatchObject({ email: newEmail, emailVerified: false });
      expect(linkTo(await smtp.waitFor(newEmail), "/verify-email").searchParams.get("callbackURL")).toBe("/verify-email");
    });

    it("answers EMAIL_IS_THE_SAME for the current address", async () => {
      const { client } = nodeClient(server.url);
      const { email } = await signUpFresh(client);
      expect((await client.changeEmail({ newEmail: email })).error).toMatchObject({ status: 400, code: "EMAIL_IS_THE_SAME" });
    });
  });

  describe("deleteUser", () => {
    it("deletes at once with the password", async () => {
      const { client } = nodeClient(server.url);
      const { email } = await signUpFresh(client);
      expect(await client.deleteUser({ password: PASSWORD })).toEqual({ data: { success: true, message: "User deleted" }, error: null });
      expect((await client.getSession()).data).toBeNull();
      expect((await client.signIn.email({ email, password: PASSWORD })).error?.status).toBe(401);
    });

    it("without a password mails a link; deleteUser.callback with its token deletes the account", async () => {
      const { client } = nodeClient(server.url);
      const { email } = await signUpFresh(client);
      await smtp.waitFor(email);
      const sent = await client.deleteUser();
      expect(sent).toEqual({ data: { success: true, message: "Verification email sent" }, error: null });
      const link = linkTo(await smtp.waitFor(email), "/delete-user/callback");
      expect(link.searchParams.get("callbackURL")).toBe("/account-deleted");

      const deleted = await client.deleteUser.callback({ token: link.searchParams.get("token")! });
      expect(deleted).toEqual({ data: { success: true, message: "User deleted" }, error: null });
      expect((await client.getSession()).data).toBeNull();
    });

    it("answers INVALID_PASSWORD for a wrong password and keeps the account", async () => {
      const { client } = nodeClient(server.url);
      await signUpFresh(client);
      expect((await client.deleteUser({ password: "not the password" })).error).toMatchObject({ status: 400, code: "INVALID_PASSWORD" });
      expect((await client.getSession()).data).not.toBeNull();
    });
  });

  describe("validation errors", () => {
    it("carries the server's issues, each naming its field", async () => {
      const { client } = nodeClient(server.url);
      const { error } = await client.resetPassword({ newPassword: "x".repeat(5000), token: "abc" });
      expect(error).toMatchObject({ status: 400, code: "VALIDATION_ERROR", message: "Invalid body parameters" });
      expect(error?.issues).toEqual([{ path: "body.newPassword", message: expect.any(String) }]);

      const thrown = await client.$fetch("/reset-password", { body: { newPassword: "x".repeat(5000) } }).catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(AuthClientError);
      expect((thrown as AuthClientError).issues?.[0]?.path).toBe("body.newPassword");
      expect((thrown as AuthClientError).toJSON().issues).toHaveLength(1);
    });

    it("leaves issues out of every other error", async () => {
      const { error } = await nodeClient(server.url).client.listSessions();
      expect(error).toEqual({ status: 401, code: "UNAUTHORIZED", message: "Unauthorized" });
      expect(error).not.toHaveProperty("issues");
    });
  });

  it("types the new methods from the route table", () => {
    const client = createAuthClient({ baseURL: "http://127.0.0.1:1" });
    expectTypeOf(client.deleteUser).parameter(0).toEqualTypeOf<DeleteUserBody | void | undefined>();
    expectTypeOf(client.deleteUser.callback).parameter(0).toEqualTypeOf<{ token: string; callbackURL?: string }>();
    expectTypeOf<NonNullable<Awaited<ReturnType<typeof client.dev.outbox>>["data"]>>().toEqualTypeOf<OutboxMail[]>();
    const typeOnly = () => {
      // @ts-expect-error changePassword needs the current password
      void client.changePassword({ newPassword: "x" });
    };
    expect(typeof typeOnly).toBe("function");
  });
});

describe("revokeSessions and the session store", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite");
  });
  afterAll(async () => server?.close());

  it("re-fetches after revoke-sessions, which ends the caller's own session", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const { client } = nodeClient(server.url);
      await signUpFresh(client);
      const unbind = client.$session.listen(() => undefined);
      await valueMatching(client.$session, (s) => !s.isPending && !s.isRefetching && s.data !== null);
      expect((await client.revokeSessions()).error).toBeNull();
      vi.advanceTimersByTime(10);
      await flushIO();
      const state = await valueMatching(client.$session, (s) => !s.isRefetching && s.data === null);
      expect(state.error).toBeNull();
      unbind();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the development outbox", () => {
  it("lists the mail kept without SMTP, and is absent with a real mailer", async () => {
    const smtp = await startTestSmtp();
    const [kept, mailed] = await Promise.all([
      startTestServer("sqlite"),
      startTestServer("sqlite", { email: { smtpUrl: smtp.url } }),
    ]);
    try {
      const { email } = await signUpFresh(nodeClient(kept.url).client);
      const { client } = nodeClient(kept.url);
      let outbox: OutboxMail[] = [];
      for (let i = 0; i < 200 && !outbox.some((m) => m.to === email); i++) {
        outbox = (await client.dev.outbox()).data ?? [];
        if (!outbox.some((m) => m.to === email)) await new Promise((r) => setTimeout(r, 25));
      }
      expect(outbox.find((m) => m.to === email)).toMatchObject({ kind: "verification", text: expect.stringContaining("/verify-email?token=") });

      expect((await nodeClient(mailed.url).client.dev.outbox()).error).toMatchObject({ status: 404, code: "NOT_FOUND" });
    } finally {
      await Promise.all([kept.close(), mailed.close()]);
      await smtp.close();
    }
  });
});

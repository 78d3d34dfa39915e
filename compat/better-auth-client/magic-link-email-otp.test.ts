import { emailOTPClient, magicLinkClient } from "better-auth/client/plugins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../server/test/helpers/databases.js";
import { startTestServer, type TestServer } from "../../server/test/helpers/server.js";
import { startTestSmtp, type ReceivedMail, type TestSmtp } from "../../server/test/helpers/smtp.js";
import { betterAuthClient, browser } from "./harness.js";

/**
 * Issue #15 item 6: Better Auth 1.7's `magicLinkClient()` and `emailOTPClient()`, unchanged, against Gatehouse's
 * magic-link and email-code routes (server/src/passwordless), with mail through a real SMTP catcher.
 */

let n = 0;
const address = (p: string) => `${p}-${Date.now().toString(36)}-${++n}@example.com`;
const codeOf = (mail: ReceivedMail) => /^\s+(\d{6})$/m.exec(mail.text)![1]!;

describe.each(DIALECTS)("Better Auth 1.7's magicLinkClient and emailOTPClient against Gatehouse (%s)", (dialect) => {
  let server: TestServer;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer(dialect, { email: { smtpUrl: smtp.url } });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const clientFor = () => {
    const b = browser(server.url);
    return betterAuthClient(server.base, b, [magicLinkClient(), emailOTPClient()]);
  };

  it("signs in with a magic link: signIn.magicLink, then magicLink.verify with the mailed token", async () => {
    const client = clientFor();
    const email = address("ml");
    const sent = await client.signIn.magicLink({ email, name: "Linked" });
    expect(sent.error).toBeNull();
    expect(sent.data).toEqual({ status: true });
    const link = new URL((await smtp.waitFor(email)).links.find((l) => l.includes("token="))!);
    const verified = await client.magicLink.verify({ query: { token: link.searchParams.get("token")! } });
    expect(verified.error).toBeNull();
    expect(verified.data?.user.email).toBe(email);
    expect((await client.getSession()).data?.user).toMatchObject({ email, name: "Linked", emailVerified: true });
    const again = await clientFor().magicLink.verify({ query: { token: link.searchParams.get("token")! } });
    expect(again.error?.status).toBe(401);
  });

  it("signs in with an email code: emailOtp.sendVerificationOtp, emailOtp.checkVerificationOtp, signIn.emailOtp", async () => {
    const client = clientFor();
    const email = address("otp");
    const sent = await client.emailOtp.sendVerificationOtp({ email, type: "sign-in" });
    expect(sent.data).toEqual({ success: true });
    const otp = codeOf(await smtp.waitFor(email));
    const checked = await client.emailOtp.checkVerificationOtp({ email, type: "sign-in", otp });
    expect(checked.data).toEqual({ success: true });
    const signedIn = await client.signIn.emailOtp({ email, otp });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data?.user.email).toBe(email);
    expect((await client.getSession()).data?.user.email).toBe(email);
    const wrong = await clientFor().signIn.emailOtp({ email, otp });
    expect(wrong.error).toMatchObject({ status: 400, code: "INVALID_OTP" });
  });

  it("verifies an address and resets a password with codes: emailOtp.verifyEmail, requestPasswordReset, resetPassword", async () => {
    const client = clientFor();
    const email = address("reset");
    const up = await client.signUp.email({ email, password: "correct horse battery", name: "Reset" });
    expect(up.error).toBeNull();
    await smtp.waitFor(email); // the verification link of the sign-up
    await client.emailOtp.sendVerificationOtp({ email, type: "email-verification" });
    const verified = await client.emailOtp.verifyEmail({ email, otp: codeOf(await smtp.waitFor(email)) });
    expect(verified.error).toBeNull();
    expect(verified.data).toMatchObject({ status: true, user: { email, emailVerified: true } });

    const requested = await client.emailOtp.requestPasswordReset({ email });
    expect(requested.data).toEqual({ success: true });
    const otp = codeOf(await smtp.waitFor(email));
    const reset = await client.emailOtp.resetPassword({ email, otp, password: "a brand new password" });
    expect(reset.data).toEqual({ success: true });
    const signedIn = await clientFor().signIn.email({ email, password: "a brand new password" });
    expect(signedIn.data?.user.email).toBe(email);
  });
});

import type { EndpointContext } from "../http/endpoint.js";
import type { Runtime } from "../runtime.js";
import type { User } from "../storage/index.js";
import { inBackground } from "../verification/background.js";
import { sendVerificationCode } from "./email-codes.js";

/** The email-code module is installed and turned on. */
function emailOtpActive(runtime: Pick<Runtime, "config" | "modules">): boolean {
  return runtime.config.emailOTP.enabled && runtime.modules.some((module) => module.name === "email-otp");
}

/**
 * `emailOTP.overrideDefaultEmailVerification`: core's verification mail (verification/mail.ts) becomes an
 * email-verification code. Answers whether the code was mailed instead (false: mail the link as usual).
 */
export async function mailCodeInsteadOfLink(ctx: EndpointContext, user: User): Promise<boolean> {
  if (!emailOtpActive(ctx.runtime) || !ctx.runtime.config.emailOTP.overrideDefaultEmailVerification) return false;
  await sendVerificationCode(ctx, user);
  return true;
}

/**
 * `emailOTP.sendVerificationOnSignUp`: a sign-up (credentials/email-password-routes.ts) also mails an
 * email-verification code, in the background; not when the verification mail sent on sign-up is a code already.
 */
export function mailCodeOnSignUp(ctx: EndpointContext, user: User): void {
  const { config } = ctx.runtime;
  if (!emailOtpActive(ctx.runtime) || !config.emailOTP.sendVerificationOnSignUp) return;
  const verification = config.emailVerification;
  if (config.emailOTP.overrideDefaultEmailVerification && verification.enabled && verification.sendOnSignUp) return;
  inBackground(ctx.runtime, "email-otp-on-sign-up", () => sendVerificationCode(ctx, user));
}

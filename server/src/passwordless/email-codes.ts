import { safeEqual } from "../crypto/hmac.js";
import { pickLanguage } from "../email/language.js";
import type { CodeMailKind } from "../email/locales/types.js";
import { renderCodeMail } from "../email/templates.js";
import type { EndpointContext } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import type { Runtime } from "../runtime.js";
import type { User } from "../storage/index.js";
import { EMAIL_OTP_MESSAGES } from "./messages.js";
import { hashEmailCode, newEmailCode } from "./secrets.js";
import type { Stores } from "../modules.js";

/** What a code is for (Better Auth's types, API-NOTES-PLUGINS.md section 5). */
export type OtpType = "email-verification" | "sign-in" | "forget-password" | "change-email";

const MAIL_KIND: Record<OtpType, CodeMailKind> = {
  "email-verification": "emailVerification",
  "sign-in": "signIn",
  "forget-password": "forgetPassword",
  "change-email": "changeEmail",
};

/** The row of a code: one per purpose and address (a new code replaces the old one). */
export const otpIdentifier = (type: Exclude<OtpType, "change-email">, email: string) => `${type}:${email}`;
export const changeEmailIdentifier = (userId: string, newEmail: string) => `change-email:${userId}:${newEmail}`;

/**
 * Makes a code for `identifier`, stores its hash, and mails it to `to` in the recipient's language. The row is
 * removed again when the mail cannot be sent, so no live code outlives a lost mail. The code itself is never logged.
 */
export async function mailNewCode(
  ctx: EndpointContext,
  type: OtpType,
  identifier: string,
  to: string,
  user: Pick<User, "name" | "lang"> | null,
): Promise<void> {
  const { runtime } = ctx;
  const options = runtime.config.emailOTP;
  const code = newEmailCode(options.otpLength);
  const codeHash = hashEmailCode(runtime.config.secret, identifier, code);
  const now = runtime.now();
  await runtime.stores.emailOtps.issue(identifier, codeHash, new Date(now.getTime() + options.expiresIn * 1000), now);
  try {
    const language = pickLanguage(user?.lang, ctx.headers.get("accept-language"));
    const rendered = renderCodeMail(MAIL_KIND[type], language, {
      // An address without an account is greeted by itself: never by a name the requester wrote.
      name: user?.name || to,
      email: to,
      code,
      expiresIn: options.expiresIn,
    });
    await runtime.mailer.send({ to, kind: `emailOtp:${type}`, ...rendered });
  } catch (error) {
    await runtime.stores.emailOtps.remove(identifier, codeHash);
    throw error;
  }
}

/** Mails an email-verification code to `user` (the overrideDefaultEmailVerification and sendVerificationOnSignUp hooks). */
export function sendVerificationCode(ctx: EndpointContext, user: User): Promise<void> {
  return mailNewCode(ctx, "email-verification", otpIdentifier("email-verification", user.email), user.email, user);
}

/** A code that matched: which row, to consume (or give the try back) while it is still that code. */
export interface MatchedCode {
  id: string;
  codeHash: string;
}

const TOO_MANY = () => new APIError("FORBIDDEN", EMAIL_OTP_MESSAGES.TOO_MANY_ATTEMPTS);
const INVALID = () => new APIError("BAD_REQUEST", EMAIL_OTP_MESSAGES.INVALID_OTP);
const EXPIRED = () => new APIError("BAD_REQUEST", EMAIL_OTP_MESSAGES.OTP_EXPIRED);

/** 400 INVALID_OTP: a code consumed by a concurrent request, or never made. */
export const invalidOtp = INVALID;

/**
 * Counts one try against the code of `identifier` (before comparing, so guesses sent at once are all counted), then
 * compares: answers the matched row, or throws 400 OTP_EXPIRED (the row is removed), 400 INVALID_OTP (a wrong code,
 * or none), 403 TOO_MANY_ATTEMPTS (the allowed tries are used; the right code is refused too). Does not consume.
 */
export async function matchCode(
  runtime: Pick<Runtime, "config" | "now"> & { stores: Pick<Stores, "emailOtps"> },
  identifier: string,
  code: string,
): Promise<MatchedCode> {
  const { emailOTP, secret } = runtime.config;
  if (code.length === 0 || code.length > 64) throw INVALID();
  const counted = await runtime.stores.emailOtps.countTry(identifier, emailOTP.allowedAttempts, runtime.now());
  if (counted === "absent") throw INVALID();
  if (counted === "expired") throw EXPIRED();
  if (counted === "exhausted") throw TOO_MANY();
  if (!safeEqual(counted.codeHash, hashEmailCode(secret, identifier, code))) throw INVALID();
  return { id: counted.id, codeHash: counted.codeHash };
}

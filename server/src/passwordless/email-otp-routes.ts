import { z } from "zod";
import { setCredentialPassword } from "../credentials/credential-account.js";
import { CREDENTIAL_MESSAGES } from "../credentials/messages.js";
import { checkNewPassword } from "../credentials/rules.js";
import { limitMailTo } from "../http/account-limits.js";
import { defineEndpoint, type EndpointContext } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import { signIn, SecondStepRequired, secondStepAnswerSchema } from "../session/sign-in.js";
import { isUniqueViolation } from "../storage/constraint-errors.js";
import { resetModuleCredentials } from "../user/credentials-reset.js";
import { isValidEmail, normalizeEmail } from "../user/email-address.js";
import { imageSchema, nameSchema } from "../user/fields.js";
import { USER_MESSAGES } from "../user/messages.js";
import { publicUser, publicUserSchema } from "../user/public.js";
import { answerNoSoonerThan, inBackground } from "../verification/background.js";
import { VERIFICATION_MESSAGES } from "../verification/messages.js";
import { notifyEmailChanged, notifyPasswordChanged } from "../verification/notices.js";
import { changeEmailIdentifier, invalidOtp, mailNewCode, matchCode, otpIdentifier, type OtpType } from "./email-codes.js";
import { emitEvent } from "../events/emit.js";
import { markVerified, signInMailboxOwner, takeOverForMailboxOwner } from "./mailbox-proof.js";
import { EMAIL_OTP_MESSAGES } from "./messages.js";

const successSchema = z.object({ success: z.boolean() });
const emailField = z.string().max(1024);
const otpField = z.string().max(64);
const otpType = z.enum(["email-verification", "sign-in", "forget-password", "change-email"]);

function addressOf(raw: string): string {
  const email = normalizeEmail(raw);
  if (!isValidEmail(email)) throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.INVALID_EMAIL);
  return email;
}

function requireResetEnabled(ctx: EndpointContext): void {
  if (!ctx.runtime.config.emailAndPassword.resetPassword.enabled) {
    throw new APIError("BAD_REQUEST", VERIFICATION_MESSAGES.RESET_PASSWORD_ISNT_ENABLED);
  }
}

/**
 * Mails a code of `type` to `email` when there is reason to, after answering: the answer is the same, after the same
 * minimum time, whether or not the address has an account (the lookup, the write and SMTP happen in the background,
 * as the verification mails do). Counted against the address's mail allowance first, account or not.
 *
 * - sign-in: to an account's address, and to any address while sign-up is open (the code then makes the account);
 * - email-verification: to an account's address (verified or not: a verified address proves itself again for an
 *   email change with verifyCurrentEmail);
 * - forget-password: to an account's address.
 */
async function sendCode(ctx: EndpointContext, type: Exclude<OtpType, "change-email">, email: string): Promise<void> {
  const { runtime } = ctx;
  await limitMailTo(runtime, email);
  const start = performance.now();
  inBackground(runtime, `email-otp-${type}`, async () => {
    const user = await runtime.stores.users.findUserByEmail(email);
    if (!user && (type !== "sign-in" || runtime.config.emailOTP.disableSignUp)) return;
    await mailNewCode(ctx, type, otpIdentifier(type, email), email, user);
  });
  await answerNoSoonerThan(start);
}

export const sendVerificationOtp = defineEndpoint({
  method: "POST",
  path: "/email-otp/send-verification-otp",
  rateLimit: "mail",
  auth: "none",
  // Better Auth guards it like a sign-in form: a cross-site navigation is refused, an Origin must be trusted.
  acceptsForm: true,
  body: z.object({ email: emailField, type: otpType }),
  response: successSchema,
  summary: "Mail a one-time code (always answers success: whether the address has an account is not said)",
  tags: ["Email OTP"],
  async handler(ctx) {
    const { body } = ctx;
    if (body.type === "change-email") throw new APIError("BAD_REQUEST", EMAIL_OTP_MESSAGES.INVALID_OTP_TYPE);
    const email = addressOf(body.email);
    if (body.type === "forget-password") requireResetEnabled(ctx);
    await sendCode(ctx, body.type, email);
    return { success: true };
  },
});

export const checkVerificationOtp = defineEndpoint({
  method: "POST",
  path: "/email-otp/check-verification-otp",
  rateLimit: "credential",
  auth: "none",
  body: z.object({ email: emailField, type: otpType, otp: otpField }),
  response: successSchema,
  summary: "Check a code without using it (the try counts; a right code gives it back)",
  tags: ["Email OTP"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    if (body.type === "change-email") throw new APIError("BAD_REQUEST", EMAIL_OTP_MESSAGES.INVALID_OTP_TYPE);
    const email = addressOf(body.email);
    // Answered from the code alone (Better Auth says USER_NOT_FOUND for an unknown address: an oracle of accounts).
    const matched = await matchCode(runtime, otpIdentifier(body.type, email), body.otp);
    await runtime.stores.emailOtps.giveBackTry(matched.id, matched.codeHash);
    return { success: true };
  },
});

export const verifyEmailOtp = defineEndpoint({
  method: "POST",
  path: "/email-otp/verify-email",
  changesSession: true,
  rateLimit: "credential",
  auth: "none",
  carriesToken: true,
  body: z.object({ email: emailField, otp: otpField }),
  response: z.union([
    z.object({ status: z.boolean(), token: z.string().nullable(), user: publicUserSchema }),
    secondStepAnswerSchema,
  ]),
  summary: "Verify an address with a mailed code (signs in with emailVerification.autoSignInAfterVerification)",
  tags: ["Email OTP"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const email = addressOf(body.email);
    const matched = await matchCode(runtime, otpIdentifier("email-verification", email), body.otp);
    const current = await ctx.getSession({ disableCookieCache: true });
    const autoSignIn = runtime.config.emailVerification.autoSignInAfterVerification;

    const outcome = await runtime.stores.transaction(async (stores) => {
      if (!(await stores.emailOtps.consume(matched.id, matched.codeHash))) throw invalidOtp();
      const now = runtime.now();
      const found = await stores.users.findUserByEmail(email);
      if (!found) throw new APIError("BAD_REQUEST", USER_MESSAGES.USER_NOT_FOUND);
      await stores.users.lockUser(found.id);
      let user = (await stores.users.findUserById(found.id)) ?? found;
      const proven = !user.emailVerified;
      // The registrant's own browser (a session of this user: it knows the password) keeps what it set up, as a
      // verification link opened there does; anyone else proving the address takes the account over from it.
      const byRegistrant = current?.user.id === user.id;
      if (proven) {
        user = byRegistrant
          ? await markVerified(ctx, stores, user, now)
          : await takeOverForMailboxOwner(ctx, runtime, stores, user, now);
      }
      if (!(autoSignIn && proven)) return { user, proven, byRegistrant, session: null, pending: null };
      try {
        const inTransaction: EndpointContext = { ...ctx, runtime: { ...runtime, stores } };
        const { session } = await signIn(inTransaction, user, { method: "email-verification" });
        return { user, proven, byRegistrant, session, pending: null };
      } catch (error) {
        if (error instanceof SecondStepRequired) return { user, proven, byRegistrant, session: null, pending: error };
        throw error;
      }
    });
    if (outcome.pending) throw outcome.pending;
    if (!outcome.session && current && current.user.id === outcome.user.id && outcome.byRegistrant) {
      runtime.sessions.setSessionCookies(ctx, { session: current.session, user: outcome.user });
    }
    return { status: true, token: outcome.session?.token ?? null, user: publicUser(outcome.user) };
  },
});

export const signInEmailOtp = defineEndpoint({
  method: "POST",
  path: "/sign-in/email-otp",
  changesSession: true,
  rateLimit: "credential",
  auth: "none",
  carriesToken: true,
  body: z.object({
    email: emailField,
    otp: otpField,
    name: nameSchema.optional(),
    image: imageSchema.optional(),
    rememberMe: z.boolean().optional(),
  }),
  response: z.union([z.object({ token: z.string(), user: publicUserSchema }), secondStepAnswerSchema]),
  summary: "Sign in (or sign up) with a mailed code",
  tags: ["Email OTP"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const email = addressOf(body.email);
    const matched = await matchCode(runtime, otpIdentifier("sign-in", email), body.otp);
    const outcome = await signInMailboxOwner(ctx, {
      method: "email-otp",
      signUp: !runtime.config.emailOTP.disableSignUp,
      rememberMe: body.rememberMe,
      async consume(stores) {
        if (!(await stores.emailOtps.consume(matched.id, matched.codeHash))) return null;
        return { email, name: body.name, image: body.image || null };
      },
    });
    // Better Auth answers a sign-up it refuses as a wrong code.
    if (outcome.kind === "refused") throw invalidOtp();
    if (outcome.kind === "second-step") throw outcome.pending;
    return { token: outcome.session.token, user: publicUser(outcome.user) };
  },
});

const requestResetBody = z.object({ email: emailField });

async function requestPasswordResetCode(ctx: EndpointContext<z.output<typeof requestResetBody>>) {
  requireResetEnabled(ctx);
  await sendCode(ctx, "forget-password", addressOf(ctx.body.email));
  return { success: true };
}

export const requestPasswordResetOtp = defineEndpoint({
  method: "POST",
  path: "/email-otp/request-password-reset",
  rateLimit: "mail",
  auth: "none",
  acceptsForm: true,
  body: requestResetBody,
  response: successSchema,
  summary: "Mail a password-reset code (always answers success)",
  tags: ["Email OTP"],
  handler: requestPasswordResetCode,
});

export const forgetPasswordEmailOtp = defineEndpoint({
  method: "POST",
  path: "/forget-password/email-otp",
  rateLimit: "mail",
  auth: "none",
  acceptsForm: true,
  body: requestResetBody,
  response: successSchema,
  summary: "The older name of /email-otp/request-password-reset",
  tags: ["Email OTP"],
  handler: requestPasswordResetCode,
});

export const resetPasswordEmailOtp = defineEndpoint({
  method: "POST",
  path: "/email-otp/reset-password",
  rateLimit: "credential",
  auth: "none",
  body: z.object({ email: emailField, otp: otpField, password: z.string().max(4096) }),
  response: successSchema,
  summary: "Choose a new password with a mailed code (single use); signs the user out everywhere",
  tags: ["Email OTP"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    requireResetEnabled(ctx);
    const email = addressOf(body.email);
    checkNewPassword(runtime, body.password);
    const matched = await matchCode(runtime, otpIdentifier("forget-password", email), body.otp);
    // Hash outside the transaction (no row is held while scrypt runs); the code is consumed inside it.
    const hash = await runtime.hasher.hash(body.password);
    const user = await runtime.stores.transaction(async (stores) => {
      if (!(await stores.emailOtps.consume(matched.id, matched.codeHash))) throw invalidOtp();
      const now = runtime.now();
      const found = await stores.users.findUserByEmail(email);
      if (!found) throw new APIError("BAD_REQUEST", USER_MESSAGES.USER_NOT_FOUND);
      await stores.users.lockUser(found.id);
      let user = (await stores.users.findUserById(found.id)) ?? found;
      // The code proves the mailbox: an unverified account is its owner's from now on (mailbox-proof.ts).
      if (!user.emailVerified) user = await takeOverForMailboxOwner(ctx, runtime, stores, user, now);
      await setCredentialPassword(stores, user.id, hash, now);
      let sessionsRevoked = 0;
      if (runtime.config.emailAndPassword.resetPassword.revokeSessionsOnPasswordReset) {
        sessionsRevoked = await stores.sessions.deleteUserSessions(user.id);
      }
      await resetModuleCredentials(runtime, stores, user.id, "password-changed");
      await emitEvent(stores, ctx, "password.reset", { userId: user.id, actorId: user.id, data: { sessionsRevoked } });
      return user;
    });
    notifyPasswordChanged(runtime, ctx.headers, user);
    return { success: true };
  },
});

function requireChangeEmailEnabled(ctx: EndpointContext): void {
  if (!ctx.runtime.config.emailOTP.changeEmail.enabled) {
    throw new APIError("BAD_REQUEST", EMAIL_OTP_MESSAGES.CHANGE_EMAIL_WITH_OTP_IS_DISABLED);
  }
}

export const requestEmailChangeOtp = defineEndpoint({
  method: "POST",
  path: "/email-otp/request-email-change",
  rateLimit: "mail",
  auth: "sensitive",
  body: z.object({ newEmail: emailField, otp: otpField.optional() }),
  response: successSchema,
  summary: "Mail a code to a new address (with verifyCurrentEmail, after a code from the current one)",
  tags: ["Email OTP"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    requireChangeEmailEnabled(ctx);
    const { user } = ctx.session!;
    const newEmail = addressOf(body.newEmail);
    if (newEmail === user.email) throw new APIError("BAD_REQUEST", VERIFICATION_MESSAGES.EMAIL_IS_THE_SAME);
    // A verified current address is protected as core's /change-email protects it: its owner proves it first.
    if (runtime.config.emailOTP.changeEmail.verifyCurrentEmail && user.emailVerified) {
      if (!body.otp) throw new APIError("BAD_REQUEST", EMAIL_OTP_MESSAGES.OTP_IS_REQUIRED_TO_VERIFY_CURRENT_EMAIL);
      const matched = await matchCode(runtime, otpIdentifier("email-verification", user.email), body.otp);
      if (!(await runtime.stores.emailOtps.consume(matched.id, matched.codeHash))) throw invalidOtp();
    }
    await limitMailTo(runtime, newEmail);
    // The user's own request, recorded whether or not the code goes out (the answer does not say either).
    await emitEvent(runtime.stores, ctx, "email.change_requested", { userId: user.id, data: { newEmail } });
    const start = performance.now();
    inBackground(runtime, "email-otp-change-email", async () => {
      // An address that has an account gets nothing, and the answer does not say so.
      if (await runtime.stores.users.findUserByEmail(newEmail)) return;
      await mailNewCode(ctx, "change-email", changeEmailIdentifier(user.id, newEmail), newEmail, user);
    });
    await answerNoSoonerThan(start);
    return { success: true };
  },
});

export const changeEmailOtp = defineEndpoint({
  method: "POST",
  path: "/email-otp/change-email",
  changesSession: true,
  rateLimit: "credential",
  auth: "sensitive",
  body: z.object({ newEmail: emailField, otp: otpField }),
  response: successSchema,
  summary: "Change the email address with the code mailed to the new one (it is then verified)",
  tags: ["Email OTP"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    requireChangeEmailEnabled(ctx);
    const { user, session } = ctx.session!;
    const newEmail = addressOf(body.newEmail);
    const matched = await matchCode(runtime, changeEmailIdentifier(user.id, newEmail), body.otp);
    const taken = () => new APIError("BAD_REQUEST", EMAIL_OTP_MESSAGES.EMAIL_ALREADY_IN_USE);
    const updated = await runtime.stores
      .transaction(async (stores) => {
        if (!(await stores.emailOtps.consume(matched.id, matched.codeHash))) throw invalidOtp();
        if (await stores.users.findUserByEmail(newEmail)) throw taken();
        const changed = await stores.users.updateUser(user.id, { email: newEmail, emailVerified: true, updatedAt: runtime.now() });
        if (!changed) throw new APIError("BAD_REQUEST", USER_MESSAGES.USER_NOT_FOUND);
        await emitEvent(stores, ctx, "email.changed", { userId: user.id, data: { from: user.email, to: newEmail } });
        return changed;
      })
      .catch((error: unknown) => {
        // A sign-up that took the address meanwhile: the code stays unused (rolled back).
        throw isUniqueViolation(error) ? taken() : error;
      });
    if (user.emailVerified) notifyEmailChanged(runtime, ctx.headers, updated, user.email, updated.email);
    runtime.sessions.setSessionCookies(ctx, { session, user: updated });
    return { success: true };
  },
});

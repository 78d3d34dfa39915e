import { emitEvent } from "../events/emit.js";
import { z } from "zod";
import { checkCurrentPassword, setCredentialPassword } from "../credentials/credential-account.js";
import { CREDENTIAL_MESSAGES } from "../credentials/messages.js";
import { checkNewPassword } from "../credentials/rules.js";
import { signIn } from "../session/sign-in.js";
import { generateId } from "../crypto/random.js";
import { limitMailTo } from "../http/account-limits.js";
import { defineEndpoint, redirectTo, type EndpointContext } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import type { Runtime } from "../runtime.js";
import { resetModuleCredentials } from "../user/credentials-reset.js";
import { isValidEmail, normalizeEmail } from "../user/email-address.js";
import { USER_MESSAGES } from "../user/messages.js";
import { publicUser, publicUserSchema, statusSchema } from "../user/public.js";
import { answerNoSoonerThan, inBackground } from "./background.js";
import { newResetToken, RESET_TOKEN_PATTERN, resetPasswordIdentifier } from "./identifiers.js";
import { apiBase, mailUser, withQuery } from "./mail.js";
import { VERIFICATION_MESSAGES } from "./messages.js";
import { notifyPasswordChanged } from "./notices.js";

const forgetPasswordBody = z.object({ email: z.string().max(1024), redirectTo: z.string().max(2048).optional() });

/**
 * Answers the same, in about the same time, whether or not the address has an account; the token is made and
 * mailed after answering, and removed again if the mail cannot be sent (so no token outlives a lost mail).
 */
async function requestReset(ctx: EndpointContext<z.output<typeof forgetPasswordBody>>): Promise<void> {
  const { runtime, body } = ctx;
  if (!runtime.config.emailAndPassword.resetPassword.enabled) {
    throw new APIError("BAD_REQUEST", VERIFICATION_MESSAGES.RESET_PASSWORD_ISNT_ENABLED);
  }
  const email = normalizeEmail(body.email);
  if (!isValidEmail(email)) throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.INVALID_EMAIL);
  // Counted for the address asked for, account or not, so a 429 says nothing about whether it has one.
  await limitMailTo(runtime, email);
  const start = performance.now();
  inBackground(runtime, "request-password-reset", async () => {
    const user = await runtime.stores.users.findUserByEmail(email);
    if (!user) return;
    const token = newResetToken();
    const now = runtime.now();
    const expiresIn = runtime.config.emailAndPassword.resetPassword.tokenExpiresIn;
    const identifier = resetPasswordIdentifier(token);
    await runtime.stores.verifications.createVerification({
      id: generateId(),
      identifier,
      value: user.id,
      expiresAt: new Date(now.getTime() + expiresIn * 1000),
      createdAt: now,
      updatedAt: now,
    });
    const url = withQuery(`${apiBase(ctx)}/reset-password/${token}`, { callbackURL: body.redirectTo || "/reset-password" });
    try {
      await mailUser(ctx, "resetPassword", user.email, user, url, expiresIn);
    } catch (error) {
      await runtime.stores.verifications.consumeVerification(identifier, now);
      throw error;
    }
  });
  await answerNoSoonerThan(start);
}

export const forgetPassword = defineEndpoint({
  method: "POST",
  path: "/forget-password",
  rateLimit: "mail",
  auth: "none",
  body: forgetPasswordBody,
  callbackFields: ["redirectTo"],
  response: statusSchema,
  summary: "Mail a password-reset link (always answers status true)",
  tags: ["Password"],
  async handler(ctx) {
    await requestReset(ctx);
    return { status: true };
  },
});

export const requestPasswordReset = defineEndpoint({
  method: "POST",
  path: "/request-password-reset",
  rateLimit: "mail",
  auth: "none",
  body: forgetPasswordBody,
  callbackFields: ["redirectTo"],
  response: z.object({ status: z.boolean(), message: z.string() }),
  summary: "The newer name of /forget-password",
  tags: ["Password"],
  async handler(ctx) {
    await requestReset(ctx);
    return { status: true, message: "If this email exists in our system, check your email for the reset link" };
  },
});

async function liveResetValue(runtime: Runtime, token: string) {
  // Anything else (another kind of token, say) is no reset token: no lookup, the same invalid token answer.
  if (!RESET_TOKEN_PATTERN.test(token)) return null;
  const value = await runtime.stores.verifications.findVerification(resetPasswordIdentifier(token));
  return value && value.expiresAt > runtime.now() ? value : null;
}

export const resetPasswordCallback = defineEndpoint({
  method: "GET",
  path: "/reset-password/:token",
  auth: "none",
  navigation: true,
  carriesToken: true,
  query: z.object({ callbackURL: z.string().max(2048).optional() }),
  callbackFields: ["callbackURL"],
  summary: "The link mailed for a reset: redirects to callbackURL with the token, or with error=INVALID_TOKEN",
  tags: ["Password"],
  async handler(ctx) {
    const callbackURL = ctx.query.callbackURL;
    if (!callbackURL) throw new APIError("BAD_REQUEST", VERIFICATION_MESSAGES.CALLBACKURL_IS_REQUIRED);
    const token = ctx.params.token ?? "";
    const live = await liveResetValue(ctx.runtime, token);
    return redirectTo(withQuery(callbackURL, live ? { token } : { error: "INVALID_TOKEN" }));
  },
});

export const resetPassword = defineEndpoint({
  method: "POST",
  path: "/reset-password",
  changesSession: true,
  rateLimit: "credential",
  auth: "none",
  carriesToken: true,
  body: z.object({ newPassword: z.string().max(4096), token: z.string().max(4096).optional() }),
  query: z.object({ token: z.string().max(4096).optional() }),
  response: statusSchema,
  summary: "Choose a new password with a reset token (single use)",
  tags: ["Password"],
  async handler(ctx) {
    const { runtime, body, query } = ctx;
    if (!runtime.config.emailAndPassword.resetPassword.enabled) {
      throw new APIError("BAD_REQUEST", VERIFICATION_MESSAGES.RESET_PASSWORD_ISNT_ENABLED);
    }
    const invalid = () => new APIError("BAD_REQUEST", VERIFICATION_MESSAGES.INVALID_TOKEN);
    const token = body.token ?? query.token;
    if (!token) throw invalid();
    checkNewPassword(runtime, body.newPassword);
    if (!(await liveResetValue(runtime, token))) throw invalid();
    // Hash outside the transaction; the token is consumed inside it, atomically with the password change.
    const hash = await runtime.hasher.hash(body.newPassword);
    const user = await runtime.stores.transaction(async (stores) => {
      const now = runtime.now();
      const consumed = await stores.verifications.consumeVerification(resetPasswordIdentifier(token), now);
      if (!consumed) throw invalid();
      const user = await stores.users.findUserById(consumed.value);
      if (!user) throw new APIError("BAD_REQUEST", USER_MESSAGES.USER_NOT_FOUND);
      await setCredentialPassword(stores, user.id, hash, now);
      // What a password change ends in the modules (trusted devices, pending second steps), with the change.
      await resetModuleCredentials(runtime, stores, user.id, "password-changed");
      let sessionsRevoked = 0;
      if (runtime.config.emailAndPassword.resetPassword.revokeSessionsOnPasswordReset) {
        sessionsRevoked = await stores.sessions.deleteUserSessions(user.id);
      }
      // The holder of the mailed token did it (no session needed).
      await emitEvent(stores, ctx, "password.reset", { userId: user.id, actorId: user.id, data: { sessionsRevoked } });
      return user;
    });
    notifyPasswordChanged(runtime, ctx.headers, user);
    return { status: true };
  },
});

export const changePassword = defineEndpoint({
  method: "POST",
  path: "/change-password",
  changesSession: true,
  rateLimit: "credential",
  auth: "sensitive",
  // The answer carries the new session's token.
  carriesToken: true,
  body: z.object({
    newPassword: z.string().max(4096),
    currentPassword: z.string().max(4096),
    revokeOtherSessions: z.boolean().optional(),
  }),
  response: z.object({ token: z.string().nullable(), user: publicUserSchema }),
  summary: "Change the password, knowing the current one",
  tags: ["Password"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const { user } = ctx.session!;
    checkNewPassword(runtime, body.newPassword);
    if (body.currentPassword.length > runtime.config.emailAndPassword.maxPasswordLength) {
      throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.PASSWORD_TOO_LONG);
    }
    // No rehash of an imported hash here: the new password's hash replaces it just below.
    await checkCurrentPassword(runtime, user.id, body.currentPassword, { rehash: false });
    const hash = await runtime.hasher.hash(body.newPassword);
    const now = runtime.now();
    await runtime.stores.transaction(async (stores) => {
      await setCredentialPassword(stores, user.id, hash, now);
      await emitEvent(stores, ctx, "password.changed", {
        userId: user.id,
        data: { otherSessionsRevoked: body.revokeOtherSessions === true },
      });
      await resetModuleCredentials(runtime, stores, user.id, "password-changed");
      if (body.revokeOtherSessions) await stores.sessions.deleteUserSessions(user.id);
    });
    notifyPasswordChanged(runtime, ctx.headers, user);
    if (!body.revokeOtherSessions) return { token: null, user: publicUser(user) };
    // A new session for the one this request came with (the others are gone): it keeps that one's method.
    const current = ctx.session!.session;
    const { session } = await signIn(ctx, user, { method: current.loginMethod ?? "email", renewalOf: current });
    return { token: session.token, user: publicUser(user) };
  },
});

export const setPassword = defineEndpoint({
  method: "POST",
  path: "/set-password",
  rateLimit: "credential",
  auth: "sensitive",
  serverOnly: true,
  body: z.object({ newPassword: z.string().max(4096) }),
  response: statusSchema,
  summary: "Give a password to a user who signed up without one (server-side API only)",
  tags: ["Password"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const { user } = ctx.session!;
    checkNewPassword(runtime, body.newPassword);
    const account = await runtime.stores.accounts.findCredentialAccount(user.id);
    if (account?.password) throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.USER_ALREADY_HAS_A_PASSWORD);
    const hash = await runtime.hasher.hash(body.newPassword);
    await runtime.stores.transaction(async (stores) => {
      await setCredentialPassword(stores, user.id, hash, runtime.now());
      await resetModuleCredentials(runtime, stores, user.id, "password-changed");
      await emitEvent(stores, ctx, "password.set", { userId: user.id, data: { byAdministrator: false } });
    });
    notifyPasswordChanged(runtime, ctx.headers, user);
    return { status: true };
  },
});

import { z } from "zod";
import { limitPasswordCheck, type AccountKey } from "../http/account-limits.js";
import { defineEndpoint, type EndpointContext } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import type { Runtime } from "../runtime.js";
import { isUniqueViolation } from "../storage/constraint-errors.js";
import { USER_MESSAGES } from "../user/messages.js";
import { insertUserWithPassword, upgradePasswordHash } from "./credential-account.js";
import { CREDENTIAL_MESSAGES } from "./messages.js";
import { checkNewPassword } from "./rules.js";
import { recordFailedSignIn, secondStepAnswerSchema, signIn, type SignInMethod } from "../session/sign-in.js";
import type { SignInFailureReason } from "../events/types.js";
import { displayUsernameSchema, usernameChanges, usernameSchema } from "./username.js";
import { inBackground } from "../verification/background.js";
import { sendVerificationMail } from "../verification/mail.js";
import { markRegistrant, registrantSetCookie } from "../verification/registrant-cookie.js";
import { toLanguage } from "../email/language.js";
import { buildEventRow, eventInsert } from "../events/emit.js";
import type { Session, User } from "../storage/index.js";
import type { ExtraRow } from "../storage/new-user.js";
import { isValidEmail, normalizeEmail } from "../user/email-address.js";
import { imageSchema, nameSchema, rejectProtectedFields } from "../user/fields.js";
import { newUserRecord } from "../user/new-user.js";
import { publicUser, publicUserSchema } from "../user/public.js";
import { mailCodeOnSignUp } from "../passwordless/verification-hooks.js";

const signUpBody = z.looseObject({
  name: nameSchema,
  email: z.string().max(1024),
  password: z.string().min(1).max(4096),
  image: imageSchema.optional(),
  callbackURL: z.string().max(2048).optional(),
  rememberMe: z.boolean().optional(),
  /** The user's language for mail: a code ("de") or SPEC.md's numeric id (6). */
  lang: z.union([z.string().max(16), z.number().int()]).optional(),
  /** Optional: 3–30 letters, digits, _ or . (stored in lower case); displayUsername defaults to it as typed. */
  username: usernameSchema.optional(),
  displayUsername: displayUsernameSchema.optional(),
});

export const signUpEmail = defineEndpoint({
  method: "POST",
  path: "/sign-up/email",
  changesSession: true,
  rateLimit: "credential",
  auth: "none",
  acceptsForm: true,
  body: signUpBody,
  callbackFields: ["callbackURL"],
  response: z.object({ token: z.string().nullable(), user: publicUserSchema }),
  summary: "Create an account with email and password",
  tags: ["Email and password"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const options = runtime.config.emailAndPassword;
    if (!options.enabled || options.disableSignUp) {
      throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.EMAIL_AND_PASSWORD_SIGN_UP_IS_NOT_ENABLED);
    }
    rejectProtectedFields(body);
    const email = normalizeEmail(body.email);
    if (!isValidEmail(email)) throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.INVALID_EMAIL);
    checkNewPassword(runtime, body.password);
    const lang = body.lang === undefined ? null : toLanguage(body.lang);
    if (body.lang !== undefined && !lang) throw new APIError("BAD_REQUEST", USER_MESSAGES.UNSUPPORTED_LANGUAGE);
    const names = await usernameChanges(runtime, body);

    const signsIn = options.autoSignIn && !options.requireEmailVerification;
    const fields = { name: body.name, email, image: body.image ?? null, role: runtime.config.admin.defaultRole };
    const existing = await runtime.stores.users.findUserByEmail(email);
    if (existing) {
      // Without a session to hand out, do not reveal that the address is taken: answer like a fresh sign-up.
      if (!signsIn) {
        const lookalike = newUserRecord({ ...fields, ...names }, runtime.now());
        markRegistrant(ctx, lookalike.id); // as a real sign-up does, cookie included
        return { token: null, user: publicUser(lookalike) };
      }
      throw new APIError("UNPROCESSABLE_ENTITY", CREDENTIAL_MESSAGES.USER_ALREADY_EXISTS);
    }

    const hash = await runtime.hasher.hash(body.password);
    const user = newUserRecord({ ...fields, ...names, lang }, runtime.now());
    // The first session is written with the user, their password and the events (user.created, then the sign-in's),
    // in the same statement or transaction.
    const created = eventInsert(
      runtime.stores,
      buildEventRow(ctx, "user.created", { userId: user.id, actorId: user.id, data: { method: "sign-up", email } }),
    );
    const insert = (session?: Session, signInRows: readonly ExtraRow[] = []) =>
      insertUserWithPassword(runtime, user, hash, session, [...created, ...signInRows]).catch((error: unknown) => {
        throw isUniqueViolation(error) ? new APIError("UNPROCESSABLE_ENTITY", CREDENTIAL_MESSAGES.USER_ALREADY_EXISTS) : error;
      });
    // Signing in goes through the one way in (session/sign-in.ts), which hands the session back to be stored here.
    const session = signsIn
      ? (await signIn(ctx, user, { method: "email", rememberMe: body.rememberMe ?? true, store: insert })).session
      : await insert().then(() => undefined);
    runtime.logger.info({ userId: user.id }, "user signed up");
    // This browser chose the password: a verification link opened here keeps it (registrant-cookie.ts).
    markRegistrant(ctx, user.id);
    const verification = runtime.config.emailVerification;
    if (verification.enabled && verification.sendOnSignUp) {
      inBackground(runtime, "verification-on-sign-up", () =>
        sendVerificationMail(ctx, user, { callbackURL: body.callbackURL }),
      );
    }
    mailCodeOnSignUp(ctx, user);
    if (!session) return { token: null, user: publicUser(user) };
    return { token: session.token, user: publicUser(user) };
  },
});

/**
 * The answer of every password sign-in (email or username): the session, or, for a user with a second factor,
 * Better Auth's twoFactorRedirect (the endpoint runner's answer to SecondStepRequired).
 */
export const signInResponseSchema = z.union([
  z.object({
    redirect: z.boolean(),
    token: z.string(),
    url: z.string().optional(),
    user: publicUserSchema,
  }),
  secondStepAnswerSchema,
]);

export const signInEmail = defineEndpoint({
  method: "POST",
  path: "/sign-in/email",
  changesSession: true,
  rateLimit: "credential",
  auth: "none",
  acceptsForm: true,
  body: z.object({
    email: z.string().max(1024),
    password: z.string().max(4096),
    callbackURL: z.string().max(2048).optional(),
    rememberMe: z.boolean().optional(),
  }),
  callbackFields: ["callbackURL"],
  response: signInResponseSchema,
  summary: "Sign in with email and password",
  tags: ["Email and password"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    if (!runtime.config.emailAndPassword.enabled) throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.EMAIL_AND_PASSWORD_IS_NOT_ENABLED);
    const email = normalizeEmail(body.email);
    if (!isValidEmail(email)) throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.INVALID_EMAIL);
    if (body.password.length > runtime.config.emailAndPassword.maxPasswordLength) {
      throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.PASSWORD_TOO_LONG);
    }
    const user = await verifyEmailPassword(runtime, email, body.password, (userId, reason) =>
      recordFailedSignIn(ctx, "email", reason, userId),
    );
    return completeSignIn(ctx, user, body, CREDENTIAL_MESSAGES.EMAIL_NOT_VERIFIED, "email");
  },
});

/**
 * What a password sign-in does once the password is right, whichever identifier was used: refuse an unverified
 * address when verification is required (mailing a fresh link), then the one way in (session/sign-in.ts): the ban check, the sign-in policies, the session.
 */
export async function completeSignIn(
  ctx: EndpointContext,
  found: User,
  body: { rememberMe?: boolean | undefined; callbackURL?: string | undefined },
  notVerifiedMessage: string,
  method: SignInMethod,
) {
  const { runtime } = ctx;
  if (runtime.config.emailAndPassword.requireEmailVerification && !found.emailVerified) {
    const verification = runtime.config.emailVerification;
    if (verification.enabled && verification.sendOnSignIn) {
      inBackground(runtime, "verification-on-sign-in", () =>
        sendVerificationMail(ctx, found, { callbackURL: body.callbackURL }),
      );
    }
    await recordFailedSignIn(ctx, method, "email_not_verified", found.id);
    // The password was right: a verification link opened in this browser keeps it (registrant-cookie.ts).
    throw new APIError("FORBIDDEN", notVerifiedMessage, {
      headers: { "set-cookie": registrantSetCookie(runtime.config, found.id) },
    });
  }
  const { user, session } = await signIn(ctx, found, { method, rememberMe: body.rememberMe ?? true });
  if (body.callbackURL) ctx.setHeader("location", body.callbackURL);
  return {
    redirect: Boolean(body.callbackURL),
    token: session.token,
    ...(body.callbackURL ? { url: body.callbackURL } : {}),
    user: publicUser(user),
  };
}

/**
 * Checks a password against what findUserAndPassword found (looked up by `identifier`). Every failure (no such
 * user, no password, a wrong one) costs one password hash and throws the same 401 with `failure`, so neither
 * timing nor message tells whether the user exists. The check runs under the account's limit (429 after repeated
 * wrong passwords, http/account-limits.ts), keyed by the user when found, else by the identifier.
 */
export async function verifyUserPassword(
  runtime: Runtime,
  found: { user: User; password: string | null } | null,
  password: string,
  failure: string,
  identifier: AccountKey,
  onRefused?: RefusalRecorder,
): Promise<User> {
  let right: boolean;
  try {
    right = await limitPasswordCheck(runtime, found ? `user:${found.user.id}` : identifier, async () => {
      if (found?.password) return runtime.hasher.verify(found.password, password);
      await runtime.hasher.verifyDummy(password);
      return false;
    });
  } catch (error) {
    // The account's limit: too many wrong passwords, this check waits.
    if (error instanceof APIError && error.status === 429) await onRefused?.(found?.user.id ?? null, "locked_out");
    throw error;
  }
  if (!right || !found?.password) {
    await onRefused?.(found?.user.id ?? null, "invalid_credentials");
    throw new APIError("UNAUTHORIZED", failure);
  }
  // An imported hash (gatehouse import) becomes Gatehouse's scrypt at the first sign-in that proves the password.
  await upgradePasswordHash(runtime, found.user.id, found.password, password);
  return found.user;
}

/** Checks an email and password (401 Invalid email or password on any failure). */
export async function verifyEmailPassword(
  runtime: Runtime,
  email: string,
  password: string,
  onRefused?: RefusalRecorder,
): Promise<User> {
  const found = await runtime.stores.users.findUserAndPassword("email", email);
  return verifyUserPassword(runtime, found, password, CREDENTIAL_MESSAGES.INVALID_EMAIL_OR_PASSWORD, `email:${email}`, onRefused);
}

/** Told why a password sign-in was refused, and whose account it was when known (sign_in.failed). */
export type RefusalRecorder = (userId: string | null, reason: SignInFailureReason) => Promise<void>;

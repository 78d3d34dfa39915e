import { z } from "zod";
import { generateId } from "../crypto/random.js";
import { defineEndpoint } from "../http/endpoint.js";
import { APIError, MESSAGES } from "../http/errors.js";
import type { Runtime } from "../runtime.js";
import { BANNED_MESSAGE, checkNewPassword, clientInfo, isBanned } from "./rules.js";
import { inBackground } from "../verification/background.js";
import { sendVerificationMail } from "../verification/mail.js";
import { toLanguage } from "../email/language.js";
import { createStores, type User } from "../storage/index.js";
import { isValidEmail, normalizeEmail } from "../user/email-address.js";
import { imageSchema, nameSchema, rejectProtectedFields } from "../user/fields.js";
import { publicUser, publicUserSchema } from "../user/public.js";

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || /UNIQUE constraint failed/.test(e?.message ?? "");
}

const signUpBody = z.looseObject({
  name: nameSchema,
  email: z.string().max(1024),
  password: z.string().min(1).max(4096),
  image: imageSchema.optional(),
  callbackURL: z.string().max(2048).optional(),
  rememberMe: z.boolean().optional(),
  /** The user's language for mail: a code ("de") or SPEC.md's numeric id (6). */
  lang: z.union([z.string().max(16), z.number().int()]).optional(),
});

export const signUpEmail = defineEndpoint({
  method: "POST",
  path: "/sign-up/email",
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
      throw new APIError("BAD_REQUEST", MESSAGES.EMAIL_PASSWORD_SIGN_UP_DISABLED);
    }
    rejectProtectedFields(body);
    const email = normalizeEmail(body.email);
    if (!isValidEmail(email)) throw new APIError("BAD_REQUEST", MESSAGES.INVALID_EMAIL);
    checkNewPassword(runtime, body.password);
    const lang = body.lang === undefined ? null : toLanguage(body.lang);
    if (body.lang !== undefined && !lang) throw new APIError("BAD_REQUEST", "Unsupported language");

    const signsIn = options.autoSignIn && !options.requireEmailVerification;
    const existing = await runtime.stores.users.findUserByEmail(email);
    if (existing) {
      // Without a session to hand out, do not reveal that the address is taken: answer like a fresh sign-up.
      if (!signsIn) return { token: null, user: syntheticUser(body.name, email, body.image ?? null, runtime.now()) };
      throw new APIError("UNPROCESSABLE_ENTITY", MESSAGES.USER_ALREADY_EXISTS);
    }

    // Hash before the transaction: no connection or write lock is held while scrypt runs.
    const hash = await runtime.hasher.hash(body.password);
    const now = runtime.now();
    const user: User = {
      ...syntheticUser(body.name, email, body.image ?? null, now),
      role: "user",
      lang,
    };
    try {
      await runtime.database.db.transaction().execute(async (trx) => {
        const stores = createStores(trx);
        await stores.users.createUser(user);
        await stores.accounts.createAccount({
          id: generateId(),
          accountId: user.id,
          providerId: "credential",
          userId: user.id,
          accessToken: null,
          refreshToken: null,
          idToken: null,
          accessTokenExpiresAt: null,
          refreshTokenExpiresAt: null,
          scope: null,
          password: hash,
          createdAt: now,
          updatedAt: now,
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new APIError("UNPROCESSABLE_ENTITY", MESSAGES.USER_ALREADY_EXISTS);
      throw error;
    }
    runtime.logger.info({ userId: user.id }, "user signed up");
    const verification = runtime.config.emailVerification;
    if (verification.enabled && verification.sendOnSignUp) {
      inBackground(runtime, "verification-on-sign-up", () =>
        sendVerificationMail(ctx, user, { callbackURL: body.callbackURL }),
      );
    }
    if (!signsIn) return { token: null, user: publicUser(user) };
    const session = await runtime.sessions.createSession(ctx, user, clientInfo(ctx), {
      rememberMe: body.rememberMe ?? true,
    });
    return { token: session.token, user: publicUser(user) };
  },
});

function syntheticUser(name: string, email: string, image: string | null, now: Date): User {
  return {
    id: generateId(),
    name,
    email,
    emailVerified: false,
    image,
    createdAt: now,
    updatedAt: now,
    username: null,
    displayUsername: null,
    role: "user",
    banned: false,
    banReason: null,
    banExpires: null,
    lang: null,
  };
}

export const signInEmail = defineEndpoint({
  method: "POST",
  path: "/sign-in/email",
  auth: "none",
  acceptsForm: true,
  body: z.object({
    email: z.string().max(1024),
    password: z.string().max(4096),
    callbackURL: z.string().max(2048).optional(),
    rememberMe: z.boolean().optional(),
  }),
  callbackFields: ["callbackURL"],
  response: z.object({ redirect: z.boolean(), token: z.string(), url: z.string().optional(), user: publicUserSchema }),
  summary: "Sign in with email and password",
  tags: ["Email and password"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    if (!runtime.config.emailAndPassword.enabled) throw new APIError("BAD_REQUEST", MESSAGES.EMAIL_PASSWORD_DISABLED);
    const email = normalizeEmail(body.email);
    if (!isValidEmail(email)) throw new APIError("BAD_REQUEST", MESSAGES.INVALID_EMAIL);
    if (body.password.length > runtime.config.emailAndPassword.maxPasswordLength) {
      throw new APIError("BAD_REQUEST", MESSAGES.PASSWORD_TOO_LONG);
    }
    const user = await verifyEmailPassword(runtime, email, body.password);
    if (runtime.config.emailAndPassword.requireEmailVerification && !user.emailVerified) {
      const verification = runtime.config.emailVerification;
      if (verification.enabled && verification.sendOnSignIn) {
        inBackground(runtime, "verification-on-sign-in", () =>
          sendVerificationMail(ctx, user, { callbackURL: body.callbackURL }),
        );
      }
      throw new APIError("FORBIDDEN", MESSAGES.EMAIL_NOT_VERIFIED);
    }
    if (isBanned(user, runtime.now())) throw new APIError("FORBIDDEN", BANNED_MESSAGE, { code: "BANNED_USER" });
    const session = await runtime.sessions.createSession(ctx, user, clientInfo(ctx), {
      rememberMe: body.rememberMe ?? true,
    });
    if (body.callbackURL) ctx.setHeader("location", body.callbackURL);
    return {
      redirect: Boolean(body.callbackURL),
      token: session.token,
      ...(body.callbackURL ? { url: body.callbackURL } : {}),
      user: publicUser(user),
    };
  },
});

/**
 * Checks an email and password. Every failure costs one password hash and answers the same 401,
 * so neither timing nor message tells whether the address exists.
 */
export async function verifyEmailPassword(runtime: Runtime, email: string, password: string): Promise<User> {
  const fail = () => new APIError("UNAUTHORIZED", MESSAGES.INVALID_EMAIL_OR_PASSWORD);
  const user = await runtime.stores.users.findUserByEmail(email);
  const account = user ? await runtime.stores.accounts.findCredentialAccount(user.id) : null;
  if (!user || !account?.password) {
    await runtime.hasher.verifyDummy(password);
    throw fail();
  }
  if (!(await runtime.hasher.verify(account.password, password))) throw fail();
  return user;
}

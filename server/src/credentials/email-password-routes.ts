import { z } from "zod";
import { generateId } from "../crypto/random.js";
import { defineEndpoint, type EndpointContext } from "../http/endpoint.js";
import { APIError, MESSAGES } from "../http/errors.js";
import type { Runtime } from "../runtime.js";
import { createStores, type User } from "../storage/index.js";
import { isValidEmail, normalizeEmail } from "../user/email-address.js";
import { imageSchema, nameSchema, rejectProtectedFields } from "../user/fields.js";
import { publicUser, publicUserSchema } from "../user/public.js";

/** Password length bounds (SPEC.md section 5), checked wherever a new password is chosen. */
export function checkNewPassword(runtime: Runtime, password: string): void {
  const { minPasswordLength, maxPasswordLength } = runtime.config.emailAndPassword;
  if (password.length < minPasswordLength) throw new APIError("BAD_REQUEST", MESSAGES.PASSWORD_TOO_SHORT);
  if (password.length > maxPasswordLength) throw new APIError("BAD_REQUEST", MESSAGES.PASSWORD_TOO_LONG);
}

/** A user is banned while their ban has no end or has not ended yet. */
export function isBanned(user: User, now: Date): boolean {
  return user.banned && (!user.banExpires || user.banExpires > now);
}

export const BANNED_MESSAGE = "You have been banned from this application. Please contact support if you believe this is an error.";

export function clientInfo(ctx: EndpointContext): { ip: string; userAgent: string } {
  return { ip: ctx.ip, userAgent: ctx.headers.get("user-agent") ?? "" };
}

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

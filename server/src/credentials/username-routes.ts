import { z } from "zod";
import { defineEndpoint } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import { completeSignIn, signInResponseSchema, verifyUserPassword } from "./email-password-routes.js";
import { recordFailedSignIn } from "../session/sign-in.js";
import { CREDENTIAL_FIXED_CODES, CREDENTIAL_MESSAGES } from "./messages.js";
import { normalizeUsername, usernameSchema } from "./username.js";

export const signInUsername = defineEndpoint({
  method: "POST",
  path: "/sign-in/username",
  changesSession: true,
  rateLimit: "credential",
  auth: "none",
  body: z.object({
    username: usernameSchema,
    password: z.string().max(4096),
    callbackURL: z.string().max(2048).optional(),
    rememberMe: z.boolean().optional(),
  }),
  callbackFields: ["callbackURL"],
  response: signInResponseSchema,
  summary: "Sign in with username and password",
  tags: ["Username"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    if (!runtime.config.emailAndPassword.enabled) throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.EMAIL_AND_PASSWORD_IS_NOT_ENABLED);
    const username = normalizeUsername(runtime, body.username);
    if (body.password.length > runtime.config.emailAndPassword.maxPasswordLength) {
      throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.PASSWORD_TOO_LONG);
    }
    const found = await runtime.stores.users.findUserAndPassword("username", username);
    const user = await verifyUserPassword(
      runtime,
      found,
      body.password,
      CREDENTIAL_MESSAGES.INVALID_USERNAME_OR_PASSWORD,
      `username:${username}`,
      (userId, reason) => recordFailedSignIn(ctx, "username", reason, userId),
    );
    return completeSignIn(ctx, user, body, CREDENTIAL_FIXED_CODES.EMAIL_NOT_VERIFIED, "username");
  },
});

export const isUsernameAvailable = defineEndpoint({
  method: "POST",
  path: "/is-username-available",
  // Each answer says whether a username exists: enough for a form checking as its user types, not for a crawl.
  rateLimit: { window: 60, max: 30 },
  auth: "none",
  body: z.object({ username: usernameSchema }),
  response: z.object({ available: z.boolean() }),
  summary: "Whether a username is free (422 when it breaks the username rules)",
  tags: ["Username"],
  async handler(ctx) {
    const username = normalizeUsername(ctx.runtime, ctx.body.username);
    return { available: (await ctx.runtime.stores.users.findUserByUsername(username)) === null };
  },
});

import { z } from "zod";
import { checkCurrentPassword } from "../credentials/credential-account.js";
import { generateId } from "../crypto/random.js";
import { limitMailTo } from "../http/account-limits.js";
import { defineEndpoint, redirectTo, type EndpointContext } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import { HTTP_MESSAGES } from "../http/messages.js";
import type { Runtime } from "../runtime.js";
import { isSessionFresh } from "../session/freshness.js";
import { SESSION_MESSAGES } from "../session/messages.js";
import { removeUserAndData } from "../user/remove-user.js";
import { deleteAccountIdentifier, DELETE_TOKEN_PATTERN, newDeleteToken } from "./identifiers.js";
import { apiBase, mailUser, withQuery } from "./mail.js";
import { VERIFICATION_MESSAGES } from "./messages.js";

const deletedSchema = z.object({ success: z.boolean(), message: z.string() });

/** Not errors: the `message` of delete-user's two successful answers. */
const USER_DELETED = "User deleted";
const VERIFICATION_EMAIL_SENT = "Verification email sent";

const notEnabled = () => new APIError("NOT_FOUND", HTTP_MESSAGES.NOT_FOUND);

/** Removes the user with their sessions and accounts, and clears the caller's cookies. */
async function deleteUserEverywhere(ctx: EndpointContext, user: { id: string; email: string }) {
  // The user deletes their own account (the mailed link's route reads the session itself: ctx.session is not set).
  await removeUserAndData(ctx.runtime, user, { ...ctx, session: ctx.session ?? (await ctx.getSession({ disableCookieCache: true })) });
  ctx.runtime.sessions.clearSessionCookies(ctx);
  return { success: true, message: USER_DELETED };
}

/** Consumes the delete-account token only when it is the caller's own. */
async function consumeOwnDeleteToken(runtime: Runtime, token: string, userId: string): Promise<boolean> {
  if (!DELETE_TOKEN_PATTERN.test(token)) return false;
  const identifier = deleteAccountIdentifier(token);
  const found = await runtime.stores.verifications.findVerification(identifier);
  if (!found || found.value !== userId) return false;
  const consumed = await runtime.stores.verifications.consumeVerification(identifier, runtime.now());
  return consumed !== null && consumed.value === userId;
}

export const deleteUser = defineEndpoint({
  method: "POST",
  path: "/delete-user",
  changesSession: true,
  rateLimit: "credential",
  auth: "sensitive",
  carriesToken: true,
  // Neither password nor token: a mailed confirmation link, or a fresh session's say-so. So the body may be left out.
  body: z
    .object({
      callbackURL: z.string().max(2048).optional(),
      password: z.string().max(4096).optional(),
      token: z.string().max(4096).optional(),
    })
    .default({}),
  callbackFields: ["callbackURL"],
  response: deletedSchema,
  summary: "Delete the account: with the password, a mailed confirmation link, or a fresh session",
  tags: ["User"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const options = runtime.config.user.deleteUser;
    if (!options.enabled) throw notEnabled();
    const { user, session } = ctx.session!;

    if (body.password !== undefined) {
      await checkCurrentPassword(runtime, user.id, body.password);
      return deleteUserEverywhere(ctx, user);
    }
    if (body.token !== undefined) {
      if (!(await consumeOwnDeleteToken(runtime, body.token, user.id))) {
        throw new APIError("BAD_REQUEST", VERIFICATION_MESSAGES.INVALID_TOKEN);
      }
      return deleteUserEverywhere(ctx, user);
    }
    if (options.sendDeleteAccountVerification) {
      await limitMailTo(runtime, user.email);
      const token = newDeleteToken();
      const now = runtime.now();
      const identifier = deleteAccountIdentifier(token);
      await runtime.stores.verifications.createVerification({
        id: generateId(),
        identifier,
        value: user.id,
        expiresAt: new Date(now.getTime() + options.deleteTokenExpiresIn * 1000),
        createdAt: now,
        updatedAt: now,
      });
      const url = withQuery(`${apiBase(ctx)}/delete-user/callback`, {
        token,
        callbackURL: body.callbackURL || "/account-deleted",
      });
      try {
        await mailUser(ctx, "deleteAccount", user.email, user, url, options.deleteTokenExpiresIn);
      } catch {
        await runtime.stores.verifications.consumeVerification(identifier, now);
        throw new APIError("SERVICE_UNAVAILABLE", VERIFICATION_MESSAGES.THE_EMAIL_COULD_NOT_BE_SENT_PLEASE_TRY_AGAIN_LATER);
      }
      return { success: true, message: VERIFICATION_EMAIL_SENT };
    }
    if (!isSessionFresh(runtime.config.session, session, runtime.now())) {
      throw new APIError("BAD_REQUEST", SESSION_MESSAGES.SESSION_EXPIRED_RE_AUTHENTICATE_TO_PERFORM_THIS_ACTION);
    }
    return deleteUserEverywhere(ctx, user);
  },
});

export const deleteUserCallback = defineEndpoint({
  method: "GET",
  path: "/delete-user/callback",
  changesSession: true,
  auth: "none",
  carriesToken: true,
  query: z.object({ token: z.string().min(1).max(4096), callbackURL: z.string().max(2048).optional() }),
  callbackFields: ["callbackURL"],
  response: deletedSchema,
  summary: "The link mailed to confirm a deletion (opened in the signed-in browser)",
  tags: ["User"],
  async handler(ctx) {
    const { runtime, query } = ctx;
    if (!runtime.config.user.deleteUser.enabled) throw notEnabled();
    const fail = (code: "invalid_token" | "unauthorized", error: APIError) => {
      if (query.callbackURL) return redirectTo(withQuery(query.callbackURL, { error: code }));
      throw error;
    };
    const current = await ctx.getSession({ disableCookieCache: true });
    if (!current) return fail("unauthorized", new APIError("UNAUTHORIZED", HTTP_MESSAGES.UNAUTHORIZED));
    if (!(await consumeOwnDeleteToken(runtime, query.token, current.user.id))) {
      return fail("invalid_token", new APIError("BAD_REQUEST", VERIFICATION_MESSAGES.INVALID_TOKEN));
    }
    const result = await deleteUserEverywhere(ctx, current.user);
    // `deleted=true` marks the one answer that deleted something: the page it lands on says the account is gone
    // only with it (a failure carries `error=…` instead).
    return query.callbackURL ? redirectTo(withQuery(query.callbackURL, { deleted: "true" })) : result;
  },
});

import { z } from "zod";
import { admitUser, clientInfo } from "../credentials/rules.js";
import { defineEndpoint, redirectTo, type EndpointContext } from "../http/endpoint.js";
import { APIError, MESSAGES } from "../http/errors.js";
import { isValidEmail, normalizeEmail } from "../user/email-address.js";
import { publicUser, publicUserSchema } from "../user/public.js";
import { answerNoSoonerThan, inBackground } from "./background.js";
import { verifyEmailToken } from "./email-token.js";
import { sendVerificationMail, withQuery } from "./mail.js";

/** Mails a verification link, answering 503 when the mailer refuses it. */
export async function sendVerificationOrFail(ctx: EndpointContext, ...args: Parameters<typeof sendVerificationMail> extends [EndpointContext, ...infer R] ? R : never) {
  try {
    await sendVerificationMail(ctx, ...args);
  } catch {
    throw new APIError("SERVICE_UNAVAILABLE", MESSAGES.EMAIL_NOT_SENT);
  }
}

export const sendVerificationEmail = defineEndpoint({
  method: "POST",
  path: "/send-verification-email",
  auth: "none",
  body: z.object({ email: z.string().max(1024), callbackURL: z.string().max(2048).optional() }),
  callbackFields: ["callbackURL"],
  response: z.object({ status: z.boolean() }),
  summary: "Mail a new verification link (to the signed-in user, or to an address without revealing if it has an account)",
  tags: ["Email verification"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    if (!runtime.config.emailVerification.enabled) {
      throw new APIError("BAD_REQUEST", MESSAGES.VERIFICATION_EMAIL_NOT_ENABLED);
    }
    const email = normalizeEmail(body.email);
    if (!isValidEmail(email)) throw new APIError("BAD_REQUEST", MESSAGES.INVALID_EMAIL);
    const session = await ctx.getSession({ disableCookieCache: true });
    if (session) {
      if (session.user.email !== email) throw new APIError("BAD_REQUEST", MESSAGES.EMAIL_MISMATCH);
      if (session.user.emailVerified) throw new APIError("BAD_REQUEST", MESSAGES.EMAIL_ALREADY_VERIFIED);
      await sendVerificationOrFail(ctx, session.user, { callbackURL: body.callbackURL });
      return { status: true };
    }
    const start = performance.now();
    inBackground(runtime, "send-verification-email", async () => {
      const user = await runtime.stores.users.findUserByEmail(email);
      if (user && !user.emailVerified) await sendVerificationMail(ctx, user, { callbackURL: body.callbackURL });
    });
    await answerNoSoonerThan(start);
    return { status: true };
  },
});

type Failure = "invalid_token" | "token_expired" | "user_not_found" | "couldnt_update_your_email";

const FAILURES: Record<Failure, APIError> = {
  invalid_token: new APIError("UNAUTHORIZED", MESSAGES.INVALID_TOKEN),
  token_expired: new APIError("UNAUTHORIZED", MESSAGES.TOKEN_EXPIRED),
  user_not_found: new APIError("UNAUTHORIZED", MESSAGES.USER_NOT_FOUND),
  couldnt_update_your_email: new APIError("BAD_REQUEST", MESSAGES.COULDNT_UPDATE_EMAIL),
};

export const verifyEmail = defineEndpoint({
  method: "GET",
  path: "/verify-email",
  auth: "none",
  query: z.object({ token: z.string().min(1).max(4096), callbackURL: z.string().max(2048).optional() }),
  callbackFields: ["callbackURL"],
  response: z.object({ status: z.boolean(), user: publicUserSchema }),
  summary: "Use a mailed verification (or email-change) link",
  tags: ["Email verification"],
  async handler(ctx) {
    const { runtime, query } = ctx;
    const fail = (reason: Failure) => {
      if (query.callbackURL) return redirectTo(withQuery(query.callbackURL, { error: reason }));
      throw FAILURES[reason];
    };
    const result = await verifyEmailToken(query.token, runtime.config.secret, runtime.now());
    if (!result.ok) return fail(result.reason);
    const user = await runtime.stores.users.findUserByEmail(result.claims.email);
    if (!user) return fail("user_not_found");

    let updated = user;
    if (result.claims.purpose === "change-email") {
      const newEmail = result.claims.updateTo!;
      const taken = await runtime.stores.users.findUserByEmail(newEmail);
      if (taken && taken.id !== user.id) return fail("couldnt_update_your_email");
      const changed = await runtime.stores.users
        .updateUser(user.id, { email: newEmail, emailVerified: false, updatedAt: runtime.now() })
        .catch(() => null);
      if (!changed) return fail("couldnt_update_your_email");
      updated = changed;
      // The new address must be verified in its turn (SPEC.md section 4).
      if (runtime.config.emailVerification.enabled) {
        inBackground(runtime, "verify-new-email", () =>
          sendVerificationMail(ctx, changed, { callbackURL: query.callbackURL }),
        );
      }
    } else if (!user.emailVerified) {
      updated = (await runtime.stores.users.updateUser(user.id, { emailVerified: true, updatedAt: runtime.now() })) ?? user;
    }

    const current = await ctx.getSession({ disableCookieCache: true });
    if (current && current.user.id === updated.id) {
      runtime.sessions.setSessionCookies(ctx, { session: current.session, user: updated });
    } else if (runtime.config.emailVerification.autoSignInAfterVerification && result.claims.purpose === "verify-email") {
      // A banned user's address is verified all the same, but they are not signed in.
      const admitted = await admitUser(runtime, updated);
      if (admitted) await runtime.sessions.createSession(ctx, admitted, clientInfo(ctx));
    }
    if (query.callbackURL) return redirectTo(query.callbackURL);
    return { status: true, user: publicUser(updated) };
  },
});

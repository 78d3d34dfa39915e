import { z } from "zod";
import { CREDENTIAL_MESSAGES } from "../credentials/messages.js";
import { emitEvent } from "../events/emit.js";
import { secondStepAnswerSchema, SecondStepRequired, signIn, SignInRefused } from "../session/sign-in.js";
import { limitMailTo } from "../http/account-limits.js";
import { defineEndpoint, redirectTo, type EndpointContext } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import type { User } from "../storage/index.js";
import { isValidEmail, normalizeEmail } from "../user/email-address.js";
import { resetModuleCredentials } from "../user/credentials-reset.js";
import { USER_MESSAGES } from "../user/messages.js";
import { publicUser, publicUserSchema } from "../user/public.js";
import { answerNoSoonerThan, inBackground } from "./background.js";
import { consumeEmailToken, verifyEmailToken, type VerifiedEmailToken } from "./email-token.js";
import { EMAIL_TOKEN_PREFIX } from "./identifiers.js";
import { VERIFICATION_MESSAGES } from "./messages.js";
import { clearRegistrant, isRegistrant } from "./registrant-cookie.js";
import { sendVerificationMail, withQuery } from "./mail.js";
import { notifyEmailChanged } from "./notices.js";

/** Mails a verification link, answering 503 when the mailer refuses it. */
export async function sendVerificationOrFail(ctx: EndpointContext, ...args: Parameters<typeof sendVerificationMail> extends [EndpointContext, ...infer R] ? R : never) {
  try {
    await sendVerificationMail(ctx, ...args);
  } catch {
    throw new APIError("SERVICE_UNAVAILABLE", VERIFICATION_MESSAGES.THE_EMAIL_COULD_NOT_BE_SENT_PLEASE_TRY_AGAIN_LATER);
  }
}

export const sendVerificationEmail = defineEndpoint({
  method: "POST",
  path: "/send-verification-email",
  rateLimit: "mail",
  auth: "none",
  body: z.object({ email: z.string().max(1024), callbackURL: z.string().max(2048).optional() }),
  callbackFields: ["callbackURL"],
  response: z.object({ status: z.boolean() }),
  summary: "Mail a new verification link (to the signed-in user, or to an address without revealing if it has an account)",
  tags: ["Email verification"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    if (!runtime.config.emailVerification.enabled) {
      throw new APIError("BAD_REQUEST", VERIFICATION_MESSAGES.VERIFICATION_EMAIL_ISNT_ENABLED);
    }
    const email = normalizeEmail(body.email);
    if (!isValidEmail(email)) throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.INVALID_EMAIL);
    const session = await ctx.getSession({ disableCookieCache: true });
    if (session) {
      if (session.user.email !== email) throw new APIError("BAD_REQUEST", VERIFICATION_MESSAGES.EMAIL_MISMATCH);
      if (session.user.emailVerified) throw new APIError("BAD_REQUEST", VERIFICATION_MESSAGES.EMAIL_IS_ALREADY_VERIFIED);
      await limitMailTo(runtime, email);
      await sendVerificationOrFail(ctx, session.user, { callbackURL: body.callbackURL });
      return { status: true };
    }
    // Counted for the address asked for, account or not, so a 429 says nothing about whether it has one.
    await limitMailTo(runtime, email);
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
  invalid_token: new APIError("UNAUTHORIZED", VERIFICATION_MESSAGES.INVALID_TOKEN),
  token_expired: new APIError("UNAUTHORIZED", VERIFICATION_MESSAGES.TOKEN_EXPIRED),
  user_not_found: new APIError("UNAUTHORIZED", USER_MESSAGES.USER_NOT_FOUND),
  couldnt_update_your_email: new APIError("BAD_REQUEST", VERIFICATION_MESSAGES.COULDNT_UPDATE_YOUR_EMAIL),
};

/** Thrown inside the link's transaction to roll it back (the token stays unused) and answer `reason`. */
class LinkRefused extends Error {
  constructor(readonly reason: Failure) {
    super(reason);
  }
}

/** What using a link did. */
interface LinkOutcome {
  user: User;
  /** The address went from unverified to verified with this link. */
  proven: boolean;
  /** The password set before the proof was removed (the owner sets one by reset). */
  passwordRemoved: boolean;
}

/**
 * Uses a checked token in one transaction: its one-time row is consumed, the user it names must still have the
 * address it was mailed to (else invalid_token: a token never acts on another user, even one who took the address
 * since), then the change it carries is made.
 *
 * Proving the mailbox of an unverified address that holds a password is the moment a pre-registration takeover
 * would succeed: someone else may have signed up with the address and chosen that password. Unless the proof comes
 * from the registrant's own browser (`byRegistrant`), every session of the user ends and the password goes, in the
 * same transaction, and so does what that registrant may have set up besides (the modules' onCredentialsReset,
 * "mailbox-proven": second factors, trusted devices), so the owner is not met by someone else's second step; the
 * mailbox owner can then set a password by reset. Every other verification link of the user is deleted with the
 * proof, so no older link signs in later.
 */
async function useEmailToken(
  ctx: EndpointContext,
  claims: VerifiedEmailToken,
  byRegistrant: boolean,
): Promise<LinkOutcome> {
  const { runtime } = ctx;
  // The holder of the mailed link acts for the user it names (signed in or not).
  const actorId = claims.userId;
  return runtime.stores.transaction(async (stores) => {
    const now = runtime.now();
    if (!(await consumeEmailToken(stores, claims, now))) throw new LinkRefused("invalid_token");
    // Two links of the same user used at once: the second waits here and then finds the address proven.
    await stores.users.lockUser(claims.userId);
    const user = await stores.users.findUserById(claims.userId);
    if (!user) throw new LinkRefused("user_not_found");
    if (user.email !== claims.email) throw new LinkRefused("invalid_token");

    if (claims.purpose === "change-email") {
      const newEmail = claims.updateTo!;
      const taken = await stores.users.findUserByEmail(newEmail);
      if (taken && taken.id !== user.id) throw new LinkRefused("couldnt_update_your_email");
      // A racing sign-up may take the address meanwhile: its unique violation rolls the whole link back.
      const changed = await stores.users
        .updateUser(user.id, { email: newEmail, emailVerified: false, updatedAt: now })
        .catch(() => null);
      if (!changed) throw new LinkRefused("couldnt_update_your_email");
      await emitEvent(stores, ctx, "email.changed", { userId: user.id, actorId, data: { from: user.email, to: newEmail } });
      return { user: changed, proven: false, passwordRemoved: false };
    }
    if (user.emailVerified) return { user, proven: false, passwordRemoved: false };

    const verified = (await stores.users.updateUser(user.id, { emailVerified: true, updatedAt: now })) ?? user;
    await stores.verifications.deleteUserVerifications(EMAIL_TOKEN_PREFIX, user.id);
    let passwordRemoved = false;
    if (!byRegistrant) {
      const credential = await stores.accounts.findCredentialAccount(user.id);
      if (credential?.password) {
        await stores.accounts.clearAccountPassword(credential.id, now);
        await stores.sessions.deleteUserSessions(user.id);
        await resetModuleCredentials(runtime, stores, user.id, "mailbox-proven");
        passwordRemoved = true;
      }
    }
    await emitEvent(stores, ctx, "email.verified", { userId: user.id, actorId, data: { email: user.email, passwordRemoved } });
    // The modules may have changed the user (second factors removed): answer the row as it is now.
    const current = passwordRemoved ? ((await stores.users.findUserById(user.id)) ?? verified) : verified;
    return { user: current, proven: true, passwordRemoved };
  });
}

export const verifyEmail = defineEndpoint({
  method: "GET",
  path: "/verify-email",
  changesSession: true,
  auth: "none",
  carriesToken: true,
  query: z.object({ token: z.string().min(1).max(4096), callbackURL: z.string().max(2048).optional() }),
  callbackFields: ["callbackURL"],
  response: z.union([
    z.object({ status: z.boolean(), user: publicUserSchema, passwordRemoved: z.boolean().optional() }),
    secondStepAnswerSchema,
  ]),
  summary: "Use a mailed verification (or email-change) link, once",
  tags: ["Email verification"],
  async handler(ctx) {
    const { runtime, query } = ctx;
    const fail = (reason: Failure) => {
      if (query.callbackURL) return redirectTo(withQuery(query.callbackURL, { error: reason }));
      throw FAILURES[reason];
    };
    const result = await verifyEmailToken(query.token, runtime.config.secret, runtime.now());
    if (!result.ok) return fail(result.reason);
    const { claims } = result;

    const current = await ctx.getSession({ disableCookieCache: true });
    const byRegistrant = current?.user.id === claims.userId || isRegistrant(ctx, claims.userId);
    let outcome: LinkOutcome;
    try {
      outcome = await useEmailToken(ctx, claims, byRegistrant);
    } catch (error) {
      if (error instanceof LinkRefused) return fail(error.reason);
      throw error;
    }
    const { user: updated, proven, passwordRemoved } = outcome;
    if (claims.purpose === "change-email") {
      // The old address hears that the change happened (it confirmed a request; now it is no longer the account's).
      notifyEmailChanged(runtime, ctx.headers, updated, claims.email, updated.email);
      // The new address must be verified in its turn (SPEC.md section 4).
      if (runtime.config.emailVerification.enabled) {
        inBackground(runtime, "verify-new-email", () => sendVerificationMail(ctx, updated, { callbackURL: query.callbackURL }));
      }
    }
    if (proven) clearRegistrant(ctx);

    // The page the link lands on says what happened from these markers alone: `verified=true` only when the
    // address is verified now (never on a failure, which carries `error=…` instead), `passwordRemoved=true` when
    // this proof removed the password. An email change lands on its own callback without a marker.
    const markers: Record<string, string> = claims.purpose === "change-email" ? {} : { verified: "true" };
    if (passwordRemoved) markers.passwordRemoved = "true";
    const landing = query.callbackURL && Object.keys(markers).length > 0 ? withQuery(query.callbackURL, markers) : query.callbackURL;
    if (current && current.user.id === updated.id && !passwordRemoved) {
      runtime.sessions.setSessionCookies(ctx, { session: current.session, user: updated });
    } else if (runtime.config.emailVerification.autoSignInAfterVerification && proven) {
      // Only the link that proved the address signs in, once; a banned user's address is verified all the same,
      // but they are not signed in. A user with a second factor meets the second step: a link with a callback
      // leads to the web app's second-step page (then the callback), a JSON answer is the runner's twoFactorRedirect.
      try {
        await signIn(ctx, updated, { method: "email-verification" });
      } catch (error) {
        if (error instanceof SecondStepRequired && landing) return redirectTo(error.secondStepURL(landing));
        if (!(error instanceof SignInRefused)) throw error;
      }
    }
    if (landing) return redirectTo(landing);
    return { status: true, user: publicUser(updated), ...(passwordRemoved ? { passwordRemoved: true } : {}) };
  },
});

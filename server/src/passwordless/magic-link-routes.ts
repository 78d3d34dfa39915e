import { z } from "zod";
import { CREDENTIAL_MESSAGES } from "../credentials/messages.js";
import { generateId } from "../crypto/random.js";
import { limitMailTo } from "../http/account-limits.js";
import { defineEndpoint, redirectTo } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import { requireBase } from "../http/public-base.js";
import { SignInRefused, secondStepAnswerSchema } from "../session/sign-in.js";
import { isValidEmail, normalizeEmail } from "../user/email-address.js";
import { nameSchema } from "../user/fields.js";
import { publicSession, publicSessionSchema, publicUser, publicUserSchema, statusSchema } from "../user/public.js";
import { answerNoSoonerThan, inBackground } from "../verification/background.js";
import { mailUser, withQuery } from "../verification/mail.js";
import { VERIFICATION_MESSAGES } from "../verification/messages.js";
import { signInMailboxOwner, type ProvenAddress } from "./mailbox-proof.js";
import { MAGIC_LINK_MESSAGES } from "./messages.js";
import { hashMagicLinkToken, MAGIC_LINK_TOKEN_PATTERN, newMagicLinkToken } from "./secrets.js";

/** A link's row in core's verification table: `magic-link:<hash of its token>` (never the token itself). */
export const MAGIC_LINK_PREFIX = "magic-link:";
const linkIdentifier = (secret: string, token: string) => `${MAGIC_LINK_PREFIX}${hashMagicLinkToken(secret, token)}`;

/** The web app's page a mailed link opens (README.md "Magic links and email codes"): it asks for a click first. */
export const MAGIC_LINK_PAGE = "/magic-link";

const callbackURL = z.string().max(2048).optional();

export const signInMagicLink = defineEndpoint({
  method: "POST",
  path: "/sign-in/magic-link",
  rateLimit: "mail",
  auth: "none",
  // Better Auth guards it like a sign-in form: a cross-site navigation is refused, an Origin must be trusted.
  acceptsForm: true,
  body: z.object({
    email: z.string().max(1024),
    name: nameSchema.optional(),
    callbackURL,
    newUserCallbackURL: callbackURL,
    errorCallbackURL: callbackURL,
    metadata: z.record(z.string().max(256), z.unknown()).optional(),
  }),
  callbackFields: ["callbackURL", "newUserCallbackURL", "errorCallbackURL"],
  response: statusSchema,
  summary: "Mail a sign-in link (always answers status true: whether the address has an account is not said)",
  tags: ["Magic link"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const email = normalizeEmail(body.email);
    if (!isValidEmail(email)) throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.INVALID_EMAIL);
    // Counted for the address asked for, account or not, so a 429 says nothing about whether it has one.
    await limitMailTo(runtime, email);
    const options = runtime.config.magicLink;
    const start = performance.now();
    inBackground(runtime, "magic-link", async () => {
      const user = await runtime.stores.users.findUserByEmail(email);
      if (!user && options.disableSignUp) return;
      const token = newMagicLinkToken();
      const identifier = linkIdentifier(runtime.config.secret, token);
      const now = runtime.now();
      const value: ProvenAddress = { email, ...(body.name ? { name: body.name } : {}) };
      await runtime.stores.verifications.createVerification({
        id: generateId(),
        identifier,
        value: JSON.stringify(value),
        expiresAt: new Date(now.getTime() + options.expiresIn * 1000),
        createdAt: now,
        updatedAt: now,
      });
      // The web app's page, on email.appURL else BASE_URL (never the request's Host): a mail scanner that opens it
      // uses nothing; the page's button calls GET /magic-link/verify.
      const page = `${(runtime.config.email.appURL ?? requireBase(runtime)).replace(/\/+$/, "")}${MAGIC_LINK_PAGE}`;
      const params: Record<string, string> = { token };
      if (body.callbackURL) params.callbackURL = body.callbackURL;
      if (body.newUserCallbackURL) params.newUserCallbackURL = body.newUserCallbackURL;
      if (body.errorCallbackURL) params.errorCallbackURL = body.errorCallbackURL;
      try {
        await mailUser(ctx, "magicLink", email, user ?? { name: email, email, lang: null }, withQuery(page, params), options.expiresIn);
      } catch (error) {
        await runtime.stores.verifications.consumeVerification(identifier, now);
        throw error;
      }
    });
    await answerNoSoonerThan(start);
    return { status: true };
  },
});

/** Reads a consumed link's row: the address it was mailed to, and the name a new account gets. */
function provenAddress(value: string): ProvenAddress | null {
  try {
    const parsed = z.object({ email: z.string(), name: z.string().optional() }).parse(JSON.parse(value));
    return { email: parsed.email, name: parsed.name };
  } catch {
    return null;
  }
}

export const magicLinkVerify = defineEndpoint({
  method: "GET",
  path: "/magic-link/verify",
  changesSession: true,
  rateLimit: "credential",
  auth: "none",
  carriesToken: true,
  query: z.object({
    token: z.string().min(1).max(256),
    callbackURL,
    newUserCallbackURL: callbackURL,
    errorCallbackURL: callbackURL,
  }),
  callbackFields: ["callbackURL", "newUserCallbackURL", "errorCallbackURL"],
  response: z.union([
    z.object({ token: z.string(), user: publicUserSchema, session: publicSessionSchema }),
    secondStepAnswerSchema,
  ]),
  summary:
    "Use a sign-in link, once: with callbackURL it redirects there (newUserCallbackURL for a new account, errors to " +
    "errorCallbackURL with ?error=), without it answers the session as JSON",
  tags: ["Magic link"],
  async handler(ctx) {
    const { runtime, query } = ctx;
    const errorTarget = query.errorCallbackURL || query.callbackURL;
    const fail = (code: string, error: APIError) => {
      if (errorTarget) return redirectTo(withQuery(errorTarget, { error: code }));
      throw error;
    };
    const invalid = () => fail("INVALID_TOKEN", new APIError("UNAUTHORIZED", VERIFICATION_MESSAGES.INVALID_TOKEN));
    // Anything but a link's token (another kind of token, say) is no link: no lookup, the same answer.
    if (!MAGIC_LINK_TOKEN_PATTERN.test(query.token)) return invalid();
    const identifier = linkIdentifier(runtime.config.secret, query.token);

    let outcome;
    try {
      outcome = await signInMailboxOwner(ctx, {
        method: "magic-link",
        signUp: !runtime.config.magicLink.disableSignUp,
        async consume(stores) {
          // One statement: of twenty concurrent uses exactly one gets the row; an expired row is removed and refused.
          const row = await stores.verifications.consumeVerification(identifier, runtime.now());
          return row ? provenAddress(row.value) : null;
        },
      });
    } catch (error) {
      if (error instanceof SignInRefused && errorTarget) return redirectTo(withQuery(errorTarget, { error: "banned" }));
      throw error;
    }
    if (outcome.kind === "refused") {
      if (outcome.reason === "signup-disabled") {
        return fail("new_user_signup_disabled", new APIError("BAD_REQUEST", MAGIC_LINK_MESSAGES.NEW_USER_SIGNUP_DISABLED));
      }
      return invalid();
    }
    if (outcome.kind === "second-step") {
      // A browser that followed the link goes to the second-step page; an API client gets the JSON answer.
      if (query.callbackURL) return redirectTo(outcome.pending.secondStepURL(query.callbackURL));
      throw outcome.pending;
    }
    if (query.callbackURL) {
      return redirectTo(outcome.isNew && query.newUserCallbackURL ? query.newUserCallbackURL : query.callbackURL);
    }
    return { token: outcome.session.token, user: publicUser(outcome.user), session: publicSession(outcome.session) };
  },
});

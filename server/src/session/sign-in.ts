import { z } from "zod";
import { admitUser, bannedUserError, clientInfo } from "../credentials/rules.js";
import type { EndpointContext } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import { buildEventRow, emitEvent, eventInsert } from "../events/emit.js";
import type { SignInFailureReason } from "../events/types.js";
import { noteSignInDevice, type FinishedSignIn } from "../new-device/sign-in-device.js";
import { isUniqueViolation } from "../storage/constraint-errors.js";
import type { Session, User } from "../storage/index.js";
import type { ExtraRow } from "../storage/new-user.js";
import { secondFactorPolicy } from "../two-factor/policy.js";
import { SESSION_MESSAGES } from "./messages.js";

/**
 * How a user signed in, recorded on the session (session.loginMethod) and, for a method the user chose on the
 * sign-in page, in the last-used cookie: "email" (email and password, sign-up included), "username", a social
 * provider's id ("google", an `oidc` provider's id; redirect or ID token alike), "email-verification" (a
 * verification link's auto sign-in), "impersonation" (an administrator acting as the user).
 */
export type SignInMethod = string;

/** Ways in the user did not pick on the sign-in page: they never become the browser's "last used" method. */
const NOT_CHOSEN: ReadonlySet<SignInMethod> = new Set(["email-verification", "impersonation"]);

/**
 * The factor a sign-in method proves by itself, first on the session's `factors`: "password" (email or username and
 * password), "email" (a mailed link or code: the mailbox), "passkey", "impersonation" (an administrator's), and
 * "social" for a provider (redirect or ID token). A second step adds its own ("totp", "otp", "backup-code").
 */
export function firstFactorOf(method: SignInMethod): string {
  switch (method) {
    case "email":
    case "username":
      return "password";
    case "email-verification":
    case "magic-link":
    case "email-otp":
      return "email";
    case "passkey":
    case "impersonation":
      return method;
    default:
      return "social";
  }
}

/** Better Auth's lastLoginMethod cookie life: 30 days. */
const LAST_USED_COOKIE_LIFE = 2_592_000;

export interface SignInAttempt {
  user: User;
  method: SignInMethod;
  /** Impersonation: the administrator opening the session. */
  impersonatedBy?: string | undefined;
  /** A session that replaces one the user already holds (change-password revoking the others). */
  renewalOf?: Session | undefined;
  /** SignInOptions.factors. */
  factors?: readonly string[] | undefined;
  /** SignInOptions.rememberMe (true unless turned off): a second step keeps it for the session it opens. */
  rememberMe: boolean;
}

/**
 * A sign-in policy: runs after the ban check and before the session exists; refuses by throwing SignInRefused (or
 * any APIError), or lets it through, answering the factors it found proven (a trusted device), which the session
 * records. The second factor (two-factor/policy.ts) hooks in here and nowhere else: it looks at the attempt (method,
 * user, impersonation, renewal, factors) and diverts a sign-in that still owes a factor, whichever way in it came.
 */
export type SignInPolicy = (
  ctx: EndpointContext,
  attempt: SignInAttempt,
) => void | readonly string[] | Promise<void | readonly string[]>;

/**
 * The policies every sign-in runs, in order. A module owning one (the second factor) lists it here. Each is reached
 * through an arrow, so that a module importing this file while this file imports the module finds it defined.
 */
const POLICIES: readonly SignInPolicy[] = [(ctx, attempt) => secondFactorPolicy(ctx, attempt)];

/**
 * What runs once a sign-in has its session and its cookies are set, in order: a module that must know of every
 * sign-in lists its step here (the new-device mail, new-device/sign-in-device.ts). A step may add cookies; it never
 * refuses the sign-in (its own failures are its own to log). Reached through arrows, as POLICIES are.
 */
const AFTER_SIGN_IN: readonly ((ctx: EndpointContext, signedIn: FinishedSignIn) => Promise<void>)[] = [
  (ctx, signedIn) => noteSignInDevice(ctx, signedIn),
];

/** A sign-in refused by the ban check or a policy; a caller that must not answer with an error (a verification link) catches this one. */
export class SignInRefused extends APIError {}

/**
 * A sign-in that owes a second step (the two-factor module's policy): no session was created; the pending challenge
 * and its short-lived signed cookie are set already. A JSON route lets it through: the endpoint runner answers
 * 200 `{ twoFactorRedirect: true, twoFactorMethods }` (Better Auth's answer). A route a browser navigates to (a
 * mailed link, a provider's callback) catches it and redirects to `secondStepURL`, the web app's second-step page.
 */
export class SecondStepRequired extends Error {
  /** The second factors the user can answer with ("totp", "otp"; "backup-code" is always possible with totp). */
  readonly methods: readonly string[];
  /** Builds the second-step page's URL, carrying where to go once done. */
  readonly secondStepURL: (callbackURL: string | undefined) => string;

  constructor(methods: readonly string[], secondStepURL: (callbackURL: string | undefined) => string) {
    // An answer, not a failure: no stack trace to capture (it costs more than the rest of the throw).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super("second step required");
    Error.stackTraceLimit = limit;
    this.methods = methods;
    this.secondStepURL = secondStepURL;
  }
}

/** The endpoint runner's answer to SecondStepRequired (API-NOTES-PLUGINS.md 2.6), for the sign-in routes' schemas. */
export const secondStepAnswerSchema = z
  .object({ twoFactorRedirect: z.literal(true), twoFactorMethods: z.array(z.string()) })
  .meta({
    id: "TwoFactorRedirect",
    description: "The user owes a second step: no session yet; the pending step's cookie is set (two-factor routes)",
  });

export interface SignInOptions {
  method: SignInMethod;
  /** Off: a one-day session in a browser-session cookie. On by default. */
  rememberMe?: boolean | undefined;
  /** Impersonation: the administrator, and when the session ends. */
  impersonation?: { by: string; expiresAt: Date } | undefined;
  /**
   * Replaces the user's current session (its id and method are kept, its token is new; the last-used cookie is left
   * alone). The caller has deleted that session's row already (its id is taken until then).
   */
  renewalOf?: Session | undefined;
  /**
   * The factors this way in proved by itself beyond the first, recorded on the session: a passkey with user
   * verification is both possession and a PIN or biometric (["passkey"]), so it owes no second step.
   */
  factors?: readonly string[] | undefined;
  /**
   * Stores the session itself instead of the session store's insert: sign-up writes the user, their password and
   * the first session in one statement, a TOTP second step's answer writes it with the step it spends. Called with
   * the session once the checks have passed, and the rows to write with it (its sign-in event). It may answer the
   * user as its statement read them (the second step's answer reads them afresh): the rest of the sign-in uses them.
   */
  store?: ((session: Session, extraRows: readonly ExtraRow[]) => Promise<User | void>) | undefined;
}

/**
 * Writes sign_in.failed (events/types.ts): a refused sign-in, its way in and why, the user when known (never what
 * was typed). Nothing changed, so there is no transaction to join; a failure to write it is logged, never answered.
 */
export async function recordFailedSignIn(
  ctx: EndpointContext,
  method: SignInMethod,
  reason: SignInFailureReason,
  userId: string | null,
): Promise<void> {
  // Counted in the metrics whether or not events are on (README "Metrics").
  ctx.runtime.metrics.signIn(method, "failure", reason);
  await emitEvent(ctx.runtime.stores, ctx, "sign_in.failed", { userId, actorId: null, data: { method, reason } }).catch(
    (error: Error) => ctx.runtime.logger.warn({ err: error.message }, "could not record a failed sign-in"),
  );
}

/**
 * The one way in: every sign-in method ends here. Refuses a banned user (403 BANNED_USER with
 * admin.bannedUserMessage; a ban that has run out is lifted), runs the sign-in policies, creates the session with
 * the method recorded on it, sets its cookies, and remembers the method for the sign-in page (the last-used
 * cookie; user.lastLoginMethod with lastLoginMethod.storeInDatabase).
 */
export async function signIn(
  ctx: EndpointContext,
  found: User,
  opts: SignInOptions,
): Promise<{ user: User; session: Session }> {
  const { runtime } = ctx;
  const user = await admitUser(ctx, found);
  if (!user) {
    await recordFailedSignIn(ctx, opts.method, "banned", found.id);
    const banned = bannedUserError(runtime);
    throw new SignInRefused(banned.status, banned.message, { code: banned.code });
  }
  const method = opts.renewalOf?.loginMethod ?? opts.method;
  const rememberMe = opts.impersonation ? false : (opts.rememberMe ?? true);
  const proven: string[] = [];
  for (const policy of POLICIES) {
    const found = await policy(ctx, {
      user,
      method,
      impersonatedBy: opts.impersonation?.by,
      renewalOf: opts.renewalOf,
      factors: opts.factors,
      rememberMe,
    });
    if (found) proven.push(...found);
  }
  // The first factor, then the others proven: a renewal keeps what the session it replaces had proven.
  const first = opts.renewalOf?.factors ?? [firstFactorOf(method)];
  const factors = [...new Set([...first, ...(opts.factors ?? []), ...proven])];

  const sessionOptions = {
    rememberMe,
    loginMethod: method,
    factors,
    overrides: opts.impersonation
      ? { expiresAt: opts.impersonation.expiresAt, impersonatedBy: opts.impersonation.by }
      : opts.renewalOf
        ? // A renewal (a password change, a second factor confirmed) keeps where the user was working, and the id
          // (a new token): the sign-in's event names the session by it (README "Security events in the web app").
          {
            id: opts.renewalOf.id,
            activeOrganizationId: opts.renewalOf.activeOrganizationId,
            activeTeamId: opts.renewalOf.activeTeamId,
          }
        : undefined,
  };
  const session = runtime.sessions.newSession(user, clientInfo(ctx), sessionOptions);
  // Its event, written with it (one statement on PostgreSQL): a sign-in, or an administrator's impersonation. A
  // renewal is part of the change that renews (a password change, a confirmed second factor), whose event it has.
  const event = opts.renewalOf
    ? null
    : opts.impersonation
      ? buildEventRow(ctx, "impersonation.started", {
          userId: user.id,
          actorId: opts.impersonation.by,
          data: { sessionId: session.id, expiresAt: session.expiresAt.toISOString() },
        })
      : buildEventRow(ctx, "sign_in.succeeded", {
          userId: user.id,
          actorId: user.id,
          data: { method, factors, sessionId: session.id },
        });
  const extraRows = eventInsert(runtime.stores, event);
  let read: User | void = undefined;
  try {
    if (opts.store) read = await opts.store(session, extraRows);
    else await runtime.stores.sessions.createSession(session, extraRows);
  } catch (error) {
    // Two renewals of one session at once (a password change sent twice) both take its id: the second finds it
    // taken, and the session it came with is gone, so it answers as an ended session does.
    if (opts.renewalOf && isUniqueViolation(error)) throw new APIError("UNAUTHORIZED", SESSION_MESSAGES.SESSION_NOT_FOUND);
    throw error;
  }
  // A renewal (a password change, a confirmed second factor's new session) is no sign-in.
  if (!opts.renewalOf) runtime.metrics.signIn(method, "success");
  // The user as the store read them with the session's write, when it did: newer than the row this began with.
  const signedIn = read || user;
  runtime.sessions.setNewSessionCookies(ctx, { session, user: signedIn }, sessionOptions);

  const lastUsed = runtime.config.lastLoginMethod;
  if (lastUsed.enabled && !opts.renewalOf && !opts.impersonation && !NOT_CHOSEN.has(method)) {
    // Readable by the page (not HttpOnly) and unsigned: it only picks which button gets a "Last used" mark.
    ctx.setCookie(lastUsed.cookieName, method, {
      path: "/",
      httpOnly: false,
      sameSite: "Lax",
      secure: runtime.config.secureCookies,
      maxAge: LAST_USED_COOKIE_LIFE,
    });
    if (lastUsed.storeInDatabase) await runtime.stores.users.setLastLoginMethod(user.id, method);
  }
  for (const step of AFTER_SIGN_IN) {
    await step(ctx, { user: signedIn, session, impersonatedBy: opts.impersonation?.by, renewal: opts.renewalOf !== undefined });
  }
  return { user: signedIn, session };
}

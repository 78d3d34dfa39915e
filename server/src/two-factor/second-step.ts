import { checkCurrentPassword } from "../credentials/credential-account.js";
import { CREDENTIAL_MESSAGES } from "../credentials/messages.js";
import { ALPHANUMERIC, generateId, randomString } from "../crypto/random.js";
import { safeEqual } from "../crypto/hmac.js";
import { unsignCookieValue } from "../http/cookies.js";
import type { EndpointContext } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import { HTTP_MESSAGES } from "../http/messages.js";
import { tooManyRequests } from "../http/rate-limit.js";
import type { Runtime } from "../runtime.js";
import { isSessionFresh } from "../session/freshness.js";
import { SESSION_MESSAGES } from "../session/messages.js";
import { recordFailedSignIn, signIn, type SignInOptions } from "../session/sign-in.js";
import type { Session, User } from "../storage/index.js";
import type { SessionAndUser } from "../storage/sessions.js";
import { publicUser } from "../user/public.js";
import { expirePendingCookie, expiredPendingCookieLine, pendingToken } from "./cookies.js";
import { TWO_FACTOR_FIXED_CODES, TWO_FACTOR_MESSAGES } from "./messages.js";
import { trustThisDevice } from "./policy.js";
import { tokenHash, twoFactorKeys } from "./secrets.js";
import type { PendingSignIn, TwoFactorChallenge, TwoFactorRecord } from "./store/index.js";

/** A second factor a second step (or an enrolment) is answered with, as recorded on the session's factors. */
export type SecondFactor = "totp" | "otp" | "backup-code";

/**
 * Who a verify route acts for (API-NOTES-PLUGINS.md 2.7): the signed-in user ("session": enrolment, or a check
 * with nothing to sign in to), else the pending second step its cookie names ("sign-in").
 */
export type VerifyMode =
  | { kind: "session"; current: SessionAndUser; user: User }
  | ({ kind: "sign-in" } & PendingSignIn);

export const invalidTwoFactorCookie = (runtime: Pick<Runtime, "config">) =>
  new APIError("UNAUTHORIZED", TWO_FACTOR_MESSAGES.INVALID_TWO_FACTOR_COOKIE, {
    headers: { "set-cookie": expiredPendingCookieLine(runtime.config) },
  });

export const tooManyAttempts = (runtime: Pick<Runtime, "config">) =>
  new APIError("BAD_REQUEST", TWO_FACTOR_FIXED_CODES.TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE, {
    code: "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE",
    headers: { "set-cookie": expiredPendingCookieLine(runtime.config) },
  });

/**
 * The pending second step the request's cookie names, with its user and their twoFactor row (one read); 401
 * INVALID_TWO_FACTOR_COOKIE otherwise.
 */
export async function requirePending(ctx: EndpointContext): Promise<PendingSignIn> {
  const { runtime } = ctx;
  const token = pendingToken(ctx, runtime.config);
  if (!token) throw invalidTwoFactorCookie(runtime);
  const pending = await runtime.stores.twoFactorChallenges.findPendingSignIn(tokenHash(token), runtime.now());
  if (!pending) throw invalidTwoFactorCookie(runtime);
  return pending;
}

/** Session mode when the caller is signed in (read from the database), else sign-in mode (Better Auth's order). */
export async function resolveMode(ctx: EndpointContext): Promise<VerifyMode> {
  const current = await ctx.getSession({ disableCookieCache: true });
  if (current) return { kind: "session", current, user: current.user };
  return { kind: "sign-in", ...(await requirePending(ctx)) };
}

/** The account lockout holds for this user now (it follows rateLimit.enabled and twoFactor.accountLockout.enabled). */
export function lockoutApplies(runtime: Pick<Runtime, "config">): boolean {
  return runtime.config.rateLimitEnabled && runtime.config.twoFactor.accountLockout.enabled;
}

/** 429 ACCOUNT_TEMPORARILY_LOCKED while the user's second step is locked (Retry-After says for how long). */
export function refuseWhileLocked(runtime: Runtime, row: TwoFactorRecord | null): void {
  if (!lockoutApplies(runtime) || !row?.lockedUntil) return;
  const left = row.lockedUntil.getTime() - runtime.now().getTime();
  if (left <= 0) return;
  runtime.metrics.rateLimitRefused("two_factor_lockout");
  const limited = tooManyRequests(left);
  throw new APIError(429, TWO_FACTOR_FIXED_CODES.ACCOUNT_TEMPORARILY_LOCKED, {
    code: "ACCOUNT_TEMPORARILY_LOCKED",
    headers: limited.headers,
  });
}

/** One more wrong code for the user, counted toward the account lockout. */
export async function recordWrongCode(runtime: Runtime, userId: string): Promise<void> {
  if (!lockoutApplies(runtime)) return;
  const { maxFailedAttempts, durationSeconds } = runtime.config.twoFactor.accountLockout;
  const lockUntil = new Date(runtime.now().getTime() + durationSeconds * 1000);
  const count = await runtime.stores.twoFactors.recordFailure(userId, maxFailedAttempts, lockUntil);
  if (count !== null && count >= maxFailedAttempts) {
    runtime.logger.warn({ userId, failures: count }, "second step locked after repeated wrong codes");
  }
}

/**
 * Counts one code against the pending step before it is checked (challengeStore.reserveAttempt): `allowedAttempts`
 * codes at most, however many arrive at once. Answers the count; refuses when the step is over or spent.
 */
export async function reserveAttempt(ctx: EndpointContext, challenge: TwoFactorChallenge): Promise<number> {
  const { runtime } = ctx;
  const max = runtime.config.twoFactor.otpOptions.allowedAttempts;
  const count = await runtime.stores.twoFactorChallenges.reserveAttempt(challenge.id, max, runtime.now());
  if (count !== null) return count;
  // Spent (or over). Not deleted here: codes that reserved the last attempts may still be checked right now, and
  // one of them may be right; the last wrong one deletes it (wrongCode), else it expires unused.
  const still = await runtime.stores.twoFactorChallenges.findChallenge(challenge.id, runtime.now());
  throw still ? tooManyAttempts(runtime) : invalidTwoFactorCookie(runtime);
}

/**
 * A wrong code against a pending step (or a right one already spent): counted toward the lockout; the last allowed
 * one ends the step (its cookie expired, 400 TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: the user signs in again), any other
 * answers `wrong`.
 */
export async function wrongCode(
  ctx: EndpointContext,
  challenge: TwoFactorChallenge,
  attempt: number,
  wrong: APIError,
  factor: SecondFactor,
): Promise<never> {
  const { runtime } = ctx;
  // An enrolment's wrong codes end the enrolment only: they say nothing of someone guessing at a sign-in.
  if (challenge.kind === "sign-in") {
    await recordWrongCode(runtime, challenge.userId);
    await recordFailedSignIn(ctx, factor, "invalid_second_factor", challenge.userId);
  }
  if (attempt >= runtime.config.twoFactor.otpOptions.allowedAttempts) {
    await runtime.stores.twoFactorChallenges.deleteChallenge(challenge.id);
    throw tooManyAttempts(runtime);
  }
  throw wrong;
}

/**
 * The second step passed (its challenge consumed already, or consumed by `store` with the session): the session for
 * the challenge's user (as read with the challenge, in this request), through the one way in with the first
 * factor's method and remember-me, recording both factors; the pending cookie goes; with `trustDevice` this browser
 * is trusted from now on. Answers Better Auth's `{ token, user }`. `store` (SignInOptions.store) writes the session
 * with what ends the step, in one statement; it throws when the step does not end, and then nothing is written.
 */
export async function finishSecondStep(
  ctx: EndpointContext,
  { challenge, user: found }: Pick<PendingSignIn, "challenge" | "user">,
  factor: SecondFactor,
  trustDevice: boolean | undefined,
  store?: SignInOptions["store"],
): Promise<{ token: string; user: ReturnType<typeof publicUser> }> {
  const { runtime } = ctx;
  const { user, session } = await signIn(ctx, found, {
    method: challenge.method ?? "email",
    rememberMe: challenge.rememberMe,
    factors: [...challenge.factors, factor],
    store,
  });
  expirePendingCookie(ctx, runtime.config);
  if (trustDevice) await trustThisDevice(ctx, user.id);
  runtime.logger.info({ userId: user.id, factor }, "second step passed");
  return { token: session.token, user: publicUser(user) };
}

/**
 * Replaces the caller's session after a change of their factors (Better Auth rotates it): in one transaction the old
 * one deleted, then a new session through the one way in (a renewal: no second step, the id, method and factors
 * kept, plus `factor` when one was just proven; a new token). A session ended meanwhile (signed out from another
 * browser, or rotated by a request at the same moment) is not renewed: 401, as the request would have been a moment
 * later. Answers the new session and the user as it is now.
 */
export async function rotateSession(
  ctx: EndpointContext,
  current: SessionAndUser,
  factor?: SecondFactor,
): Promise<{ session: Session; user: User }> {
  const { runtime } = ctx;
  const user = (await runtime.stores.users.findUserById(current.user.id)) ?? current.user;
  const raw = ctx.cookie(runtime.config.cookieNames.dontRemember);
  const dontRemember = raw !== undefined && unsignCookieValue(raw, runtime.config.secret) === "true";
  const { session } = await runtime.stores.transaction(async (stores) => {
    // First: the renewal takes the old session's id.
    const ended = await stores.sessions.deleteSessionReturning(current.session.token, current.user.id);
    if (!ended) throw new APIError("UNAUTHORIZED", HTTP_MESSAGES.UNAUTHORIZED);
    return signIn({ ...ctx, runtime: { ...runtime, stores } }, user, {
      method: current.session.loginMethod ?? "email",
      renewalOf: current.session,
      rememberMe: !dontRemember,
      factors: factor ? [factor] : undefined,
    });
  });
  return { session, user };
}

/**
 * Step-up for changing factors (issue item 7): the password, as Better Auth asks (body `password`; missing or wrong:
 * 400 INVALID_PASSWORD, and wrong ones count toward the account's password limit). A user without a password
 * (social sign-in only) has none to give: their session must be fresh instead (session.freshAge, measured as
 * session.freshFrom says; 403 SESSION_NOT_FRESH otherwise).
 */
export async function requireStepUp(ctx: EndpointContext, password: string | undefined): Promise<void> {
  const { runtime } = ctx;
  const { user, session } = ctx.session!;
  const account = await runtime.stores.accounts.findCredentialAccount(user.id);
  if (account?.password) {
    if (!password) throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.INVALID_PASSWORD);
    if (password.length > runtime.config.emailAndPassword.maxPasswordLength) {
      throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.INVALID_PASSWORD);
    }
    await checkCurrentPassword(runtime, user.id, password);
    return;
  }
  if (!isSessionFresh(runtime.config.session, session, runtime.now())) {
    throw new APIError("FORBIDDEN", SESSION_MESSAGES.SESSION_IS_NOT_FRESH);
  }
}

/** New backup codes: `amount` codes of `length` letters and digits, shown with a hyphen in the middle. */
export function newBackupCodes(runtime: Pick<Runtime, "config">): string[] {
  const { amount, length } = runtime.config.twoFactor.backupCodeOptions;
  const half = Math.ceil(length / 2);
  return Array.from({ length: amount }, () => {
    const code = randomString(length, ALPHANUMERIC);
    return `${code.slice(0, half)}-${code.slice(half)}`;
  });
}

/** A backup code as stored: hyphens and spaces dropped (letters keep their case), then its HMAC for the user. */
export function backupCodeHash(runtime: Pick<Runtime, "config">, userId: string, code: string): string {
  return twoFactorKeys(runtime.config.secret).codeHash(`backup:${userId}`, code.replace(/[\s-]/g, ""));
}

/** Replaces the user's backup codes with new ones (stored hashed: shown this once); answers them. Call in a transaction. */
export async function replaceBackupCodes(runtime: Runtime, stores: Runtime["stores"], userId: string): Promise<string[]> {
  const codes = newBackupCodes(runtime);
  await stores.twoFactorBackupCodes.replaceBackupCodes(
    userId,
    codes.map((code) => ({ id: generateId(), codeHash: backupCodeHash(runtime, userId, code) })),
    runtime.now(),
  );
  return codes;
}

/** A mailed code's stored form, bound to its challenge. */
export function otpHash(runtime: Pick<Runtime, "config">, challengeId: string, code: string): string {
  return twoFactorKeys(runtime.config.secret).codeHash(`otp:${challengeId}`, code);
}

/** Whether `code` is the challenge's mailed code (constant time). */
export function otpMatches(runtime: Pick<Runtime, "config">, challenge: TwoFactorChallenge, code: string): boolean {
  return challenge.otpHash !== null && safeEqual(otpHash(runtime, challenge.id, code.trim()), challenge.otpHash);
}

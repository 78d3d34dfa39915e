import { z } from "zod";
import { actorOf, emitEvent } from "../events/emit.js";
import { generateId, randomString } from "../crypto/random.js";
import { limitMailTo } from "../http/account-limits.js";
import { defineEndpoint, type EndpointContext } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import type { User } from "../storage/index.js";
import { sessionInsert } from "../storage/sessions.js";
import type { SessionAndUser } from "../storage/sessions.js";
import { publicUser, publicUserSchema } from "../user/public.js";
import { VERIFICATION_MESSAGES } from "../verification/messages.js";
import { expirePendingCookie, expireTrustCookie, pendingToken } from "./cookies.js";
import { enrolmentChallengeId } from "./enrolment-routes.js";
import { forgetSignIn, knownSignIn } from "./known-sign-ins.js";
import { sendSecondStepCode } from "./mail.js";
import { TWO_FACTOR_FIXED_CODES, TWO_FACTOR_MESSAGES } from "./messages.js";
import { availableMethods, confirmedTotpSecret } from "./policy.js";
import {
  backupCodeHash,
  finishSecondStep,
  invalidTwoFactorCookie,
  lockoutApplies,
  otpHash,
  otpMatches,
  recordWrongCode,
  refuseWhileLocked,
  requirePending,
  reserveAttempt,
  resolveMode,
  rotateSession,
  tooManyAttempts,
  wrongCode,
} from "./second-step.js";
import { tokenHash, twoFactorKeys } from "./secrets.js";
import type { PendingSignIn, TotpOutcome, TwoFactorChallenge } from "./store/index.js";
import { matchTotpStep } from "./totp.js";

/**
 * The verify routes (API-NOTES-PLUGINS.md 2.7, 2.8): with a session they confirm an enrolment (or check a code),
 * without one they answer the pending second step the `two_factor` cookie names and open the session. Every code
 * is counted before it is checked (second-step.ts reserveAttempt), spent in one statement (a TOTP step, a backup
 * code's row, the challenge itself), and the challenge is consumed atomically with it. A TOTP code for a pending
 * sign-in this process started is matched first against the secret read with it, but that verdict counts only
 * in the statement that counts the code (answerKnownSignIn): a right code gets through only as one of the
 * attempts allowed, however many arrive at once.
 */
const TAGS = ["Two factor"] as const;
const code = z.string().max(64);
const trustDevice = z.boolean().optional();
const signedIn = z.object({ token: z.string(), user: publicUserSchema });

const invalidCode = () => new APIError("UNAUTHORIZED", TWO_FACTOR_MESSAGES.INVALID_CODE);
const totpNotEnabled = () => new APIError("BAD_REQUEST", TWO_FACTOR_MESSAGES.TOTP_NOT_ENABLED);
const otpNotEnabled = () => new APIError("BAD_REQUEST", TWO_FACTOR_MESSAGES.OTP_NOT_ENABLED);

/** Turns a user's second step on once a factor is confirmed; a factor changed, so every trusted device ends. */
async function factorAdded(ctx: EndpointContext, current: SessionAndUser, factor: "totp" | "otp") {
  expireTrustCookie(ctx, ctx.runtime.config);
  const { session, user } = await rotateSession(ctx, current, factor);
  ctx.runtime.logger.info({ userId: user.id, factor }, "second factor added");
  return { token: session.token, user: publicUser(user) };
}

/**
 * Counts a TOTP code against the pending second step the cookie names, before it is checked, and answers the step,
 * the count and the authenticator's secret. The usual case takes one statement (challengeStore.reserveTotpAttempt);
 * when it counts nothing, the checks run one by one to say why, in this order: the cookie (401), the authenticator
 * (400 TOTP_NOT_ENABLED), the lockout (429), the attempts left.
 */
async function reserveTotpAnswer(ctx: EndpointContext): Promise<{ pending: PendingSignIn; attempt: number; secret: string }> {
  const { runtime } = ctx;
  const token = pendingToken(ctx, runtime.config);
  if (!token) throw invalidTwoFactorCookie(runtime);
  const reserved = await runtime.stores.twoFactorChallenges.reserveTotpAttempt(tokenHash(token), {
    max: runtime.config.twoFactor.otpOptions.allowedAttempts,
    now: runtime.now(),
    lockout: lockoutApplies(runtime),
  });
  if (reserved) {
    // Counted already: a sealed secret that does not open here (another tool's key) refuses as the checks would.
    const secret = confirmedTotpSecret(runtime, reserved.factor);
    if (!secret) throw totpNotEnabled();
    return { pending: reserved, attempt: reserved.challenge.attempts, secret };
  }
  const pending = await requirePending(ctx);
  const secret = confirmedTotpSecret(runtime, pending.factor);
  if (!secret) throw totpNotEnabled();
  refuseWhileLocked(runtime, pending.factor);
  return { pending, attempt: await reserveAttempt(ctx, pending.challenge), secret };
}

export const verifyTotp = defineEndpoint({
  method: "POST",
  path: "/two-factor/verify-totp",
  changesSession: true,
  rateLimit: "credential",
  auth: "none",
  carriesToken: true,
  body: z.object({ code, trustDevice }),
  response: signedIn,
  summary:
    "Answer the second step with an authenticator's code (opens the session), or confirm the authenticator being added (the session is replaced)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const now = runtime.now();
    const params = runtime.config.twoFactor.totpOptions;
    const current = await ctx.getSession({ disableCookieCache: true });

    if (current) {
      const userId = current.user.id;
      const row = await runtime.stores.twoFactors.findFactor(userId);
      const secret = row?.secret ? twoFactorKeys(runtime.config.secret).openSecret(userId, row.secret) : null;
      if (!row || !secret) throw totpNotEnabled();
      if (!row.verified) {
        // Enrolment: its own attempt cap, the last wrong code discards it (enable again for a new secret).
        const max = runtime.config.twoFactor.otpOptions.allowedAttempts;
        const attempt = await runtime.stores.twoFactors.reservePendingAttempt(userId, max);
        // Spent: not discarded here (codes that took the last attempts may be being checked); the last wrong one does.
        if (attempt === null) throw tooManyAttempts(runtime);
        const step = matchTotpStep(secret, body.code.trim(), params, now);
        if (step === null) {
          if (attempt >= max) {
            await runtime.stores.twoFactors.discardPendingTotp(userId, now);
            throw tooManyAttempts(runtime);
          }
          throw invalidCode();
        }
        await runtime.stores.transaction(async (stores) => {
          await stores.users.lockUser(userId);
          if (!(await stores.twoFactors.confirmTotp(userId, step, now))) throw invalidCode();
          await stores.twoFactors.setTwoFactorEnabled(userId, true);
          await stores.trustedDevices.deleteUserTrustedDevices(userId);
          await emitEvent(stores, ctx, "two_factor.enabled", { userId, actorId: actorOf(current), data: { method: "totp" } });
        });
        return factorAdded(ctx, current, "totp");
      }
      // A confirmed authenticator: a check of the code, nothing to sign in to (the step is spent all the same).
      refuseWhileLocked(runtime, row);
      const step = matchTotpStep(secret, body.code.trim(), params, now);
      if (step === null || !(await runtime.stores.twoFactors.acceptTotpStep(userId, step, now))) {
        await recordWrongCode(runtime, userId);
        throw invalidCode();
      }
      return { token: current.session.token, user: publicUser(current.user) };
    }

    const known = await answerKnownSignIn(ctx, body.code.trim(), body.trustDevice);
    if (known) return known;
    const { pending, attempt, secret } = await reserveTotpAnswer(ctx);
    const { challenge, user } = pending;
    const userId = user.id;
    const step = matchTotpStep(secret, body.code.trim(), params, now);
    if (step === null) return wrongCode(ctx, challenge, attempt, invalidCode(), "totp");
    // The step spent, the challenge ended and the session written together (one statement on PostgreSQL): a code
    // already accepted, this one replayed within its window, is a wrong code; a challenge ended meanwhile (another
    // right answer) leaves the step unspent. Either way no session is written.
    try {
      return await finishSecondStep(ctx, pending, "totp", body.trustDevice, async (session, extraRows) => {
        const outcome = await runtime.stores.twoFactorChallenges.acceptTotpAndConsume(challenge.id, userId, step, now, [
          sessionInsert(session),
          ...extraRows,
        ]);
        if (outcome !== "consumed") throw new StepNotTaken(outcome);
      });
    } catch (error) {
      if (!(error instanceof StepNotTaken)) throw error;
      if (error.outcome === "gone") throw invalidTwoFactorCookie(runtime);
      return wrongCode(ctx, challenge, attempt, invalidCode(), "totp");
    }
  },
});

/** A right TOTP code whose step or challenge was taken meanwhile: thrown by signIn's `store`, nothing written. */
class StepNotTaken extends Error {
  constructor(readonly outcome: Exclude<TotpOutcome, "consumed">) {
    super(`second step not taken: ${outcome}`);
  }
}

/** A TOTP code answered with its step spent already, counted as this attempt: thrown by signIn's `store`. */
class StepSpent extends Error {
  constructor(readonly attempt: number) {
    super("TOTP step spent already");
  }
}

/** A pending sign-in that challengeStore.answerTotp did not answer (nothing changed): thrown by signIn's `store`. */
class NotAnswered extends Error {}

/**
 * A TOTP code against a pending sign-in this process started (known-sign-ins.ts), in one statement: the code is
 * checked against the secret read with the challenge's insert, then challengeStore.answerTotp counts it against the
 * challenge and, as that statement finds the user may answer it now (every check of the full path), spends its
 * step, ends the challenge and writes the session, all or nothing, through the one way in. A right code whose step
 * was spent already is counted and refused as a wrong one. Answers null, with nothing counted or written, when the
 * full path must run: a pending sign-in not known here, a code that does not match that secret (the full path
 * counts it, then checks it), a condition that no longer holds (the full path says which).
 */
async function answerKnownSignIn(
  ctx: EndpointContext,
  code: string,
  trustDevice: boolean | undefined,
): Promise<{ token: string; user: ReturnType<typeof publicUser> } | null> {
  const { runtime } = ctx;
  const token = pendingToken(ctx, runtime.config);
  const known = token ? knownSignIn(runtime, tokenHash(token)) : null;
  if (!known) return null;
  const { challenge, user, sealedSecret } = known;
  const now = runtime.now();
  const secret = twoFactorKeys(runtime.config.secret).openSecret(user.id, sealedSecret);
  const step = secret ? matchTotpStep(secret, code, runtime.config.twoFactor.totpOptions, now) : null;
  if (step === null) return null;
  const answer = {
    id: challenge.id,
    userId: user.id,
    sealedSecret,
    step,
    now,
    max: runtime.config.twoFactor.otpOptions.allowedAttempts,
    lockout: lockoutApplies(runtime),
  };
  try {
    return await finishSecondStep(ctx, known, "totp", trustDevice, async (session, extraRows) => {
      const answered = await runtime.stores.twoFactorChallenges.answerTotp(answer, [sessionInsert(session), ...extraRows]);
      if (!answered) throw new NotAnswered();
      if (answered.outcome === "counted") throw new StepSpent(answered.attempts);
      forgetSignIn(runtime, challenge.id);
      return answered.user;
    });
  } catch (error) {
    if (error instanceof NotAnswered) return null;
    if (error instanceof StepSpent) return wrongCode(ctx, challenge, error.attempt, invalidCode(), "totp");
    throw error;
  }
}

export const verifyBackupCode = defineEndpoint({
  method: "POST",
  path: "/two-factor/verify-backup-code",
  changesSession: true,
  rateLimit: "credential",
  auth: "none",
  carriesToken: true,
  body: z.object({ code, disableSession: z.boolean().optional(), trustDevice }),
  response: z.object({ token: z.string().optional(), user: publicUserSchema }),
  summary: "Answer the second step with a backup code, which is then spent (opens the session unless disableSession)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const mode = await resolveMode(ctx);
    const userId = mode.user.id;
    const row = mode.kind === "sign-in" ? mode.factor : await runtime.stores.twoFactors.findFactor(userId);
    refuseWhileLocked(runtime, row);
    if ((await runtime.stores.twoFactorBackupCodes.countBackupCodes(userId)) === 0) {
      throw new APIError("BAD_REQUEST", TWO_FACTOR_FIXED_CODES.BACKUP_CODES_NOT_ENABLED, { code: "BACKUP_CODES_NOT_ENABLED" });
    }
    const hash = backupCodeHash(runtime, userId, body.code.trim());
    const wrong = () => new APIError("UNAUTHORIZED", TWO_FACTOR_MESSAGES.INVALID_BACKUP_CODE);

    if (mode.kind === "session") {
      if (!(await runtime.stores.twoFactorBackupCodes.useBackupCode(userId, hash))) {
        await recordWrongCode(runtime, userId);
        throw wrong();
      }
      return { token: mode.current.session.token, user: publicUser(mode.current.user) };
    }

    const { challenge } = mode;
    const attempt = await reserveAttempt(ctx, challenge);
    const now = runtime.now();
    const consumed = await runtime.stores.transaction(async (stores) => {
      if (!(await stores.twoFactorBackupCodes.useBackupCode(userId, hash))) return null;
      const taken = await stores.twoFactorChallenges.consumeChallenge(challenge.id, now);
      if (!taken) throw invalidTwoFactorCookie(runtime);
      return taken;
    });
    if (!consumed) return wrongCode(ctx, challenge, attempt, wrong(), "backup-code");
    await runtime.stores.twoFactors.clearFailures(userId);
    if (body.disableSession) {
      // Better Auth's option: the code proven and spent, the step over, no session.
      expirePendingCookie(ctx, runtime.config);
      return { user: publicUser(mode.user) };
    }
    return finishSecondStep(ctx, { challenge: consumed, user: mode.user }, "backup-code", body.trustDevice);
  },
});

/** Mails a new code for the challenge (the previous one stops counting). */
async function mailCode(ctx: EndpointContext, challenge: TwoFactorChallenge, user: User, purpose: "sign-in" | "enrol") {
  const { runtime } = ctx;
  const options = runtime.config.twoFactor.otpOptions;
  // Counted per address like every mail (rateLimit.account.mailPerAddress), whatever client asks.
  await limitMailTo(runtime, user.email);
  const otp = randomString(options.digits, "0123456789");
  const now = runtime.now();
  const expiresIn = options.period * 60;
  const set = await runtime.stores.twoFactorChallenges.setOtp(
    challenge.id,
    otpHash(runtime, challenge.id, otp),
    new Date(now.getTime() + expiresIn * 1000),
    now,
    purpose === "enrol",
  );
  if (!set) throw purpose === "sign-in" ? invalidTwoFactorCookie(runtime) : otpNotEnabled();
  try {
    await sendSecondStepCode(ctx, user, otp, expiresIn, purpose);
  } catch {
    throw new APIError("SERVICE_UNAVAILABLE", VERIFICATION_MESSAGES.THE_EMAIL_COULD_NOT_BE_SENT_PLEASE_TRY_AGAIN_LATER);
  }
}

export const sendOtp = defineEndpoint({
  method: "POST",
  path: "/two-factor/send-otp",
  rateLimit: "credential",
  auth: "none",
  body: z.object({ trustDevice }).optional(),
  response: z.object({ status: z.boolean() }),
  summary: "Mail a code for the second step, or to prove the mailbox of the email code being added",
  tags: TAGS,
  async handler(ctx) {
    const { runtime } = ctx;
    const mode = await resolveMode(ctx);
    if (mode.kind === "session") {
      const challenge = await runtime.stores.twoFactorChallenges.findChallenge(
        enrolmentChallengeId(mode.current.session.id),
        runtime.now(),
      );
      if (!challenge) throw otpNotEnabled();
      await mailCode(ctx, challenge, mode.user, "enrol");
      return { status: true };
    }
    if (!availableMethods(runtime, mode.factor).includes("otp")) throw otpNotEnabled();
    refuseWhileLocked(runtime, mode.factor);
    await mailCode(ctx, mode.challenge, mode.user, "sign-in");
    return { status: true };
  },
});

export const verifyOtp = defineEndpoint({
  method: "POST",
  path: "/two-factor/verify-otp",
  changesSession: true,
  rateLimit: "credential",
  auth: "none",
  carriesToken: true,
  body: z.object({ code, trustDevice }),
  response: signedIn,
  summary:
    "Answer the second step with the mailed code (opens the session), or prove the mailbox so the email code becomes a factor (the session is replaced)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const mode = await resolveMode(ctx);
    const now = runtime.now();
    const userId = mode.user.id;
    let challenge: TwoFactorChallenge;
    if (mode.kind === "session") {
      const found = await runtime.stores.twoFactorChallenges.findChallenge(enrolmentChallengeId(mode.current.session.id), now);
      if (!found) throw otpNotEnabled();
      challenge = found;
    } else {
      if (!availableMethods(runtime, mode.factor).includes("otp")) throw otpNotEnabled();
      refuseWhileLocked(runtime, mode.factor);
      challenge = mode.challenge;
    }
    if (!challenge.otpHash || !challenge.otpExpiresAt || challenge.otpExpiresAt <= now) {
      throw new APIError("BAD_REQUEST", TWO_FACTOR_MESSAGES.OTP_HAS_EXPIRED);
    }
    const attempt = await reserveAttempt(ctx, challenge);
    if (!otpMatches(runtime, challenge, body.code)) return wrongCode(ctx, challenge, attempt, invalidCode(), "otp");
    // Spent with the challenge, in one statement: of concurrent right answers exactly one gets through.
    const consumed = await runtime.stores.twoFactorChallenges.consumeChallenge(challenge.id, now, challenge.otpHash);
    if (!consumed) {
      if (mode.kind === "sign-in") throw invalidTwoFactorCookie(runtime);
      throw invalidCode();
    }

    if (mode.kind === "session") {
      await runtime.stores.transaction(async (stores) => {
        await stores.users.lockUser(userId);
        await stores.twoFactors.enableOtp(generateId(), userId, now);
        await stores.twoFactors.setTwoFactorEnabled(userId, true);
        await stores.trustedDevices.deleteUserTrustedDevices(userId);
        await emitEvent(stores, ctx, "two_factor.enabled", { userId, actorId: actorOf(mode.current), data: { method: "otp" } });
      });
      return factorAdded(ctx, mode.current, "otp");
    }
    await runtime.stores.twoFactors.clearFailures(userId);
    return finishSecondStep(ctx, { challenge: consumed, user: mode.user }, "otp", body.trustDevice);
  },
});

import { generateId, randomString } from "../crypto/random.js";
import type { EndpointContext } from "../http/endpoint.js";
import type { Runtime } from "../runtime.js";
import { SecondStepRequired, type SignInAttempt } from "../session/sign-in.js";
import { withQuery } from "../social/urls.js";
import { expireTrustCookie, setPendingCookie, setTrustCookie, trustCookieOf } from "./cookies.js";
import { rememberSignIn } from "./known-sign-ins.js";
import { tokenHash, twoFactorKeys } from "./secrets.js";
import type { TwoFactorChallenge, TwoFactorRecord } from "./store/index.js";

/** The module's name in MODULES (module.ts). */
export const TWO_FACTOR_MODULE = "two-factor";

/**
 * Factors that answer the second step themselves: a passkey with user verification (both possession and a PIN or
 * biometric), and the second factors of this module, which the second step's own sign-in records.
 */
const SATISFY_SECOND_STEP: ReadonlySet<string> = new Set(["passkey", "totp", "otp", "backup-code"]);

/** Whether the module's routes answer and its policy holds: installed (its stores exist) and turned on. */
export function twoFactorActive(runtime: Pick<Runtime, "config" | "modules">): boolean {
  return runtime.config.twoFactor.enabled && runtime.modules.some((m) => m.name === TWO_FACTOR_MODULE);
}

/** The authenticator of a row, when it is confirmed and opens under this secret. */
export function confirmedTotpSecret(runtime: Pick<Runtime, "config">, row: TwoFactorRecord | null): string | null {
  if (!row || !row.verified || !row.secret) return null;
  return twoFactorKeys(runtime.config.secret).openSecret(row.userId, row.secret);
}

/**
 * The second factors a user can answer the step with (Better Auth's `twoFactorMethods`): "totp" with a confirmed
 * authenticator, "otp" when the email code is one of their factors. Backup codes are never listed (they are always
 * possible alongside). A user marked as having a second factor with none that opens here (rows written by another
 * tool under another key) is offered the email code, so they are never locked out.
 */
export function availableMethods(runtime: Pick<Runtime, "config">, row: TwoFactorRecord | null): string[] {
  const methods: string[] = [];
  if (confirmedTotpSecret(runtime, row)) methods.push("totp");
  if (row?.otpEnabledAt || methods.length === 0) methods.push("otp");
  return methods;
}

/**
 * The web app's second-step page on the public base, carrying where to go once done and the methods the user can
 * answer with (`methods=totp,otp`, as the JSON answer's `twoFactorMethods`: the page offers only those).
 * `callbackURL` is one the route already checked (callbackFields, or an OAuth state's).
 */
export function secondStepURL(
  runtime: Pick<Runtime, "base">,
  callbackURL: string | undefined,
  methods: readonly string[],
): string {
  const base = runtime.base.url();
  const page = base ? `${new URL(base).origin}/two-factor` : "/two-factor";
  return withQuery(page, { callbackURL: callbackURL || undefined, methods: methods.join(",") || undefined });
}

/**
 * The browser presents a trusted device of this user: its token is replaced (and its cookie re-issued) in one
 * statement; true when it held. A cookie that does not hold is removed.
 */
async function useTrustedDevice(ctx: EndpointContext, userId: string): Promise<boolean> {
  const { runtime } = ctx;
  const presented = trustCookieOf(ctx, runtime.config);
  if (!presented) {
    expireTrustCookie(ctx, runtime.config);
    return false;
  }
  const now = runtime.now();
  const token = randomString(32);
  const held = await runtime.stores.trustedDevices.rotateTrustedDevice(
    presented.id,
    userId,
    tokenHash(presented.token),
    { tokenHash: tokenHash(token), expiresAt: new Date(now.getTime() + runtime.config.twoFactor.trustDeviceMaxAge * 1000) },
    now,
  );
  if (!held) {
    expireTrustCookie(ctx, runtime.config);
    return false;
  }
  setTrustCookie(ctx, runtime.config, presented.id, token);
  return true;
}

/** Trusts this browser for the user (a second step passed with `trustDevice`): a row and its cookie. */
export async function trustThisDevice(ctx: EndpointContext, userId: string): Promise<void> {
  const { runtime } = ctx;
  const now = runtime.now();
  const id = generateId();
  const token = randomString(32);
  await runtime.stores.trustedDevices.deleteExpiredTrustedDevices(userId, now);
  await runtime.stores.trustedDevices.createTrustedDevice({
    id,
    userId,
    tokenHash: tokenHash(token),
    userAgent: ctx.headers.get("user-agent")?.slice(0, 512) ?? null,
    expiresAt: new Date(now.getTime() + runtime.config.twoFactor.trustDeviceMaxAge * 1000),
    createdAt: now,
    lastUsedAt: now,
  });
  setTrustCookie(ctx, runtime.config, id, token);
}

/** Challenges that are over are deleted at most this often (each set of stores, so each process, sweeps its own). */
const SWEEP_INTERVAL_MS = 60_000;
const lastSweep = new WeakMap<object, number>();

/**
 * Deletes every challenge that is over, at most once a minute, from the sign-ins that make new ones: no expired row
 * is ever accepted (every read checks expiresAt), so they need not go at once, and a sign-in pays for no delete of
 * its own. A failure is logged: the sign-in goes on.
 */
async function sweepExpiredChallenges(runtime: Runtime, now: Date): Promise<void> {
  const last = lastSweep.get(runtime.stores);
  const at = now.getTime();
  if (last !== undefined && at >= last && at - last < SWEEP_INTERVAL_MS) return;
  lastSweep.set(runtime.stores, at);
  try {
    await runtime.stores.twoFactorChallenges.deleteExpiredChallenges(now);
  } catch (error) {
    runtime.logger.warn({ err: (error as Error).message }, "expired second-step sweep failed");
  }
}

/**
 * The second step, on every way in (session/sign-in.ts POLICIES): a user with a second factor who signs in by any
 * first factor gets no session. Not for an impersonation (the administrator's sign-in), a renewal (the session it
 * replaces passed already), a sign-in that proved a factor answering the step (a passkey with user verification, or
 * this module's own), nor a browser holding a trusted device of the user (answers ["trusted-device"], recorded on
 * the session). Otherwise: a pending challenge (its id the hash of the cookie's token) that lasts
 * twoFactorCookieMaxAge, the signed `two_factor` cookie, the session cookies expired, and SecondStepRequired.
 */
export async function secondFactorPolicy(ctx: EndpointContext, attempt: SignInAttempt): Promise<readonly string[] | void> {
  const { runtime } = ctx;
  if (!attempt.user.twoFactorEnabled || !twoFactorActive(runtime)) return;
  if (attempt.impersonatedBy || attempt.renewalOf) return;
  if (attempt.factors?.some((factor) => SATISFY_SECOND_STEP.has(factor))) return;
  const userId = attempt.user.id;
  if (await useTrustedDevice(ctx, userId)) return ["trusted-device"];

  const now = runtime.now();
  await sweepExpiredChallenges(runtime, now);
  const token = randomString(32);
  const challenge: TwoFactorChallenge = {
    id: tokenHash(token),
    kind: "sign-in",
    userId,
    method: attempt.method,
    factors: [...(attempt.factors ?? [])],
    rememberMe: attempt.rememberMe,
    attempts: 0,
    otpHash: null,
    otpExpiresAt: null,
    expiresAt: new Date(now.getTime() + runtime.config.twoFactor.twoFactorCookieMaxAge * 1000),
    createdAt: now,
  };
  const row = await runtime.stores.twoFactorChallenges.createSignInChallenge(challenge);
  const methods = availableMethods(runtime, row);
  // Its TOTP answer, when it comes to this process, then takes one statement (known-sign-ins.ts).
  if (row && methods.includes("totp")) rememberSignIn(runtime, { challenge, user: attempt.user, sealedSecret: row.secret });
  setPendingCookie(ctx, runtime.config, token);
  // No session: a session cookie this browser held for anyone is dropped, its cache with it.
  runtime.sessions.clearSessionCookies(ctx);
  runtime.metrics.signIn(attempt.method, "second_step");
  throw new SecondStepRequired(methods, (callbackURL) => secondStepURL(runtime, callbackURL, methods));
}

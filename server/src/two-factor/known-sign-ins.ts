import type { Runtime } from "../runtime.js";
import type { User } from "../storage/index.js";
import type { TwoFactorChallenge } from "./store/index.js";

/**
 * The pending sign-ins this process started for users with an authenticator, with what their first request read
 * (the challenge as stored, the user, the TOTP secret still sealed), so that the code that answers one can be
 * checked before anything is read, and the answer take one statement (verify-routes.ts; challengeStore.answerTotp).
 * A shortcut only: that statement checks again everything the full path checks (the challenge live, unused and
 * with attempts left, the same sealed secret still confirmed, no lockout, no ban), and when any of it no longer
 * holds it changes nothing and the full path runs. A pending sign-in this process does not know (another instance
 * started it, a restart, one dropped here) takes the full path too. Nothing here is ever trusted on its own.
 *
 * Kept per set of stores (each Gatehouse in the process has its own), until the challenge ends or is answered;
 * at most MAX_KNOWN at once, the oldest dropped first.
 */
export interface KnownSignIn {
  challenge: TwoFactorChallenge;
  /** The user as the sign-in admitted them. */
  user: User;
  /** Their twoFactor row's secret as read with the challenge's insert (sealed: secrets.ts). */
  sealedSecret: string;
}

const MAX_KNOWN = 10_000;
const known = new WeakMap<object, Map<string, KnownSignIn>>();

/** Remembers a pending sign-in just stored (policy.ts), dropping those that are over. */
export function rememberSignIn(runtime: Pick<Runtime, "stores" | "now">, entry: KnownSignIn): void {
  let entries = known.get(runtime.stores);
  if (!entries) {
    entries = new Map();
    known.set(runtime.stores, entries);
  }
  const now = runtime.now().getTime();
  // In the order they were made: every challenge lasts as long, so the ones that are over come first.
  for (const [id, old] of entries) {
    if (old.challenge.expiresAt.getTime() > now && entries.size < MAX_KNOWN) break;
    entries.delete(id);
  }
  entries.set(entry.challenge.id, entry);
}

/** The pending sign-in `id` names, if this process started it and it has not ended. */
export function knownSignIn(runtime: Pick<Runtime, "stores" | "now">, id: string): KnownSignIn | null {
  const entry = known.get(runtime.stores)?.get(id);
  if (!entry) return null;
  if (entry.challenge.expiresAt <= runtime.now()) {
    forgetSignIn(runtime, id);
    return null;
  }
  return entry;
}

/** Forgets a pending sign-in (answered). */
export function forgetSignIn(runtime: Pick<Runtime, "stores">, id: string): void {
  known.get(runtime.stores)?.delete(id);
}

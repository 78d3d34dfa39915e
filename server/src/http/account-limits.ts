import { createHmac } from "node:crypto";
import type { Runtime } from "../runtime.js";
import { tooManyRequests } from "./rate-limit.js";

/**
 * Limits keyed by the account a request targets, whatever client address it comes from (`rateLimit.account`).
 * The per-client limits of rate-limit.ts stop one client; an attacker with many addresses is stopped here:
 *
 * - Wrong passwords: after `freeFailures` wrong passwords for one account, each further check waits, `delay`
 *   seconds at first and twice as long after each further wrong one, up to `maxDelay`. A refused check is
 *   answered 429 with the wait in Retry-After; a right password forgets every failure. Failures are remembered for
 *   `failureWindow` from the first. So the owner is never locked out for good: at worst they wait `maxDelay`.
 * - Mail: at most `mailPerAddress` mails to one address per `mailWindow`, counted when a route is asked to send one
 *   (whether or not the address has an account, so the answer says nothing about that).
 *
 * Counters live in secondary storage (Redis when configured), so every instance shares them, and follow
 * `rateLimit.enabled`. Keys are an HMAC of the account under the service secret: no address is written to Redis.
 */

/** How long a check holds the account's slot while its password hash runs, before a wait is known. */
const CHECK_SLOT_MS = 10_000;

/**
 * The account a password check is about: `user:<id>` when the user exists, else the identifier as typed, normalised
 * (`email:<address>`, `username:<name>`): an unknown account is limited exactly like a known one, so the limit
 * tells nothing about which exist.
 */
export type AccountKey = `user:${string}` | `email:${string}` | `username:${string}`;

function keyOf(runtime: Runtime, kind: string, account: string): string {
  const digest = createHmac("sha256", runtime.config.secret).update(account).digest("base64url").slice(0, 32);
  return `acct:${kind}:${digest}`;
}

/**
 * Runs one password check (`verify` answers whether the password is right) under the account's limit. The attempt
 * is counted before the hash runs, so checks sent at once from many addresses cannot all slip in before the first
 * failure is written: at most `freeFailures` run without a wait, and after that one at a time.
 */
export async function limitPasswordCheck(runtime: Runtime, account: AccountKey, verify: () => Promise<boolean>): Promise<boolean> {
  if (!runtime.config.rateLimitEnabled) return verify();
  const options = runtime.config.rateLimit.account;
  const storage = runtime.storage;
  const tries = keyOf(runtime, "tries", account);
  const gate = keyOf(runtime, "gate", account);
  const passes = keyOf(runtime, "passes", account);

  // Attempts since the last right password, the running ones included. The last free one already goes through
  // the gate, so that nothing else runs until its failure has set the first wait.
  const { count } = await storage.increment(tries, options.failureWindow * 1000);
  const gated = count >= options.freeFailures || (await storage.get(gate)) !== null;
  if (gated) {
    // One check at a time from then on: the first to find the gate open closes it behind itself.
    const slot = await storage.increment(gate, CHECK_SLOT_MS);
    if (slot.count > 1) {
      runtime.metrics.rateLimitRefused("account_password");
      throw tooManyRequests(slot.ttlMs);
    }
  }
  let right: boolean;
  try {
    right = await verify();
  } catch (error) {
    if (gated) await storage.delete(gate).catch(() => undefined);
    throw error;
  }
  if (right) {
    await Promise.all([storage.delete(tries), storage.delete(passes), storage.delete(gate)]);
    return true;
  }
  if (gated) {
    const waited = await storage.increment(passes, options.failureWindow * 1000);
    const wait = Math.min(options.maxDelay, options.delay * 2 ** Math.min(waited.count - 1, 30));
    await storage.set(gate, "1", wait);
  }
  return false;
}

/**
 * Counts one mail to `address` (normalised) and throws 429 once the address has had `mailPerAddress` this window.
 * Call it where a route is asked to mail, before anything is sent, whether or not the address has an account.
 */
export async function limitMailTo(runtime: Runtime, address: string): Promise<void> {
  if (!runtime.config.rateLimitEnabled) return;
  const { mailPerAddress, mailWindow } = runtime.config.rateLimit.account;
  const { count, ttlMs } = await runtime.storage.increment(keyOf(runtime, "mail", address), mailWindow * 1000);
  if (count > mailPerAddress) {
    runtime.metrics.rateLimitRefused("account_mail");
    throw tooManyRequests(ttlMs);
  }
}

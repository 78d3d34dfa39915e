import type { Config } from "../config/index.js";
import type { Session } from "../storage/models.js";

/**
 * Whether a session is fresh enough for a sensitive action (unlinking an account, deleting the user without a
 * password). `session.freshFrom` says where its age is measured from:
 * - "update" (default, SPEC.md): the last time it was written, so a session refreshed past its update age is
 *   fresh again even though nobody signed in;
 * - "signIn": its creation, which is the sign-in that made it, so only a recent sign-in counts.
 * A `freshAge` of 0 turns the check off.
 */
export function isSessionFresh(options: Config["session"], session: Pick<Session, "createdAt" | "updatedAt">, now: Date): boolean {
  if (options.freshAge <= 0) return true;
  const since = options.freshFrom === "signIn" ? session.createdAt : session.updatedAt;
  return now.getTime() - since.getTime() <= options.freshAge * 1000;
}

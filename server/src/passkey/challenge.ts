import { signCookieValue, unsignCookieValue, type CookieAttributes } from "../http/cookies.js";
import { APIError } from "../http/errors.js";
import { generateId, randomString } from "../crypto/random.js";
import type { PasskeyDeps } from "./deps.js";
import { PASSKEY_MESSAGES } from "./messages.js";
import { challengeCookieName } from "./relying-party.js";

/** A challenge lives 5 minutes (its row and its cookie), whatever the WebAuthn timeout says. */
export const CHALLENGE_LIFE = 300;

const IDENTIFIER_PREFIX = "passkey-challenge:";
const TOKEN_PATTERN = /^[A-Za-z0-9]{32}$/;

/** What a challenge row holds (the verification table's value, JSON): the ceremony it was made for, and for whom. */
export type ChallengeState =
  | {
      type: "registration";
      challenge: string;
      /** The session user it was made for, and the session: only that session can finish it. */
      userId: string;
      sessionId: string;
      /** The WebAuthn user handle the options named (base64url). */
      userHandle: string;
    }
  | {
      type: "authentication";
      challenge: string;
      /** The signed-in user whose passkeys the options listed; null for a discoverable (usernameless) sign-in. */
      userId: string | null;
    };

interface Jar {
  runtime: Pick<PasskeyDeps, "config" | "stores" | "now">;
  cookie(name: string): string | undefined;
  setCookie(name: string, value: string, attributes?: CookieAttributes): void;
}

const cookieAttributes = (ctx: Jar): CookieAttributes => ({
  path: "/",
  httpOnly: true,
  sameSite: "Lax",
  secure: ctx.runtime.config.secureCookies,
});

/**
 * Stores a challenge under a random token and hands the browser the token in the signed challenge cookie (Better
 * Auth's, API-NOTES-PLUGINS.md 3.2). A new ceremony replaces the cookie, so a browser has one challenge at a time.
 */
export async function issueChallenge(ctx: Jar, state: ChallengeState): Promise<void> {
  const { runtime } = ctx;
  const token = randomString(32);
  const now = runtime.now();
  await runtime.stores.verifications.createVerification({
    id: generateId(),
    identifier: IDENTIFIER_PREFIX + token,
    value: JSON.stringify(state),
    expiresAt: new Date(now.getTime() + CHALLENGE_LIFE * 1000),
    createdAt: now,
    updatedAt: now,
  });
  ctx.setCookie(challengeCookieName(runtime.config), signCookieValue(token, runtime.config.secret), {
    ...cookieAttributes(ctx),
    maxAge: CHALLENGE_LIFE,
  });
}

/**
 * Takes the request's challenge: its row is deleted and returned in one statement (of twenty concurrent requests
 * with one cookie, exactly one gets it), and the cookie is cleared whatever happens next. An absent, forged,
 * used or expired challenge, or one made for the other ceremony, is 400 CHALLENGE_NOT_FOUND (a registration
 * challenge used to sign in is spent: the browser starts over).
 */
export async function takeChallenge<T extends ChallengeState["type"]>(
  ctx: Jar,
  type: T,
): Promise<Extract<ChallengeState, { type: T }>> {
  const identifier = challengeIdentifier(ctx);
  return challengeStateOf(await ctx.runtime.stores.verifications.consumeVerification(identifier, ctx.runtime.now()), type);
}

const notFound = () => new APIError("BAD_REQUEST", PASSKEY_MESSAGES.CHALLENGE_NOT_FOUND);

/**
 * takeChallenge's first half: the stored challenge's identifier from the request's cookie, which is cleared
 * whatever happens next. For a caller that takes the row itself (with another read in the same statement) and
 * hands it to challengeStateOf.
 */
export function challengeIdentifier(ctx: Jar): string {
  const { runtime } = ctx;
  const name = challengeCookieName(runtime.config);
  const raw = ctx.cookie(name);
  if (raw === undefined) throw notFound();
  ctx.setCookie(name, "", { ...cookieAttributes(ctx), maxAge: 0 });
  const token = unsignCookieValue(raw, runtime.config.secret);
  if (token === null || !TOKEN_PATTERN.test(token)) throw notFound();
  return IDENTIFIER_PREFIX + token;
}

/** takeChallenge's second half: the state of the row taken (deleted, unexpired), made for this ceremony. */
export function challengeStateOf<T extends ChallengeState["type"]>(
  row: { value: string } | null,
  type: T,
): Extract<ChallengeState, { type: T }> {
  if (!row) throw notFound();
  let state: ChallengeState;
  try {
    state = JSON.parse(row.value) as ChallengeState;
  } catch {
    throw notFound();
  }
  if (state.type !== type || typeof state.challenge !== "string") throw notFound();
  return state as Extract<ChallengeState, { type: T }>;
}

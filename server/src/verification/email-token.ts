import { errors, jwtVerify, SignJWT } from "jose";
import { generateId } from "../crypto/random.js";
import type { CoreStores as Stores } from "../storage/index.js";
import { emailTokenIdentifier } from "./identifiers.js";

/**
 * Email-verification tokens: HS256 JWTs signed with the service secret, carrying the (lower-case) email, the id of
 * the user they were made for, and, for an email change, the address to change to (SPEC.md sections 5 and 9). They
 * travel as before (`/verify-email?token=<jwt>`), but a signature alone no longer makes them usable: each names a
 * one-time row of the verification table by its `jti` (identifiers.ts), deleted by the first use, so a link
 * works once (a leaked, already used link signs no one in), and it works only for the user it names, while that
 * user still has the address it was mailed to.
 * `purpose` keeps a change-confirmation token from being taken for a plain verification and back.
 */
export type EmailTokenPurpose = "verify-email" | "change-email";

export interface EmailTokenClaims {
  email: string;
  userId: string;
  updateTo?: string;
  purpose: EmailTokenPurpose;
}

const key = (secret: string) => new TextEncoder().encode(secret);

export async function signEmailToken(
  claims: EmailTokenClaims,
  jti: string,
  secret: string,
  expiresIn: number,
  now: Date,
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setJti(jti)
    .setIssuedAt(iat)
    .setExpirationTime(iat + expiresIn)
    .sign(key(secret));
}

export type VerifiedEmailToken = EmailTokenClaims & { jti: string };

export type EmailTokenResult = { ok: true; claims: VerifiedEmailToken } | { ok: false; reason: "invalid_token" | "token_expired" };

/** Checks the signature, expiry and claims (not yet the one-time row: see consumeEmailToken). */
export async function verifyEmailToken(token: string, secret: string, now: Date): Promise<EmailTokenResult> {
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: ["HS256"],
      currentDate: now,
    });
    const { email, userId, updateTo, purpose, jti } = payload as Record<string, unknown>;
    if (
      typeof email !== "string" ||
      typeof userId !== "string" ||
      typeof jti !== "string" ||
      (purpose !== "verify-email" && purpose !== "change-email")
    ) {
      return { ok: false, reason: "invalid_token" };
    }
    if (purpose === "change-email" && typeof updateTo !== "string") return { ok: false, reason: "invalid_token" };
    return {
      ok: true,
      claims: { email, userId, jti, purpose, ...(typeof updateTo === "string" ? { updateTo } : {}) },
    };
  } catch (error) {
    return { ok: false, reason: error instanceof errors.JWTExpired ? "token_expired" : "invalid_token" };
  }
}

/** Makes a token and records its one-time row (same life as the token). Answers the token and the row's identifier. */
export async function issueEmailToken(
  stores: Stores,
  claims: EmailTokenClaims,
  opts: { secret: string; expiresIn: number; now: Date },
): Promise<{ token: string; identifier: string }> {
  const jti = generateId();
  const identifier = emailTokenIdentifier(jti);
  const { now, expiresIn } = opts;
  await stores.verifications.createVerification({
    id: generateId(),
    identifier,
    value: claims.userId,
    expiresAt: new Date(now.getTime() + expiresIn * 1000),
    createdAt: now,
    updatedAt: now,
  });
  return { token: await signEmailToken(claims, jti, opts.secret, expiresIn, now), identifier };
}

/**
 * Deletes the token's one-time row (one statement: of two concurrent uses exactly one gets it) and answers whether
 * it was there, unexpired, for the user the token names.
 */
export async function consumeEmailToken(stores: Stores, claims: VerifiedEmailToken, now: Date): Promise<boolean> {
  const row = await stores.verifications.consumeVerification(emailTokenIdentifier(claims.jti), now);
  return row !== null && row.value === claims.userId;
}

import { errors, jwtVerify, SignJWT } from "jose";

/**
 * Email-verification tokens: HS256 JWTs signed with the service secret, carrying the (lower-case) email and,
 * for an email change, the address to change to (SPEC.md sections 5 and 9). They need no database row.
 * `purpose` keeps a change-confirmation token from being taken for a plain verification and back.
 */
export type EmailTokenPurpose = "verify-email" | "change-email";

export interface EmailTokenClaims {
  email: string;
  updateTo?: string;
  purpose: EmailTokenPurpose;
}

const key = (secret: string) => new TextEncoder().encode(secret);

export async function signEmailToken(claims: EmailTokenClaims, secret: string, expiresIn: number, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt(iat)
    .setExpirationTime(iat + expiresIn)
    .sign(key(secret));
}

export type EmailTokenResult = { ok: true; claims: EmailTokenClaims } | { ok: false; reason: "invalid_token" | "token_expired" };

export async function verifyEmailToken(token: string, secret: string, now: Date): Promise<EmailTokenResult> {
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: ["HS256"],
      currentDate: now,
    });
    const { email, updateTo, purpose } = payload as Record<string, unknown>;
    if (typeof email !== "string" || (purpose !== "verify-email" && purpose !== "change-email")) {
      return { ok: false, reason: "invalid_token" };
    }
    if (purpose === "change-email" && typeof updateTo !== "string") return { ok: false, reason: "invalid_token" };
    return {
      ok: true,
      claims: { email, purpose, ...(typeof updateTo === "string" ? { updateTo } : {}) },
    };
  } catch (error) {
    return { ok: false, reason: error instanceof errors.JWTExpired ? "token_expired" : "invalid_token" };
  }
}

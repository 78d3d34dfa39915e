import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from "node:crypto";

/**
 * Keys of the two-factor module, each derived from GATEHOUSE_SECRET by HKDF-SHA-256 with its own purpose label (as
 * social/token-vault.ts derives the provider tokens' key), so no key serves two purposes:
 *
 * - TOTP secrets at rest: "gh2fa1:" + base64url(iv (12 bytes) || ciphertext || GCM tag (16 bytes)), AES-256-GCM
 *   with the user's id as additional data (a sealed secret copied to another user's row does not open);
 * - codes at rest (backup codes, mailed codes): HMAC-SHA-256 under a second key, so a copy of the database alone
 *   neither reads them nor tries guesses against them.
 *
 * Tokens that are long random strings (the pending step's, a trusted device's) are stored as their SHA-256: never
 * the token a cookie holds.
 */
const PREFIX = "gh2fa1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SALT = "gatehouse:two-factor";

export interface TwoFactorKeys {
  sealSecret(userId: string, plain: string): string;
  /** The plain secret; null when the value is not ours or does not open (another secret, tampered with). */
  openSecret(userId: string, sealed: string): string | null;
  /** The stored form of a short code, bound to its scope (`backup:{userId}`, `otp:{challengeId}`). */
  codeHash(scope: string, code: string): string;
}

const cache = new Map<string, TwoFactorKeys>();

export function twoFactorKeys(secret: string): TwoFactorKeys {
  const known = cache.get(secret);
  if (known) return known;
  const sealKey = Buffer.from(hkdfSync("sha256", secret, SALT, "gatehouse:two-factor:totp-secret:v1", 32));
  const macKey = Buffer.from(hkdfSync("sha256", secret, SALT, "gatehouse:two-factor:codes:v1", 32));
  const keys: TwoFactorKeys = {
    sealSecret(userId, plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", sealKey, iv);
      cipher.setAAD(Buffer.from(userId));
      return PREFIX + Buffer.concat([iv, cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]).toString("base64url");
    },
    openSecret(userId, sealed) {
      if (!sealed.startsWith(PREFIX)) return null;
      const raw = Buffer.from(sealed.slice(PREFIX.length), "base64url");
      if (raw.length <= IV_BYTES + TAG_BYTES) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", sealKey, raw.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(userId));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
    codeHash(scope, code) {
      return createHmac("sha256", macKey).update(`${scope}\n${code}`).digest("base64url");
    },
  };
  if (cache.size > 16) cache.clear();
  cache.set(secret, keys);
  return keys;
}

/** The stored form of a long random token (a cookie's): its SHA-256, base64url. */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Provider tokens at rest (`account.encryptOAuthTokens`). Format of a sealed value:
 *
 *   "gh1:" + base64url( iv (12 bytes) || ciphertext || GCM tag (16 bytes) )
 *
 * AES-256-GCM; key = HKDF-SHA-256(secret, salt "gatehouse:oauth-tokens", info "gatehouse:oauth-tokens:v1", 32 bytes);
 * additional data = "{providerId}:{accountId}:{field}", so a sealed token moved to another account or column does
 * not open. Values without the prefix are read as plain text (rows written before encryption was turned on), and
 * plain values are written when it is off.
 */
const PREFIX = "gh1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export type TokenField = "accessToken" | "refreshToken" | "idToken";

export interface TokenVault {
  seal(value: string | null, context: { providerId: string; accountId: string; field: TokenField }): string | null;
  /** The plain token; null when absent or when it does not open (another secret, or tampered with). */
  open(value: string | null, context: { providerId: string; accountId: string; field: TokenField }): string | null;
}

export function createTokenVault(secret: string, encrypt: boolean): TokenVault {
  const key = Buffer.from(hkdfSync("sha256", secret, "gatehouse:oauth-tokens", "gatehouse:oauth-tokens:v1", 32));
  const aad = (c: { providerId: string; accountId: string; field: TokenField }) =>
    Buffer.from(`${c.providerId}:${c.accountId}:${c.field}`);
  return {
    seal(value, context) {
      if (value === null || !encrypt) return value;
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(aad(context));
      const sealed = Buffer.concat([iv, cipher.update(value, "utf8"), cipher.final(), cipher.getAuthTag()]);
      return PREFIX + sealed.toString("base64url");
    },
    open(value, context) {
      if (value === null || !value.startsWith(PREFIX)) return value;
      const raw = Buffer.from(value.slice(PREFIX.length), "base64url");
      if (raw.length < IV_BYTES + TAG_BYTES) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(aad(context));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
  };
}

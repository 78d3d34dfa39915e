import { createCipheriv, createDecipheriv, hash, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The OpenID Provider's keys, each derived from GATEHOUSE_SECRET by HKDF-SHA-256 with its own purpose label (as
 * two-factor/secrets.ts and social/token-vault.ts derive theirs), so no key serves two purposes:
 *
 * - signing keys at rest: "ghoidc1:" + base64url(iv (12 bytes) || ciphertext || GCM tag (16 bytes)), AES-256-GCM with
 *   the key id as additional data (a sealed key copied under another id does not open);
 * - the keys oidc-provider signs its own cookies with (interaction, resume, its session reference).
 *
 * Client secrets and token values are long random strings: they are kept as their SHA-256, never as themselves.
 */
const PREFIX = "ghoidc1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SALT = "gatehouse:oidc-provider";

export interface OidcKeys {
  seal(kid: string, plain: string): string;
  /** The plain text; null when the value is not ours or does not open (another secret, tampered with). */
  open(kid: string, sealed: string): string | null;
  /** oidc-provider's cookie keys (Koa keygrip). */
  cookieKeys: string[];
}

const cache = new Map<string, OidcKeys>();

export function oidcKeys(secret: string): OidcKeys {
  const known = cache.get(secret);
  if (known) return known;
  const sealKey = Buffer.from(hkdfSync("sha256", secret, SALT, "gatehouse:oidc-provider:signing-keys:v1", 32));
  const cookieKey = Buffer.from(hkdfSync("sha256", secret, SALT, "gatehouse:oidc-provider:cookies:v1", 32)).toString("base64url");
  const keys: OidcKeys = {
    seal(kid, plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", sealKey, iv);
      cipher.setAAD(Buffer.from(kid));
      return PREFIX + Buffer.concat([iv, cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]).toString("base64url");
    },
    open(kid, sealed) {
      if (!sealed.startsWith(PREFIX)) return null;
      const raw = Buffer.from(sealed.slice(PREFIX.length), "base64url");
      if (raw.length <= IV_BYTES + TAG_BYTES) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", sealKey, raw.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(kid));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
    cookieKeys: [cookieKey],
  };
  if (cache.size > 16) cache.clear();
  cache.set(secret, keys);
  return keys;
}

const SECRET_HASH_PREFIX = "sha256:";

/** The stored form of a client secret. */
export function hashClientSecret(secret: string): string {
  return SECRET_HASH_PREFIX + hash("sha256", secret, "base64url");
}

/** Whether `presented` is the secret whose stored form is `stored`, in constant time. */
export function clientSecretMatches(stored: string, presented: unknown): boolean {
  if (typeof presented !== "string" || presented.length === 0 || presented.length > 1024) return false;
  const expected = Buffer.from(stored);
  const actual = Buffer.from(hashClientSecret(presented));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** A new client secret: 256 random bits, base64url (43 characters). */
export function newClientSecret(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * The key a token is stored under: its SHA-256, so the table holds no usable token. (crypto.hash, Node 20.12 and
 * later: a third of createHash's cost for a value this short, and a token request hashes several.)
 */
export function tokenKey(value: string): string {
  return hash("sha256", value, "base64url");
}

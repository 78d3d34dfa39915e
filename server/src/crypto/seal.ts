import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Secrets the service must read back (not only compare) kept at rest: AES-256-GCM under a key derived from
 * GATEHOUSE_SECRET by HKDF-SHA-256 with a purpose label of its own, so no key serves two purposes (the same scheme
 * as two-factor/secrets.ts's TOTP secrets). Sealed form: `prefix` + base64url(iv (12 bytes) || ciphertext || GCM tag
 * (16 bytes)), with the owner's id as additional data: a sealed value copied to another row does not open.
 */
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface Sealer {
  seal(ownerId: string, plain: string): string;
  /** The plain text; null when the value is not ours or does not open (another secret, tampered with). */
  open(ownerId: string, sealed: string): string | null;
}

export interface SealerPurpose {
  /** HKDF salt: the part of the service (`gatehouse:webhooks`). */
  salt: string;
  /** HKDF info: what the key seals, with a version (`gatehouse:webhooks:endpoint-secret:v1`). */
  info: string;
  /** Marks a sealed value as this purpose's (`ghwh1:`). */
  prefix: string;
}

const cache = new Map<string, Sealer>();

export function createSealer(secret: string, purpose: SealerPurpose): Sealer {
  const cacheKey = `${purpose.info}\n${secret}`;
  const known = cache.get(cacheKey);
  if (known) return known;
  const key = Buffer.from(hkdfSync("sha256", secret, purpose.salt, purpose.info, 32));
  const { prefix } = purpose;
  const sealer: Sealer = {
    seal(ownerId, plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(ownerId));
      return prefix + Buffer.concat([iv, cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]).toString("base64url");
    },
    open(ownerId, sealed) {
      if (!sealed.startsWith(prefix)) return null;
      const raw = Buffer.from(sealed.slice(prefix.length), "base64url");
      if (raw.length <= IV_BYTES + TAG_BYTES) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(ownerId));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
  };
  if (cache.size > 32) cache.clear();
  cache.set(cacheKey, sealer);
  return sealer;
}

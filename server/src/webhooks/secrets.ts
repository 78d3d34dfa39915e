import { createHmac, randomBytes } from "node:crypto";
import { createSealer, type Sealer } from "../crypto/seal.js";

/**
 * Endpoint secrets and signatures, as the Standard Webhooks specification writes them (README "Webhooks"): a
 * secret is `whsec_` + the base64 of 24 to 64 random bytes (ours: 32); a signature is `v1,` + the base64 of
 * HMAC-SHA256 under those bytes of `{webhook-id}.{webhook-timestamp}.{body}`.
 */
export const WEBHOOK_SECRET_PREFIX = "whsec_";
const SECRET_BYTES = 32;
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

/** The key bytes of a secret; null when it is not `whsec_` + standard base64 of 24 to 64 bytes. */
export function webhookSecretKey(secret: string): Buffer | null {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) return null;
  const encoded = secret.slice(WEBHOOK_SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return null;
  const key = Buffer.from(encoded, "base64");
  return key.length >= MIN_SECRET_BYTES && key.length <= MAX_SECRET_BYTES ? key : null;
}

/** `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)): the `webhook-signature` header. */
export function signWebhook(key: Buffer, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

/** The key endpoint secrets are sealed with in the database, derived from GATEHOUSE_SECRET (crypto/seal.ts). */
export function endpointSecretSealer(secret: string): Sealer {
  return createSealer(secret, {
    salt: "gatehouse:webhooks",
    info: "gatehouse:webhooks:endpoint-secret:v1",
    prefix: "ghwh1:",
  });
}

import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto";

// A key object made once per secret: createHmac with a string key re-imports it on every call.
const keys = new Map<string, KeyObject>();
const keyOf = (secret: string): KeyObject => {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, "utf8"));
    keys.set(secret, key);
  }
  return key;
};

/**
 * HMAC-SHA-256 computed synchronously: it costs microseconds, and running it on libuv's pool (as WebCrypto
 * does) would queue every cookie check behind password hashes (PERF-NOTES.md item 2).
 */
export function hmacBase64(secret: string, message: string): string {
  return createHmac("sha256", keyOf(secret)).update(message).digest("base64");
}

export function hmacBase64Url(secret: string, message: string): string {
  return createHmac("sha256", keyOf(secret)).update(message).digest("base64url");
}

/** Constant-time comparison of two strings (false on length mismatch). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

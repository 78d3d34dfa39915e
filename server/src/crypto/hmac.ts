import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * HMAC-SHA-256 computed synchronously: it costs microseconds, and running it on libuv's pool (as WebCrypto
 * does) would queue every cookie check behind password hashes (PERF-NOTES.md item 2).
 */
export function hmacBase64(secret: string, message: string): string {
  return createHmac("sha256", secret).update(message).digest("base64");
}

export function hmacBase64Url(secret: string, message: string): string {
  return createHmac("sha256", secret).update(message).digest("base64url");
}

/** Constant-time comparison of two strings (false on length mismatch). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

import { randomFillSync } from "node:crypto";

export const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const LOWER_ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyz0123456789";
export const URL_SAFE = ALPHANUMERIC + "-_";

/**
 * Random bytes from the CSPRNG, drawn 4 KiB at a time: ids and tokens are made on every request, and each draw of
 * the CSPRNG is a call into OpenSSL (about 2 µs on an idle core, many more while its other threads sign tokens),
 * where taking bytes from the pool is a slice. Every byte is handed out once; a new pool is a new buffer, so a slice
 * handed out earlier is never overwritten.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function takeRandomBytes(count: number): Buffer {
  if (count > POOL_BYTES) return randomFillSync(Buffer.allocUnsafe(count));
  if (poolOffset + count > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + count);
  poolOffset += count;
  return bytes;
}

/**
 * A uniformly random string over `alphabet`, from the CSPRNG. Bytes that would bias the result
 * (those at or above the largest multiple of the alphabet size) are rejected and drawn again.
 */
export function randomString(length: number, alphabet: string = ALPHANUMERIC): string {
  const size = alphabet.length;
  const limit = 256 - (256 % size);
  let out = "";
  while (out.length < length) {
    const bytes = takeRandomBytes(Math.ceil((length - out.length) * 1.3) + 4);
    for (let i = 0; i < bytes.length && out.length < length; i++) {
      const byte = bytes[i]!;
      if (byte < limit) out += alphabet[byte % size];
    }
  }
  return out;
}

/** Primary keys and session tokens: 32 characters of [A-Za-z0-9] (API-NOTES.md 1.11). */
export const generateId = (): string => randomString(32);

/** Base 62 digits in the order of their bytes, so that strings of them sort as the numbers they write. */
const ORDERED_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * An id of the same form as generateId's (32 characters of [A-Za-z0-9]) whose first 8 characters write its creation
 * time (milliseconds since 1970, base 62, good until the year 8888) and whose other 24 are random (142 bits). Ids
 * made one after another sort one after another, so an index on them grows at its end: a row's entry lands on the
 * index's last page, which the rows written with it change too, instead of on a random page of its own. For rows
 * whose time is public anyway (security events carry their `createdAt`).
 */
export function timeOrderedId(now: number = Date.now()): string {
  let time = "";
  let rest = Math.max(0, Math.floor(now));
  for (let i = 0; i < 8; i++) {
    time = ORDERED_DIGITS[rest % 62]! + time;
    rest = Math.floor(rest / 62);
  }
  return time + randomString(24);
}

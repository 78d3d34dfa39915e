import { randomBytes } from "node:crypto";

export const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const LOWER_ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyz0123456789";
export const URL_SAFE = ALPHANUMERIC + "-_";

/**
 * A uniformly random string over `alphabet`, from the CSPRNG. Bytes that would bias the result
 * (those at or above the largest multiple of the alphabet size) are rejected and drawn again.
 */
export function randomString(length: number, alphabet: string = ALPHANUMERIC): string {
  const size = alphabet.length;
  const limit = 256 - (256 % size);
  let out = "";
  while (out.length < length) {
    const bytes = randomBytes(Math.ceil((length - out.length) * 1.3) + 4);
    for (let i = 0; i < bytes.length && out.length < length; i++) {
      const byte = bytes[i]!;
      if (byte < limit) out += alphabet[byte % size];
    }
  }
  return out;
}

/** Primary keys and session tokens: 32 characters of [A-Za-z0-9] (API-NOTES.md 1.11). */
export const generateId = (): string => randomString(32);

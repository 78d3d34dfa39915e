import { hkdfSync, randomInt } from "node:crypto";
import { hmacBase64Url } from "../crypto/hmac.js";
import { randomString } from "../crypto/random.js";

/**
 * The secrets this folder mails, and how they are kept. Neither a link's token nor a code is ever stored, logged or
 * answered: the database holds HMAC-SHA-256 of it under a key derived from the service secret (HKDF-SHA-256, its
 * own purpose), so a copy of the database gives nothing to try offline (an unkeyed hash of a six-digit code is
 * undone by trying the million codes). A code's hash is bound to its row's identifier, so a code made for one
 * purpose or address is no code for another.
 */

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A magic link's token: 32 letters (Better Auth's shape, about 182 bits). */
export const newMagicLinkToken = (): string => randomString(32, LETTERS);
export const MAGIC_LINK_TOKEN_PATTERN = /^[A-Za-z]{32}$/;

/** A code of `length` digits, uniform (crypto.randomInt). */
export function newEmailCode(length: number): string {
  let code = "";
  for (let i = 0; i < length; i++) code += String(randomInt(10));
  return code;
}

const keys = new Map<string, string>();

function keyFor(secret: string): string {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "gatehouse:passwordless", "gatehouse:passwordless:v1", 32)).toString("base64");
    keys.set(secret, key);
  }
  return key;
}

/** The stored form of a magic link's token. */
export const hashMagicLinkToken = (secret: string, token: string): string => hmacBase64Url(keyFor(secret), `magic-link\0${token}`);

/** The stored form of a code, for the row it belongs to. */
export const hashEmailCode = (secret: string, identifier: string, code: string): string =>
  hmacBase64Url(keyFor(secret), `email-otp\0${identifier}\0${code}`);

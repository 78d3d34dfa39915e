import { createHash, hkdfSync } from "node:crypto";
import type { Config } from "../config/index.js";
import { randomString } from "../crypto/random.js";
import { signCookieValue, unsignCookieValue } from "../http/cookies.js";
import type { CookieJar } from "../session/session-service.js";

/** A year: the browser keeps its id across sessions and sign-outs (browsers cap a cookie at 400 days). */
export const DEVICE_COOKIE_LIFE = 31_536_000;

/** Letters and digits of a device id: random, 190 bits. */
const DEVICE_ID_LENGTH = 32;

// One key per secret, derived once: HKDF-SHA-256 with this module's own label, so the device cookie's signature is
// made with a key that signs nothing else (as two-factor/secrets.ts and social/token-vault.ts derive theirs).
const keys = new Map<string, string>();
function cookieKey(secret: string): string {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "gatehouse:new-device", "gatehouse:new-device:cookie:v1", 32)).toString("base64");
    keys.set(secret, key);
  }
  return key;
}

/**
 * The device id of this browser's `<prefix>.device` cookie when its signature holds (HMAC-SHA-256 under the
 * derived key, in the format of every signed cookie here: `id.signature`); null when absent, forged or tampered.
 */
export function presentedDeviceId(jar: CookieJar, config: Config): string | null {
  const raw = jar.cookie(config.cookieNames.device);
  if (!raw) return null;
  const id = unsignCookieValue(raw, cookieKey(config.secret));
  return id && /^[A-Za-z0-9]{32}$/.test(id) ? id : null;
}

export function newDeviceId(): string {
  return randomString(DEVICE_ID_LENGTH);
}

/** (Re)sets the device cookie for a year: HttpOnly, SameSite=Lax, Secure with secure cookies. */
export function setDeviceCookie(jar: CookieJar, config: Config, deviceId: string): void {
  jar.setCookie(config.cookieNames.device, signCookieValue(deviceId, cookieKey(config.secret)), {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: config.secureCookies,
    maxAge: DEVICE_COOKIE_LIFE,
  });
}

/** What the table keeps for a device of a user: SHA-256 of both ids, so rows of two users never share a value. */
export function deviceKey(userId: string, deviceId: string): string {
  return createHash("sha256").update(`${userId}\n${deviceId}`).digest("hex");
}

import { randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";

/**
 * RFC 6238 TOTP through the `otpauth` library: HMAC-SHA-1 (what every authenticator app computes), the configured
 * digits and period, codes of the step before and after the current one accepted (clocks drift).
 */
export interface TotpParameters {
  digits: number;
  period: number;
}

/** A new secret: 20 random bytes (RFC 4226's recommended 160 bits), base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ buffer: new Uint8Array(randomBytes(20)).buffer }).base32;
}

/** The otpauth:// URI an authenticator app reads (a QR code of it, or the secret typed in). */
export function totpURI(secretBase32: string, issuer: string, account: string, params: TotpParameters): string {
  return new TOTP({
    issuer,
    label: account,
    secret: Secret.fromBase32(secretBase32),
    algorithm: "SHA1",
    digits: params.digits,
    period: params.period,
  }).toString();
}

const DIGITS = /^\d+$/;

/** The time step a code belongs to, within one step of `now`'s; null when it matches none (or is no code at all). */
export function matchTotpStep(secretBase32: string, code: string, params: TotpParameters, now: Date): number | null {
  if (code.length !== params.digits || !DIGITS.test(code)) return null;
  const timestamp = now.getTime();
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secretBase32),
    algorithm: "SHA1",
    digits: params.digits,
    period: params.period,
    timestamp,
    window: 1,
  });
  if (delta === null) return null;
  return TOTP.counter({ period: params.period, timestamp }) + delta;
}

/** The code of the current step (tests and the server-side API's generateTOTP). */
export function totpCode(secretBase32: string, params: TotpParameters, now: Date): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secretBase32),
    algorithm: "SHA1",
    digits: params.digits,
    period: params.period,
    timestamp: now.getTime(),
  });
}

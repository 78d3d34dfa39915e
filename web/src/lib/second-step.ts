/**
 * The second step of a sign-in (README.md, "Second factors"). A first factor of a user who has a second one (a
 * password, a mailed code, a passkey without user verification) answers 200 `{ twoFactorRedirect: true,
 * twoFactorMethods }` instead of a session, with a short-lived cookie for the pending step; the web app then goes
 * to /two-factor. A way in the browser navigates (a provider's callback, a mailed link) is sent there by the
 * service itself, with `?callbackURL=`.
 */

import type { TwoFactorRedirect } from "@gatehouse/client";

/**
 * Whether a sign-in's answer is the second-step challenge (Better Auth's `{ twoFactorRedirect, twoFactorMethods }`:
 * "totp" for an authenticator app, with backup codes, "otp" for a code by email) rather than a session.
 */
export function isSecondStep(data: unknown): data is TwoFactorRedirect {
  return typeof data === "object" && data !== null && (data as { twoFactorRedirect?: unknown }).twoFactorRedirect === true;
}

/**
 * An app path to go on to once signed in, from a value that came with the URL or the navigation: one of ours
 * ("/account", or an absolute URL on this origin reduced to its path), else "/". Other origins are never followed
 * from here: the service checks those itself before it sends anyone to a page of ours.
 */
export function appPath(value: unknown, origin: string = window.location.origin): string {
  if (typeof value !== "string" || value === "") return "/";
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return "/";
  }
  if (url.origin !== origin) return "/";
  // "//evil.example" and "/\evil.example" parse as another origin already; a plain path stays as written.
  return url.pathname + url.search + url.hash;
}

/** Navigation state the sign-in pages hand to /two-factor. */
export interface SecondStepState {
  methods?: string[];
}

/** The second-step page for a pending sign-in that goes on to `callbackURL`. */
export function secondStepPath(callbackURL: string): string {
  return callbackURL === "/" ? "/two-factor" : `/two-factor?callbackURL=${encodeURIComponent(callbackURL)}`;
}

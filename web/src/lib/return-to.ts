/**
 * Where a sign-in goes on to when the OpenID Provider sent the visitor here (README.md, "OpenID Provider"): the
 * provider's interaction route `/api/auth/oauth2/interaction/{uid}` arrives as `/sign-in?returnTo=...` and, once
 * signed in, the browser makes a full navigation to it (it is a route of the service, not a page of the app).
 */

import { appPath } from "./second-step";

/** The only service path a sign-in page goes on to. */
export const INTERACTION_PATH = "/api/auth/oauth2/interaction/";

/**
 * The provider's interaction path from a value that came with the URL or the navigation, else null: a path of this
 * origin below INTERACTION_PATH ("//evil.example", absolute URLs, `javascript:` and "/api/auth/../x" are refused).
 */
export function interactionPath(value: unknown, origin: string = window.location.origin): string | null {
  if (typeof value !== "string" || !value.startsWith(INTERACTION_PATH)) return null;
  const path = appPath(value, origin);
  return path.startsWith(INTERACTION_PATH) && path.length > INTERACTION_PATH.length ? path : null;
}

/** The `?returnTo=` of a sign-in URL when it is the provider's, and whether it asks for a fresh sign-in (`prompt=login`). */
export function readReturnTo(search: string, origin: string = window.location.origin): { path: string | null; promptLogin: boolean } {
  const params = new URLSearchParams(search);
  const path = interactionPath(params.get("returnTo"), origin);
  return { path, promptLogin: path !== null && params.get("prompt") === "login" };
}

/**
 * Where to go once signed in, from the navigation state a page of ours handed on (`from`): a page of the app, or the
 * provider's interaction path; any other service path, or another origin, goes home.
 */
export function goOnPath(from: unknown, origin: string = window.location.origin): string {
  if (typeof from !== "string" || !from.startsWith("/") || from.startsWith("//")) return "/";
  if (from.startsWith("/api/")) return interactionPath(from, origin) ?? "/";
  return appPath(from, origin);
}

/** Whether a path is the service's (a full navigation) rather than a page of the app (the router's). */
export function isServicePath(path: string): boolean {
  return path.startsWith("/api/");
}

/**
 * Where the second step (/two-factor) goes on to from its `?callbackURL=`: a page of the app (an absolute URL of
 * this origin reduced to its path), or the provider's interaction path; any other service path goes home.
 */
export function secondStepTarget(callbackURL: unknown, origin: string = window.location.origin): string {
  return goOnPath(appPath(callbackURL, origin), origin);
}

/**
 * The sign-in page that starts a sign-in over and still goes on to `target` once signed in: the provider's
 * interaction in `?returnTo=`, as the provider sends it; a page of the app in the navigation state (`from`).
 */
export function signInAgain(target: string): { to: string; state?: { from: string } } {
  if (isServicePath(target)) return { to: `/sign-in?returnTo=${encodeURIComponent(target)}` };
  return target === "/" ? { to: "/sign-in" } : { to: "/sign-in", state: { from: target } };
}

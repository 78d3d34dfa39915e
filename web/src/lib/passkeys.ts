import type { AuthError, Result } from "@gatehouse/client";
import type { TFunction } from "i18next";
import { authClient } from "./auth-client";
import { errorMessage } from "./auth-errors";

/**
 * Passkeys in the browser (README.md, "Passkeys"): the service's options go to the browser's WebAuthn ceremony
 * through @simplewebauthn/browser, and its answer back to the service. The library is fetched on first use, so no
 * page pays for it before it needs it (the sign-in page asks for it once it has shown).
 */
const webAuthn = () => import("@simplewebauthn/browser");

/**
 * Why a ceremony ended in the browser, before the service saw anything: these codes are the web app's own (their
 * sentences are `passkeys.errors.*`), never the service's.
 */
export const PASSKEY_BROWSER_ERRORS = {
  /** The person closed the browser's prompt, or it timed out. */
  cancelled: "PASSKEY_CANCELLED",
  /** Another ceremony took its place (autofill gives way to the button): nothing to say. */
  aborted: "PASSKEY_ABORTED",
  /** The authenticator already holds a passkey for this account. */
  alreadyRegistered: "PASSKEY_ALREADY_REGISTERED",
  /** This browser has no WebAuthn. */
  unsupported: "PASSKEY_UNSUPPORTED",
  /** Anything else the browser refused. */
  failed: "PASSKEY_FAILED",
} as const;

export type PasskeyBrowserError = (typeof PASSKEY_BROWSER_ERRORS)[keyof typeof PASSKEY_BROWSER_ERRORS];

const BROWSER_ERROR_SENTENCES = {
  PASSKEY_CANCELLED: "passkeys.errors.PASSKEY_CANCELLED",
  PASSKEY_ALREADY_REGISTERED: "passkeys.errors.PASSKEY_ALREADY_REGISTERED",
  PASSKEY_UNSUPPORTED: "passkeys.errors.PASSKEY_UNSUPPORTED",
  PASSKEY_FAILED: "passkeys.errors.PASSKEY_FAILED",
} as const;

/** The sentence for a failed passkey ceremony: the browser's refusal in our words, else the service's. */
export function passkeyErrorMessage(t: TFunction, error: AuthError): string {
  if (Object.hasOwn(BROWSER_ERROR_SENTENCES, error.code)) {
    return t(BROWSER_ERROR_SENTENCES[error.code as keyof typeof BROWSER_ERROR_SENTENCES]);
  }
  return errorMessage(t, error);
}

function browserError(code: PasskeyBrowserError, message: string): { data: null; error: AuthError } {
  return { data: null, error: { status: 0, code, message } };
}

/** The browser's refusal as one of our codes. */
function fromBrowser(failure: unknown): { data: null; error: AuthError } {
  const { name, code, message } = (failure ?? {}) as { name?: string; code?: string; message?: string };
  if (code === "ERROR_CEREMONY_ABORTED" || name === "AbortError") return browserError(PASSKEY_BROWSER_ERRORS.aborted, message ?? "");
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") return browserError(PASSKEY_BROWSER_ERRORS.alreadyRegistered, message ?? "");
  if (name === "NotAllowedError") return browserError(PASSKEY_BROWSER_ERRORS.cancelled, message ?? "");
  return browserError(PASSKEY_BROWSER_ERRORS.failed, message ?? String(failure));
}

/** Whether this browser can use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";
}

/** Whether the browser offers passkeys among its autofill suggestions (conditional mediation). */
export async function passkeyAutofillSupported(): Promise<boolean> {
  if (!passkeysSupported()) return false;
  const { browserSupportsWebAuthnAutofill } = await webAuthn();
  return browserSupportsWebAuthnAutofill();
}

/**
 * A passkey sign-in's outcome, with where it ended: asking the service for a challenge, in the browser's ceremony,
 * or the service's check of the passkey (the only stage a person who picked a passkey from the autofill has seen).
 */
export type PasskeySignInResult = Result<unknown> & { stage: "options" | "browser" | "verify" };

/**
 * Signs in with a discoverable passkey: the browser's own prompt, or (`autoFill`) the passkeys it offers under an
 * input marked `autocomplete="… webauthn"`, which waits until one is picked. Answers what the service answered: a
 * session, or the second-step challenge (lib/second-step.ts) for a passkey that did not verify its user.
 */
export async function signInWithPasskey({ autoFill = false } = {}): Promise<PasskeySignInResult> {
  if (!passkeysSupported()) return { ...browserError(PASSKEY_BROWSER_ERRORS.unsupported, "WebAuthn is not available"), stage: "browser" };
  const [{ startAuthentication }, options] = await Promise.all([webAuthn(), authClient.passkey.generateAuthenticateOptions()]);
  if (options.error) return { ...options, stage: "options" };
  let response;
  try {
    response = await startAuthentication({ optionsJSON: options.data as never, useBrowserAutofill: autoFill });
  } catch (failure) {
    return { ...fromBrowser(failure), stage: "browser" };
  }
  return { ...(await authClient.passkey.verifyAuthentication({ response: response as never })), stage: "verify" };
}

/** Stops a waiting ceremony (the autofill one, as the sign-in page goes). */
export async function cancelPasskeyCeremony(): Promise<void> {
  const { WebAuthnAbortService } = await webAuthn();
  WebAuthnAbortService.cancelCeremony();
}

/** Makes a passkey for the signed-in user on this device (or a security key, a phone) and keeps it as `name`. */
export async function registerPasskey(name?: string): Promise<Result<unknown>> {
  if (!passkeysSupported()) return browserError(PASSKEY_BROWSER_ERRORS.unsupported, "WebAuthn is not available");
  const [{ startRegistration }, options] = await Promise.all([webAuthn(), authClient.passkey.generateRegisterOptions()]);
  if (options.error) return options;
  let response;
  try {
    response = await startRegistration({ optionsJSON: options.data as never });
  } catch (failure) {
    return fromBrowser(failure);
  }
  return authClient.passkey.verifyRegistration({ response: response as never, ...(name ? { name } : {}) });
}

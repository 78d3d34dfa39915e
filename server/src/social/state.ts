import { z } from "zod";
import { randomString, URL_SAFE } from "../crypto/random.js";
import { signCookieValue, unsignCookieValue, type CookieAttributes } from "../http/cookies.js";
import type { EndpointContext } from "../http/endpoint.js";

/** SPEC.md section 9: the state lives 10 minutes; its id is 32 random characters, the PKCE verifier 128. */
export const STATE_LIFE_SECONDS = 600;
export const newStateId = () => randomString(32, URL_SAFE);
export const newCodeVerifier = () => randomString(128, URL_SAFE);
export const newNonce = () => randomString(32, URL_SAFE);
const STATE_ID = /^[A-Za-z0-9_-]{32}$/;

/** The verification row of a flow (API-NOTES.md 1.11). */
export const stateIdentifier = (state: string) => `auth-state:${state}`;

/** The OAuth state payload of SPEC.md section 3, stored as the row's JSON value. */
export const statePayloadSchema = z.object({
  callbackURL: z.string(),
  codeVerifier: z.string(),
  errorURL: z.string().optional(),
  newUserURL: z.string().optional(),
  link: z.object({ email: z.string(), userId: z.string() }).optional(),
  /** Milliseconds since the epoch. */
  expiresAt: z.number(),
  requestSignUp: z.boolean().optional(),
  /** OpenID providers: the nonce the ID token must carry. */
  idTokenNonce: z.string().optional(),
  /** The provider the flow went to: a callback on another provider's path is refused (mix-up, RFC 9207 section 1). */
  providerId: z.string().optional(),
});

export type OAuthStatePayload = z.infer<typeof statePayloadSchema>;

/** Why a callback's state was refused: the redirect error codes (SPEC.md section 8, API-NOTES.md 2.1). */
export type StateFailure = "state_not_found" | "state_mismatch" | "please_restart_the_process";

export type StateCheck =
  | { ok: true; payload: OAuthStatePayload }
  | { ok: false; code: StateFailure; errorURL: string | undefined };

function stateCookieAttributes(ctx: EndpointContext, maxAge: number): CookieAttributes {
  return { path: "/", httpOnly: true, sameSite: "Lax", secure: ctx.runtime.config.secureCookies, maxAge };
}

/**
 * Stores a new flow's state and ties it to this browser with the signed `state` cookie. The cookie lives as long
 * as the state (600 s, where API-NOTES.md 1.5 says 300 for the same cookie: a sign-in that takes the user 6 minutes
 * at the provider should not fail on a cookie that died before its state).
 */
export async function saveState(ctx: EndpointContext, state: string, payload: OAuthStatePayload): Promise<void> {
  const { runtime } = ctx;
  const now = runtime.now();
  await runtime.stores.verifications.createVerification({
    id: randomString(32),
    identifier: stateIdentifier(state),
    value: JSON.stringify(payload),
    expiresAt: new Date(payload.expiresAt),
    createdAt: now,
    updatedAt: now,
  });
  ctx.setCookie(
    runtime.config.cookieNames.state,
    signCookieValue(state, runtime.config.secret),
    stateCookieAttributes(ctx, STATE_LIFE_SECONDS),
  );
}

function parsePayload(value: string): OAuthStatePayload | null {
  try {
    const parsed = statePayloadSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Takes a callback's state: it must exist, belong to this browser (the signed cookie names it) and be unexpired;
 * it is consumed atomically, so a replayed callback finds nothing. A state presented by another browser is left in
 * place (it may still be completed by the browser that started it).
 */
export async function takeState(ctx: EndpointContext, state: string | undefined): Promise<StateCheck> {
  const { runtime } = ctx;
  if (!state || !STATE_ID.test(state)) return { ok: false, code: "state_not_found", errorURL: undefined };
  const identifier = stateIdentifier(state);
  const stored = await runtime.stores.verifications.findVerification(identifier);
  const payload = stored ? parsePayload(stored.value) : null;
  if (!stored || !payload) return { ok: false, code: "state_not_found", errorURL: undefined };

  const raw = ctx.cookie(runtime.config.cookieNames.state);
  const cookieState = raw ? unsignCookieValue(raw, runtime.config.secret) : null;
  if (cookieState !== state) return { ok: false, code: "state_mismatch", errorURL: payload.errorURL };

  const now = runtime.now();
  const consumed = await runtime.stores.verifications.consumeVerification(identifier, now);
  ctx.setCookie(runtime.config.cookieNames.state, "", stateCookieAttributes(ctx, 0));
  if (!consumed || payload.expiresAt <= now.getTime()) {
    const expired = stored.expiresAt <= now || payload.expiresAt <= now.getTime();
    return { ok: false, code: expired ? "please_restart_the_process" : "state_not_found", errorURL: payload.errorURL };
  }
  return { ok: true, payload };
}

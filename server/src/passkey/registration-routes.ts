import { randomBytes } from "node:crypto";
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
  type VerifiedRegistrationResponse,
} from "@simplewebauthn/server";
import { z } from "zod";
import { emitEvent } from "../events/emit.js";
import { generateId } from "../crypto/random.js";
import { APIError } from "../http/errors.js";
import { isUniqueViolation } from "../storage/constraint-errors.js";
import { publicSession, publicSessionSchema, publicUser, publicUserSchema } from "../user/public.js";
import { issueChallenge, takeChallenge } from "./challenge.js";
import { definePasskeyEndpoint } from "./deps.js";
import { PASSKEY_MESSAGES } from "./messages.js";
import { passkeySchema, publicPasskey, registrationOptionsSchema, registrationResponseSchema } from "./public.js";
import { clientDataOrigin, isExpectedOrigin, rpIDOf } from "./relying-party.js";
import type { Passkey } from "./store/models.js";

/** Better Auth's WebAuthn timeout (API-NOTES-PLUGINS.md 3.2); the challenge itself lives CHALLENGE_LIFE seconds. */
export const WEBAUTHN_TIMEOUT_MS = 60_000;

const bytesOf = (base64url: string) => new Uint8Array(Buffer.from(base64url, "base64url"));

export const generatePasskeyRegistrationOptions = definePasskeyEndpoint({
  method: "GET",
  path: "/passkey/generate-register-options",
  auth: "fresh",
  query: z.object({
    authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
    /** The account name the authenticator shows (default: the user's email). */
    name: z.string().trim().min(1).max(256).optional(),
    /** Better Auth passes it to its hooks; accepted and not used. */
    context: z.string().max(1024).optional(),
  }),
  response: registrationOptionsSchema,
  summary: "WebAuthn options to register a passkey (a fresh session), and the challenge cookie",
  tags: ["Passkeys"],
  async handler(ctx) {
    const { runtime, query } = ctx;
    const { user, session } = ctx.session!;
    const settings = runtime.config.passkey;
    const userHandle = await runtime.stores.passkeys.userHandleOf(
      user.id,
      randomBytes(32).toString("base64url"),
      runtime.now(),
    );
    const existing = await runtime.stores.passkeys.listUserPasskeys(user.id);
    const attachment = query.authenticatorAttachment ?? settings.authenticatorSelection.authenticatorAttachment;
    const options = await generateRegistrationOptions({
      rpName: settings.rpName,
      rpID: rpIDOf(runtime),
      userID: bytesOf(userHandle),
      userName: query.name ?? user.email,
      userDisplayName: user.name || user.email,
      timeout: WEBAUTHN_TIMEOUT_MS,
      attestationType: "none",
      // The authenticator refuses to make a second passkey of this user where it holds one already.
      excludeCredentials: existing.map((p) => ({ id: p.credentialID, transports: transportsOf(p) })),
      authenticatorSelection: {
        residentKey: settings.authenticatorSelection.residentKey,
        userVerification: settings.authenticatorSelection.userVerification,
        ...(attachment ? { authenticatorAttachment: attachment } : {}),
      },
    });
    await issueChallenge(ctx, {
      type: "registration",
      challenge: options.challenge,
      userId: user.id,
      sessionId: session.id,
      userHandle,
    });
    return options;
  },
});

const verifyRegistrationBody = z.object({
  response: registrationResponseSchema,
  name: z.string().trim().max(256).optional(),
  /** Better Auth's flag: here it adds the caller's current session to the answer; no second session is made. */
  createSession: z.boolean().optional(),
});

export const verifyPasskeyRegistration = definePasskeyEndpoint({
  method: "POST",
  path: "/passkey/verify-registration",
  auth: "fresh",
  rateLimit: "credential",
  body: verifyRegistrationBody,
  response: passkeySchema.extend({ session: publicSessionSchema.optional(), user: publicUserSchema.optional() }),
  summary: "Register a passkey: the browser's answer to the registration options (a fresh session)",
  tags: ["Passkeys"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const { user, session } = ctx.session!;
    const state = await takeChallenge(ctx, "registration");
    // Made for another user, or in another session of this user (a cookie carried across sign-ins).
    if (state.userId !== user.id || state.sessionId !== session.id) {
      throw new APIError("UNAUTHORIZED", PASSKEY_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY);
    }
    const failed = () => new APIError("BAD_REQUEST", PASSKEY_MESSAGES.FAILED_TO_VERIFY_REGISTRATION);
    const origin = clientDataOrigin(body.response.response.clientDataJSON);
    if (!origin || !isExpectedOrigin(runtime, origin)) throw failed();

    let verification: VerifiedRegistrationResponse;
    try {
      verification = await verifyRegistrationResponse({
        response: body.response as unknown as RegistrationResponseJSON,
        expectedChallenge: state.challenge,
        expectedOrigin: origin,
        expectedRPID: rpIDOf(runtime),
        requireUserVerification: runtime.config.passkey.authenticatorSelection.userVerification === "required",
      });
    } catch (error) {
      runtime.logger.debug({ userId: user.id, err: (error as Error).message }, "passkey registration refused");
      throw failed();
    }
    if (!verification.verified) throw failed();
    const { credential, credentialDeviceType, credentialBackedUp, aaguid } = verification.registrationInfo;

    const passkey: Passkey = {
      id: generateId(),
      name: body.name || null,
      publicKey: Buffer.from(credential.publicKey).toString("base64"),
      userId: user.id,
      credentialID: credential.id,
      counter: credential.counter,
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
      transports: (credential.transports ?? []).join(","),
      createdAt: runtime.now(),
      aaguid: aaguid ?? null,
      userHandle: state.userHandle,
      registeredBySession: session.id,
    };
    try {
      await runtime.stores.transaction(async (stores) => {
        await stores.passkeys.createPasskey(passkey);
        await emitEvent(stores, ctx, "passkey.added", {
          userId: user.id,
          data: { passkeyId: passkey.id, name: passkey.name, deviceType: passkey.deviceType, backedUp: passkey.backedUp },
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new APIError("BAD_REQUEST", PASSKEY_MESSAGES.PREVIOUSLY_REGISTERED);
      throw error;
    }
    runtime.logger.info({ userId: user.id, passkeyId: passkey.id }, "passkey registered");
    const answer = publicPasskey(passkey);
    return body.createSession ? { ...answer, session: publicSession(session), user: publicUser(user) } : answer;
  },
});

/** The transports a stored passkey named, for the browser's hints. */
export function transportsOf(passkey: Pick<Passkey, "transports">): AuthenticatorTransportFuture[] | undefined {
  const list = (passkey.transports ?? "").split(",").filter(Boolean);
  return list.length ? (list as AuthenticatorTransportFuture[]) : undefined;
}

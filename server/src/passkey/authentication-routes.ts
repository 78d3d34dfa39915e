import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type VerifiedAuthenticationResponse,
} from "@simplewebauthn/server";
import { z } from "zod";
import { defineEndpoint } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import { recordFailedSignIn, secondStepAnswerSchema, signIn } from "../session/sign-in.js";
import { publicSession, publicUser, sessionDataSchema } from "../user/public.js";
import { challengeIdentifier, challengeStateOf, issueChallenge } from "./challenge.js";
import { definePasskeyEndpoint } from "./deps.js";
import { PASSKEY_MESSAGES } from "./messages.js";
import { authenticationOptionsSchema, authenticationResponseSchema } from "./public.js";
import { transportsOf, WEBAUTHN_TIMEOUT_MS } from "./registration-routes.js";
import { clientDataOrigin, isExpectedOrigin, rpIDOf } from "./relying-party.js";

export const generatePasskeyAuthenticationOptions = definePasskeyEndpoint({
  method: "GET",
  path: "/passkey/generate-authenticate-options",
  auth: "none",
  response: authenticationOptionsSchema,
  summary: "WebAuthn options to sign in with a passkey, and the challenge cookie",
  tags: ["Passkeys"],
  async handler(ctx) {
    const { runtime } = ctx;
    // Signed out (the sign-in page, its autofill): no allowCredentials, so the browser offers the discoverable
    // passkeys it holds for this relying party (conditional mediation). Signed in: the user's own passkeys only.
    const current = await ctx.getSession();
    const own = current ? await runtime.stores.passkeys.listUserPasskeys(current.user.id) : null;
    const options = await generateAuthenticationOptions({
      rpID: rpIDOf(runtime),
      timeout: WEBAUTHN_TIMEOUT_MS,
      userVerification: runtime.config.passkey.authenticatorSelection.userVerification,
      ...(own ? { allowCredentials: own.map((p) => ({ id: p.credentialID, transports: transportsOf(p) })) } : {}),
    });
    await issueChallenge(ctx, { type: "authentication", challenge: options.challenge, userId: current?.user.id ?? null });
    return options;
  },
});

export const verifyPasskeyAuthentication = defineEndpoint({
  method: "POST",
  path: "/passkey/verify-authentication",
  auth: "none",
  changesSession: true,
  rateLimit: "credential",
  body: z.object({ response: authenticationResponseSchema }),
  // Without user verification, a user with a second factor gets Better Auth's twoFactorRedirect instead.
  response: z.union([sessionDataSchema, secondStepAnswerSchema]),
  summary: "Sign in with a passkey: the browser's answer to the authentication options",
  tags: ["Passkeys"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const assertion = body.response;
    // The challenge taken (single use, whatever follows) and the passkey read in one round trip.
    const taken = await runtime.stores.passkeys.takeChallengeAndFindPasskey(challengeIdentifier(ctx), assertion.id, runtime.now());
    const state = challengeStateOf(taken.challenge, "authentication");
    const failed = (status: "BAD_REQUEST" | "UNAUTHORIZED" = "UNAUTHORIZED") =>
      new APIError(status, PASSKEY_MESSAGES.AUTHENTICATION_FAILED);

    const { found } = taken;
    if (!found) {
      await recordFailedSignIn(ctx, "passkey", "invalid_passkey", null);
      throw new APIError("UNAUTHORIZED", PASSKEY_MESSAGES.PASSKEY_NOT_FOUND);
    }
    const { passkey } = found;
    // A refusal from here on names the passkey's user (sign_in.failed).
    const refused = async (status?: "BAD_REQUEST" | "UNAUTHORIZED") => {
      await recordFailedSignIn(ctx, "passkey", "invalid_passkey", passkey.userId);
      return failed(status);
    };
    // Options made for a signed-in user listed only their passkeys: another user's is not an answer to them.
    if (state.userId !== null && passkey.userId !== state.userId) throw await refused();
    // A discoverable passkey names its user handle: it must be the one it was registered under (rows Better Auth
    // wrote have none recorded).
    const handle = assertion.response.userHandle?.replace(/=+$/, "");
    if (handle && passkey.userHandle && handle !== passkey.userHandle) throw await refused();
    const origin = clientDataOrigin(assertion.response.clientDataJSON);
    if (!origin || !isExpectedOrigin(runtime, origin)) throw await refused("BAD_REQUEST");

    let verification: VerifiedAuthenticationResponse;
    try {
      verification = await verifyAuthenticationResponse({
        response: assertion as unknown as AuthenticationResponseJSON,
        expectedChallenge: state.challenge,
        expectedOrigin: origin,
        expectedRPID: rpIDOf(runtime),
        credential: {
          id: passkey.credentialID,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64")),
          counter: passkey.counter,
          transports: transportsOf(passkey),
        },
        requireUserVerification: runtime.config.passkey.authenticatorSelection.userVerification === "required",
      });
    } catch (error) {
      // A malformed answer, a wrong challenge, origin or RP ID, a missing user presence, or a signature counter that
      // did not move past the stored one (a cloned authenticator, or a replayed assertion).
      runtime.logger.debug({ passkeyId: passkey.id, err: (error as Error).message }, "passkey sign-in refused");
      throw await refused("BAD_REQUEST");
    }
    if (!verification.verified) throw await refused();
    const { newCounter, userVerified } = verification.authenticationInfo;
    // The counter moves from the value this assertion was checked against, in one statement: a concurrent sign-in
    // that moved it first wins, and this one is refused. A passkey whose counter is 0 and stays 0 keeps none
    // (WebAuthn: nothing to compare; synced passkeys): there is nothing to move, so no write.
    const moves = newCounter !== 0 || passkey.counter !== 0;
    if (moves && !(await runtime.stores.passkeys.advanceCounter(passkey.id, passkey.counter, newCounter))) throw await refused();

    if (!found.user) throw failed();
    // With user verification (a PIN or biometric), the passkey is both factors: no second step is owed. Without
    // it, a user with a second factor meets the second step (SecondStepRequired goes up to the endpoint runner).
    const { user, session } = await signIn(ctx, found.user, { method: "passkey", factors: userVerified ? ["passkey"] : [] });
    return { session: publicSession(session), user: publicUser(user) };
  },
});

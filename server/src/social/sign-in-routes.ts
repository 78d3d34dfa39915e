import { z } from "zod";
import { bannedUserError } from "../credentials/rules.js";
import { defineEndpoint } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import { SESSION_MESSAGES } from "../session/messages.js";
import { secondStepAnswerSchema } from "../session/sign-in.js";
import { publicUser, publicUserSchema } from "../user/public.js";
import { startAuthorization } from "./authorize.js";
import { idTokenBody, tokensFromIdToken, verifyPostedIdToken } from "./id-token.js";
import { requireProvider } from "./lookup.js";
import { OAUTH_MESSAGES } from "./messages.js";
import type { SignInFailure } from "./account-linking.js";
import { completeProviderSignIn } from "./sign-in-flow.js";

/** A posted ID token's sign-in failures, each the catalogue's message (its code is the redirect's, upper-cased). */
const SIGN_IN_FAILURES: Record<SignInFailure, string> = {
  "unable to create user": OAUTH_MESSAGES.UNABLE_TO_CREATE_USER,
  "account not linked": OAUTH_MESSAGES.ACCOUNT_NOT_LINKED,
  "signup disabled": OAUTH_MESSAGES.SIGNUP_DISABLED,
};

const url = z.string().max(2048);
export const scopesBody = z.array(z.string().min(1).max(256)).max(50);

/** The answer of a redirect flow: where to send the browser (also in Location unless disableRedirect). */
export const redirectAnswerSchema = z.object({ url: z.string(), redirect: z.boolean() });

export const signInSocial = defineEndpoint({
  method: "POST",
  path: "/sign-in/social",
  changesSession: true,
  // Not a password, but a sign-in: the same per-client allowance as the other sign-in routes.
  rateLimit: "credential",
  auth: "none",
  body: z.object({
    /** A built-in provider id (SPEC.md section 3) or the id of a configured OpenID provider. */
    provider: z.string().min(1).max(64),
    callbackURL: url.optional(),
    newUserCallbackURL: url.optional(),
    errorCallbackURL: url.optional(),
    disableRedirect: z.boolean().optional(),
    idToken: idTokenBody.optional(),
    scopes: scopesBody.optional(),
    requestSignUp: z.boolean().optional(),
    loginHint: z.string().max(512).optional(),
  }),
  callbackFields: ["callbackURL", "newUserCallbackURL", "errorCallbackURL"],
  response: z.union([
    redirectAnswerSchema,
    z.object({ redirect: z.literal(false), token: z.string(), url: z.string().optional(), user: publicUserSchema }),
    secondStepAnswerSchema,
  ]),
  summary: "Sign in with a social provider: the provider's authorization URL, or a session for a posted ID token",
  tags: ["Social sign-in"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const provider = requireProvider(runtime, body.provider);

    if (body.idToken) {
      const profile = await verifyPostedIdToken(ctx, provider, body.idToken);
      const result = await completeProviderSignIn(
        ctx,
        provider,
        profile,
        tokensFromIdToken(body.idToken, profile),
        body.requestSignUp ?? false,
      );
      if (!result.ok) {
        if (result.reason === "banned") throw bannedUserError(runtime);
        if (result.reason === "email not found") throw new APIError("UNAUTHORIZED", OAUTH_MESSAGES.USER_EMAIL_NOT_FOUND);
        if (result.reason === "unable to create session") throw new APIError("UNAUTHORIZED", SESSION_MESSAGES.FAILED_TO_CREATE_SESSION);
        throw new APIError("UNAUTHORIZED", SIGN_IN_FAILURES[result.reason]);
      }
      return {
        redirect: false as const,
        token: result.session.token,
        ...(body.callbackURL ? { url: body.callbackURL } : {}),
        user: publicUser(result.user),
      };
    }

    const authorizationURL = await startAuthorization(ctx, provider, {
      callbackURL: body.callbackURL,
      errorCallbackURL: body.errorCallbackURL,
      newUserCallbackURL: body.newUserCallbackURL,
      requestSignUp: body.requestSignUp,
      scopes: body.scopes,
      loginHint: body.loginHint,
    });
    const redirect = !body.disableRedirect;
    if (redirect) ctx.setHeader("location", authorizationURL);
    return { url: authorizationURL, redirect };
  },
});

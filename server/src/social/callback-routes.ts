import { z } from "zod";
import { defineEndpoint, redirectTo, type EndpointContext } from "../http/endpoint.js";
import { SecondStepRequired } from "../session/sign-in.js";
import { linkProfileToUser } from "./account-linking.js";
import type { OAuthProvider, OAuthTokens, ProviderProfile } from "./provider.js";
import { completeProviderSignIn } from "./sign-in-flow.js";
import { takeState, type OAuthStatePayload } from "./state.js";
import { defaultErrorURL, redirectURIOf, withQuery } from "./urls.js";

/** What a provider may send back (SPEC.md section 7): the code and state, or an error; VK's device_id; Apple's user. */
const CALLBACK_PARAMS = ["code", "state", "error", "error_description", "device_id", "user", "iss"] as const;
type CallbackParams = Partial<Record<(typeof CALLBACK_PARAMS)[number], string>>;
const MAX_PARAM_LENGTH = 8192;

const queryValue = z.union([z.string(), z.array(z.string())]).optional();
const callbackQuery = z.looseObject(Object.fromEntries(CALLBACK_PARAMS.map((name) => [name, queryValue])));
const formValue = z.union([z.string(), z.boolean()]).optional();
const callbackForm = z.looseObject(Object.fromEntries(CALLBACK_PARAMS.map((name) => [name, formValue])));

/** The known parameters as single strings, or null when one is repeated or oversized (invalid_callback_request). */
function readParams(source: Record<string, unknown>): CallbackParams | null {
  const params: CallbackParams = {};
  for (const name of CALLBACK_PARAMS) {
    const value = source[name];
    if (value === undefined) continue;
    if (typeof value !== "string" || value.length > MAX_PARAM_LENGTH) return null;
    params[name] = value;
  }
  return params;
}

/** A redirect to the flow's error URL (else the web app's /error page) with `?error=CODE`. */
function failTo(ctx: EndpointContext, errorURL: string | undefined, code: string, description?: string) {
  return redirectTo(withQuery(errorURL ?? defaultErrorURL(ctx), { error: code, error_description: description }));
}

function logFailure(ctx: EndpointContext, provider: OAuthProvider, step: string, error: unknown) {
  const err = error as Error;
  ctx.runtime.logger.warn({ provider: provider.id, step, err: err.name, message: err.message }, "oauth callback failed");
}

export const callbackOAuth = defineEndpoint({
  method: "GET",
  path: "/callback/:id",
  auth: "none",
  navigation: true,
  query: callbackQuery,
  summary: "Where a provider sends the user back: signs in (or links) and redirects to the flow's callbackURL",
  tags: ["Social sign-in"],
  async handler(ctx) {
    const { runtime } = ctx;
    const params = readParams(ctx.query);
    if (!params) return failTo(ctx, undefined, "invalid_callback_request");

    const check = await takeState(ctx, params.state);
    if (!check.ok) {
      // A provider's own error still reaches the user when it came without a usable state.
      if (params.error) return failTo(ctx, check.errorURL, params.error, params.error_description);
      return failTo(ctx, check.errorURL, check.code);
    }
    const state = check.payload;
    const errorURL = state.errorURL;
    if (params.error) return failTo(ctx, errorURL, params.error, params.error_description);

    const provider = runtime.oauth.providers.get(ctx.params.id ?? "");
    if (!provider) return failTo(ctx, errorURL, "oauth_provider_not_found");
    if (state.providerId && state.providerId !== provider.id) return failTo(ctx, errorURL, "state_mismatch");
    if (!params.code) return failTo(ctx, errorURL, "no_code");

    let tokens: OAuthTokens;
    try {
      tokens = await provider.validateAuthorizationCode({
        code: params.code,
        state: params.state!,
        codeVerifier: state.codeVerifier,
        nonce: state.idTokenNonce ?? null,
        redirectURI: redirectURIOf(ctx, provider),
        iss: params.iss,
        deviceId: params.device_id,
        user: params.user,
      });
    } catch (error) {
      logFailure(ctx, provider, "code", error);
      return failTo(ctx, errorURL, "invalid_code");
    }
    let profile: ProviderProfile;
    try {
      profile = await provider.getUserProfile(tokens, { user: params.user });
    } catch (error) {
      logFailure(ctx, provider, "profile", error);
      return failTo(ctx, errorURL, "unable_to_get_user_info");
    }

    if (state.link) return finishLink(ctx, provider, profile, tokens, state);

    let result: Awaited<ReturnType<typeof completeProviderSignIn>>;
    try {
      result = await completeProviderSignIn(ctx, provider, profile, tokens, state.requestSignUp ?? false);
    } catch (error) {
      // A user with a second factor: the web app's second-step page, then where the flow was going.
      if (error instanceof SecondStepRequired) return redirectTo(error.secondStepURL(state.callbackURL));
      throw error;
    }
    if (!result.ok) {
      if (result.reason === "banned") return failTo(ctx, errorURL, "banned", runtime.config.admin.bannedUserMessage);
      return failTo(ctx, errorURL, result.reason.replace(/ /g, "_"));
    }
    return redirectTo((result.isNewUser && state.newUserURL) || state.callbackURL);
  },
});

/** link-social's return: the provider account joins the user who started the flow, still signed in here. */
async function finishLink(
  ctx: EndpointContext,
  provider: OAuthProvider,
  profile: ProviderProfile,
  tokens: OAuthTokens,
  state: OAuthStatePayload,
) {
  const link = state.link!;
  const current = await ctx.getSession({ disableCookieCache: true });
  if (!current || current.user.id !== link.userId) return failTo(ctx, state.errorURL, "unable_to_link_account");
  const result = await linkProfileToUser(ctx, ctx.runtime, provider, profile, tokens, link);
  if (!result.ok) {
    // SPEC.md section 8 has no code of its own for an address the provider did not verify.
    return failTo(ctx, state.errorURL, result.code === "email_not_verified" ? "unable_to_link_account" : result.code);
  }
  return redirectTo(state.callbackURL);
}

export const callbackOAuthPost = defineEndpoint({
  method: "POST",
  path: "/callback/:id",
  auth: "none",
  navigation: true,
  acceptsForm: true,
  // Apple posts the answer from its own site: there is no origin of ours to check, and this only redirects.
  crossSitePost: true,
  body: callbackForm.optional(),
  query: callbackQuery,
  summary: "A provider's form-posted answer (Apple): redirects to the GET form with the same parameters",
  tags: ["Social sign-in"],
  async handler(ctx) {
    const merged: Record<string, string> = {};
    for (const source of [ctx.query as Record<string, unknown>, (ctx.body ?? {}) as Record<string, unknown>]) {
      for (const name of CALLBACK_PARAMS) {
        const value = source[name];
        if (typeof value === "string" || typeof value === "boolean") merged[name] = String(value);
      }
    }
    // 302 turns the cross-site POST into a top-level GET, which carries our SameSite=Lax state cookie.
    return redirectTo(withQuery(ctx.url.pathname, merged), 302);
  },
});

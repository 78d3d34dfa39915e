import { SecondStepRequired, signIn, SignInRefused } from "../session/sign-in.js";
import type { EndpointContext } from "../http/endpoint.js";
import type { Session, User } from "../storage/index.js";
import { profileEmail, signInWithProfile, type SignInFailure } from "./account-linking.js";
import type { OAuthProvider, OAuthTokens, ProviderProfile } from "./provider.js";

export type ProviderSignInFailure = SignInFailure | "email not found" | "banned" | "unable to create session";

export type ProviderSignIn =
  | { ok: true; user: User; session: Session; isNewUser: boolean }
  | { ok: false; reason: ProviderSignInFailure };

/**
 * The end of every provider sign-in, redirect or ID token (SPEC.md section 4, steps 3 to 5): the user found,
 * linked or created, then the one way in (session/sign-in.ts): refused while banned, a session and its cookie.
 */
export async function completeProviderSignIn(
  ctx: EndpointContext,
  provider: OAuthProvider,
  profile: ProviderProfile,
  tokens: OAuthTokens,
  requestSignUp: boolean,
): Promise<ProviderSignIn> {
  const { runtime } = ctx;
  const email = profileEmail(profile);
  if (!email) return { ok: false, reason: "email not found" };
  const outcome = await signInWithProfile(ctx, runtime, provider, profile, tokens, { email, requestSignUp });
  if (!outcome.ok) return outcome;
  try {
    // The one way in (session/sign-in.ts): ban check, sign-in policies, the session; the method is the provider.
    const { user, session } = await signIn(ctx, outcome.user, { method: provider.id });
    return { ok: true, user, session, isNewUser: outcome.isNewUser };
  } catch (error) {
    // The user owes a second step: the caller answers it (the callback redirects, the ID token's route lets it through).
    if (error instanceof SecondStepRequired) throw error;
    if (error instanceof SignInRefused) {
      if (error.code === "BANNED_USER") return { ok: false, reason: "banned" };
      throw error;
    }
    runtime.logger.error({ userId: outcome.user.id, err: (error as Error).message }, "session not created after provider sign-in");
    return { ok: false, reason: "unable to create session" };
  }
}

import type { SocialProviderOptions } from "../../config/social-options.js";
import { claimIsTrue, OpenIdProvider } from "../openid-provider.js";
import { asRecord, asString, joinName, type AuthorizationInput, type CallbackInput, type ProviderProfile, requireId } from "../provider.js";

const AUTHORIZATION_ENDPOINT = "https://appleid.apple.com/auth/authorize";
const TOKEN_ENDPOINT = "https://appleid.apple.com/auth/token";
const JWKS_ENDPOINT = "https://appleid.apple.com/auth/keys";
const ISSUER = "https://appleid.apple.com";

/**
 * Sign in with Apple. Quirks, all kept here:
 * - asking for `name` or `email` requires `response_mode=form_post`: Apple POSTs the callback as a form, which
 *   POST /callback/apple turns into a GET (so the SameSite=Lax state cookie comes along);
 * - there is no userinfo endpoint: everything comes from the ID token, where `email_verified` may be the string "true";
 * - the user's name is sent only on the first sign-in, in the `user` form field (`{"name":{"firstName","lastName"}}`),
 *   unsigned, so nothing but the name is taken from it;
 * - the client secret is a short-lived ES256 JWT the deployment generates from its Apple key.
 */
export class AppleProvider extends OpenIdProvider {
  constructor(options: SocialProviderOptions, clock: () => Date) {
    super(
      {
        id: "apple",
        name: "Apple",
        endpoints: { authorization: AUTHORIZATION_ENDPOINT, token: TOKEN_ENDPOINT, jwks: JWKS_ENDPOINT, issuer: ISSUER },
        defaultScopes: ["name", "email"],
        pkce: false,
        clientAuth: "client_secret_post",
        refresh: true,
      },
      options,
      clock,
    );
  }

  protected override authorizationParams(input: AuthorizationInput): Record<string, string> {
    return input.scopes.length ? { response_mode: "form_post" } : {};
  }

  protected mapClaims(claims: Record<string, unknown>, callback?: Pick<CallbackInput, "user">): ProviderProfile {
    const firstSignIn = parseUser(callback?.user);
    const name = asRecord(firstSignIn.name);
    return {
      user: {
        id: requireId(this.id, claims.sub),
        email: asString(claims.email),
        emailVerified: claimIsTrue(claims.email_verified),
        name: joinName(asString(name.firstName), asString(name.lastName)),
        image: null,
      },
      data: { ...claims, ...(Object.keys(firstSignIn).length ? { user: firstSignIn } : {}) },
    };
  }
}

function parseUser(raw: string | undefined): Record<string, unknown> {
  if (!raw || raw.length > 4096) return {};
  try {
    return asRecord(JSON.parse(raw));
  } catch {
    return {};
  }
}

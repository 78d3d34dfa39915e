import type { CustomFetchOptions } from "oauth4webapi";
import type { SocialProviderOptions } from "../../config/social-options.js";
import { OAuthRefusedError } from "../errors.js";
import { requestJson } from "../http.js";
import { adaptTokenResponse, OAuth2Provider } from "../oauth2-provider.js";
import { asString, type OAuthTokens, type ProviderProfile, requireId } from "../provider.js";

const AUTHORIZATION_ENDPOINT = "https://github.com/login/oauth/authorize";
const TOKEN_ENDPOINT = "https://github.com/login/oauth/access_token";
const USER_ENDPOINT = "https://api.github.com/user";
/** The addresses live beside the profile: `{user endpoint}/emails` (also on GitHub Enterprise's /api/v3/user). */
const emailsEndpoint = (userEndpoint: string) => `${userEndpoint.replace(/\/+$/, "")}/emails`;
const API_HEADERS = { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" };

interface GitHubEmail {
  email?: string;
  primary?: boolean;
  verified?: boolean;
}

/**
 * GitHub. Quirks: the token endpoint answers form-encoded unless asked for JSON (`Accept: application/json`), and
 * it reports a bad code as HTTP 200 with `{ error }`; the profile's email is only the public one, so the verified
 * primary address comes from a second call to /user/emails (scope user:email).
 */
export class GitHubProvider extends OAuth2Provider {
  constructor(options: SocialProviderOptions, clock: () => Date) {
    super(
      {
        id: "github",
        name: "GitHub",
        endpoints: { authorization: AUTHORIZATION_ENDPOINT, token: TOKEN_ENDPOINT, userInfo: USER_ENDPOINT },
        defaultScopes: ["read:user", "user:email"],
        pkce: true,
        clientAuth: "client_secret_post",
        refresh: true,
      },
      options,
      clock,
    );
  }

  protected override async protocolFetch(url: string, init: CustomFetchOptions<"GET" | "POST", unknown>): Promise<Response> {
    const response = await fetch(url, { ...(init as RequestInit), headers: { ...init.headers, accept: "application/json" } });
    // An OAuth error sent with 200 becomes the 400 it should have been, so it reads as "the provider said no".
    return adaptTokenResponse(response, (body, status) => ({
      status: status === 200 && typeof body.error === "string" ? 400 : status,
      body,
    }));
  }

  async getUserProfile(tokens: OAuthTokens): Promise<ProviderProfile> {
    const accessToken = tokens.accessToken ?? "";
    const userEndpoint = this.endpoints.userInfo!;
    const profile = await requestJson(this.id, userEndpoint, { accessToken, headers: API_HEADERS });
    let emails: GitHubEmail[] = [];
    try {
      const answer = await requestJson(this.id, emailsEndpoint(userEndpoint), { accessToken, headers: API_HEADERS });
      emails = Array.isArray(answer.items) ? (answer.items as GitHubEmail[]) : [];
    } catch (error) {
      // Without the user:email scope the list is refused; the public address (unverified) is all there is.
      if (!(error instanceof OAuthRefusedError)) throw error;
    }
    const publicEmail = asString(profile.email);
    const chosen =
      emails.find((e) => e.primary && e.verified) ??
      emails.find((e) => e.verified && e.email === publicEmail) ??
      emails.find((e) => e.verified);
    return {
      user: {
        id: requireId(this.id, profile.id),
        email: chosen?.email ?? publicEmail,
        emailVerified: chosen?.verified === true,
        name: asString(profile.name) ?? asString(profile.login) ?? "",
        image: asString(profile.avatar_url),
      },
      data: { ...profile, emails },
    };
  }
}

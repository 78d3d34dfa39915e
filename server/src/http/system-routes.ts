import { z } from "zod";
import { defineEndpoint, RawResponse } from "./endpoint.js";
import { fromAcceptLanguage, DEFAULT_LANGUAGE } from "../email/language.js";
import { renderErrorPage } from "./error-page.js";

export const ok = defineEndpoint({
  method: "GET",
  path: "/ok",
  auth: "none",
  response: z.object({ ok: z.literal(true) }),
  summary: "Liveness check",
  tags: ["System"],
  async handler() {
    return { ok: true };
  },
});

export const error = defineEndpoint({
  method: "GET",
  path: "/error",
  auth: "none",
  navigation: true,
  query: z.looseObject({
    error: z.union([z.string(), z.array(z.string())]).optional(),
    error_description: z.union([z.string(), z.array(z.string())]).optional(),
  }),
  summary: "The HTML page that redirect errors land on",
  tags: ["System"],
  async handler(ctx) {
    const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
    const code = (first(ctx.query.error) ?? "UNKNOWN").slice(0, 200);
    // In the visitor's language (Accept-Language, else English), as mail is when no saved language is known.
    const language = fromAcceptLanguage(ctx.headers.get("accept-language")) ?? DEFAULT_LANGUAGE;
    ctx.setHeader("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'");
    ctx.setHeader("content-language", language);
    ctx.setHeader("vary", "Accept-Language");
    return new RawResponse(renderErrorPage(code || "UNKNOWN", language), "text/html; charset=utf-8");
  },
});

/**
 * What this deployment has turned on, so an application (the bundled web app among them) can show only the
 * features that work: which mail flows exist, the password and username bounds, the social providers.
 * Nothing secret: the same could be learned by calling each route.
 */
export const features = defineEndpoint({
  method: "GET",
  path: "/features",
  auth: "none",
  response: z.object({
    emailAndPassword: z.object({
      enabled: z.boolean(),
      signUp: z.boolean(),
      minPasswordLength: z.number(),
      maxPasswordLength: z.number(),
      requireEmailVerification: z.boolean(),
    }),
    emailVerification: z.boolean(),
    resetPassword: z.boolean(),
    changeEmail: z.boolean(),
    deleteUser: z.object({ enabled: z.boolean(), byEmail: z.boolean() }),
    username: z.object({ minLength: z.number(), maxLength: z.number() }),
    socialProviders: z.array(z.string()),
    /** The same providers with the names their buttons show. */
    providers: z.array(z.object({ id: z.string(), name: z.string() })),
    /** Sign-in by a mailed link; `signUp`: an address without an account may sign up through it. */
    magicLink: z.object({ enabled: z.boolean(), signUp: z.boolean() }),
    /** Mailed one-time codes: sign-in (`signUp` as above), digits per code, email change by code. */
    emailOTP: z.object({ enabled: z.boolean(), signUp: z.boolean(), otpLength: z.number(), changeEmail: z.boolean() }),
    /** Passkeys: registration, sign-in (with the browser's autofill) and their management. */
    passkey: z.object({ enabled: z.boolean() }),
    /** Second factors (an authenticator app, backup codes, codes by email) and the second step of every sign-in. */
    twoFactor: z.object({ enabled: z.boolean() }),
  }),
  summary: "The features this deployment has turned on",
  tags: ["System"],
  async handler(ctx) {
    const config = ctx.runtime.config;
    const ep = config.emailAndPassword;
    return {
      emailAndPassword: {
        enabled: ep.enabled,
        signUp: ep.enabled && !ep.disableSignUp,
        minPasswordLength: ep.minPasswordLength,
        maxPasswordLength: ep.maxPasswordLength,
        requireEmailVerification: ep.requireEmailVerification,
      },
      emailVerification: config.emailVerification.enabled,
      resetPassword: ep.resetPassword.enabled,
      changeEmail: config.user.changeEmail.enabled,
      deleteUser: {
        enabled: config.user.deleteUser.enabled,
        byEmail: config.user.deleteUser.enabled && config.user.deleteUser.sendDeleteAccountVerification,
      },
      username: { minLength: config.username.minUsernameLength, maxLength: config.username.maxUsernameLength },
      socialProviders: [...ctx.runtime.oauth.providers.keys()],
      providers: [...ctx.runtime.oauth.providers.values()].map(({ id, name }) => ({ id, name })),
      magicLink: { enabled: config.magicLink.enabled, signUp: config.magicLink.enabled && !config.magicLink.disableSignUp },
      emailOTP: {
        enabled: config.emailOTP.enabled,
        signUp: config.emailOTP.enabled && !config.emailOTP.disableSignUp,
        otpLength: config.emailOTP.otpLength,
        changeEmail: config.emailOTP.enabled && config.emailOTP.changeEmail.enabled,
      },
      passkey: { enabled: config.passkey.enabled },
      twoFactor: { enabled: config.twoFactor.enabled },
    };
  },
});

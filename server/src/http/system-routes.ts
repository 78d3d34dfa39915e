import { z } from "zod";
import { defineEndpoint, RawResponse } from "./endpoint.js";
import { escapeHtml } from "./html.js";

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

export function errorPage(code: string, description?: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Authentication Error</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;background:#f6f7f9;color:#1f2933;margin:0;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border:1px solid #e4e7eb;border-radius:12px;padding:2rem 2.5rem;max-width:28rem;box-shadow:0 1px 3px rgba(0,0,0,.06)}
h1{font-size:1.25rem;margin:0 0 .75rem}code{background:#f0f2f5;padding:.15rem .4rem;border-radius:4px;word-break:break-all}
p{line-height:1.5}a{color:#2457c5}
</style>
</head>
<body>
<main>
<h1>Authentication Error</h1>
<p>Something went wrong while signing you in.</p>
<p>Error code: <code>${escapeHtml(code)}</code></p>
${description ? `<p>${escapeHtml(description)}</p>` : ""}
<p><a href="/">Back to the application</a></p>
</main>
</body>
</html>`;
}

export const error = defineEndpoint({
  method: "GET",
  path: "/error",
  auth: "none",
  query: z.looseObject({
    error: z.union([z.string(), z.array(z.string())]).optional(),
    error_description: z.union([z.string(), z.array(z.string())]).optional(),
  }),
  summary: "The HTML page that redirect errors land on",
  tags: ["System"],
  async handler(ctx) {
    const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
    const code = (first(ctx.query.error) ?? "UNKNOWN").slice(0, 200);
    const description = first(ctx.query.error_description)?.slice(0, 500);
    ctx.setHeader("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'");
    return new RawResponse(errorPage(code || "UNKNOWN", description), "text/html; charset=utf-8");
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
    };
  },
});

import { SignJWT, importJWK } from "jose";
import { z } from "zod";
import { requireBase } from "../http/public-base.js";
import { defineOidcEndpoint } from "./deps.js";
import { oidcService } from "./service.js";

/**
 * Better Auth's `jwt` plugin route (API-NOTES-PLUGINS.md section 6): GET /token gives the signed-in user a JWT an
 * API can verify with the JWKS (GET /jwks, served by the provider from the same keys). Unlike the plugin it does
 * not put the whole user row in the token (section 10, item 9): the subject, name, email, whether it is verified,
 * and the picture. Issuer and audience are the issuer (BASE_URL); 15 minutes; RS256, the current key.
 */
const TOKEN_LIFE = 900;

export const getSessionJwt = defineOidcEndpoint({
  method: "GET",
  path: "/token",
  auth: "sensitive",
  carriesToken: true,
  response: z.object({ token: z.string() }),
  summary: "A short-lived JWT for the signed-in user, verifiable with /jwks (Better Auth's jwt plugin)",
  tags: ["OpenID Provider"],
  async handler(ctx) {
    const issuer = requireBase(ctx.runtime);
    const service = oidcService(ctx.runtime);
    await service.ready();
    const keys = await service.keySet();
    const key = keys.current.get("RS256")!;
    const { user } = ctx.session!;
    const now = Math.floor(ctx.runtime.now().getTime() / 1000);
    const token = await new SignJWT({
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      image: user.image ?? null,
    })
      .setProtectedHeader({ alg: "RS256", kid: key.kid, typ: "JWT" })
      .setSubject(user.id)
      .setIssuer(issuer)
      .setAudience(issuer)
      .setIssuedAt(now)
      .setExpirationTime(now + TOKEN_LIFE)
      .sign(await importJWK(key.jwk, "RS256"));
    return { token };
  },
});

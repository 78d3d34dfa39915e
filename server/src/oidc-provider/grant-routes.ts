import { z } from "zod";
import { APIError } from "../http/errors.js";
import { statusSuccessSchema } from "./schemas.js";
import { defineOidcEndpoint } from "./deps.js";
import { emitOidcEvent } from "./events.js";
import { listGrants, revokeClientGrants } from "./grants.js";
import { OIDC_MESSAGES } from "./messages.js";
import { oidcGrantSchema } from "./public.js";
import { oidcService } from "./service.js";

/** The account page's "Connected applications": what each application may access, and revoking it. */
const TAGS = ["OpenID Provider"] as const;

export const listOidcGrants = defineOidcEndpoint({
  method: "GET",
  path: "/oauth2/list-grants",
  auth: "sensitive",
  response: z.object({ grants: z.array(oidcGrantSchema) }),
  summary: "The applications the signed-in user signed in to with this account, and what each may access",
  tags: TAGS,
  async handler(ctx) {
    return { grants: await listGrants(oidcService(ctx.runtime), ctx.session!.user.id) };
  },
});

export const revokeOidcGrant = defineOidcEndpoint({
  method: "POST",
  path: "/oauth2/revoke-grant",
  auth: "sensitive",
  body: z.object({ clientId: z.string().min(1).max(128) }),
  response: statusSuccessSchema,
  summary:
    "Disconnect an application: the user's grant to it goes, and every token issued under it (codes, access and refresh tokens) stops working at once",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const user = ctx.session!.user;
    const revoked = await runtime.stores.transaction((tx) => revokeClientGrants(tx, user.id, body.clientId, runtime.now()));
    if (revoked === 0) throw new APIError("NOT_FOUND", OIDC_MESSAGES.GRANT_NOT_FOUND);
    await emitOidcEvent(runtime.stores, ctx, "oidc_grant.revoked", { userId: user.id, data: { clientId: body.clientId, reason: "user" } });
    runtime.logger.info({ userId: user.id, clientId: body.clientId }, "OpenID grant revoked by the user");
    return { success: true };
  },
});

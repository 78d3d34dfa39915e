import { z } from "zod";
import { findTargetUser, requirePermission, userIdSchema } from "../admin/guard.js";
import { clientIdSchema } from "../config/oidc-provider-options.js";
import { APIError } from "../http/errors.js";
import {
  applyUpdate,
  changeableClient,
  createClient,
  createClientInput,
  deleteClient,
  listAllClients,
  rotateClientSecret,
  updateClientInput,
} from "./client-admin.js";
import { defineOidcEndpoint } from "./deps.js";
import { emitOidcEvent } from "./events.js";
import { listGrants, revokeClientGrants } from "./grants.js";
import { OIDC_MESSAGES } from "./messages.js";
import { oidcClientSchema, oidcGrantSchema, publicClient } from "./public.js";
import { statusSuccessSchema } from "./schemas.js";
import { oidcService } from "./service.js";

/**
 * The OpenID Provider's administration (README "OpenID Provider", "Clients"): clients registered, changed, given a
 * new secret and removed, and a user's grants listed and revoked. Behind the admin access control's `oidcClient`
 * and `oidcGrant` resources (admin/access.ts); the session is read from the database ("sensitive"). A client's
 * secret is answered once, when made; never its hash.
 */
const TAGS = ["OpenID Provider", "Admin"] as const;
const clientAnswer = z.object({ client: oidcClientSchema });
const clientWithSecret = z.object({
  client: oidcClientSchema,
  clientSecret: z.string().nullable().describe("Shown this once; null for a public client"),
});

export const adminListOidcClients = defineOidcEndpoint({
  method: "GET",
  path: "/admin/oauth2/list-clients",
  auth: "sensitive",
  response: z.object({ clients: z.array(oidcClientSchema) }),
  summary: "Every client of the OpenID Provider: the configuration file's, then those registered here",
  tags: TAGS,
  async handler(ctx) {
    requirePermission(ctx, { oidcClient: ["list"] }, OIDC_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_LIST_OIDC_CLIENTS);
    const service = oidcService(ctx.runtime);
    return { clients: (await listAllClients(ctx.runtime.stores, service.configClients)).map(publicClient) };
  },
});

export const adminGetOidcClient = defineOidcEndpoint({
  method: "GET",
  path: "/admin/oauth2/get-client",
  auth: "sensitive",
  query: z.object({ clientId: z.string().min(1).max(128) }),
  response: oidcClientSchema,
  summary: "One client of the OpenID Provider",
  tags: TAGS,
  async handler(ctx) {
    requirePermission(ctx, { oidcClient: ["get"] }, OIDC_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_GET_OIDC_CLIENTS);
    const client = await oidcService(ctx.runtime).findClient(ctx.query.clientId);
    if (!client) throw new APIError("NOT_FOUND", OIDC_MESSAGES.OIDC_CLIENT_NOT_FOUND);
    return publicClient(client);
  },
});

export const adminCreateOidcClient = defineOidcEndpoint({
  method: "POST",
  path: "/admin/oauth2/create-client",
  auth: "sensitive",
  carriesToken: true,
  body: createClientInput,
  response: clientWithSecret,
  summary: "Register a client (web: confidential, public: PKCE without a secret, machine: client credentials); its secret is answered once",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const admin = requirePermission(ctx, { oidcClient: ["create"] }, OIDC_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_CREATE_OIDC_CLIENTS);
    const service = oidcService(runtime);
    const { client, clientSecret } = await createClient(runtime.stores, service.configClients, body, runtime.now());
    await emitOidcEvent(runtime.stores, ctx, "oidc_client.created", { data: { clientId: client.clientId, name: client.name } });
    runtime.logger.info({ clientId: client.clientId, type: client.type, by: admin.user.id }, "OpenID client created");
    return { client: publicClient(client), clientSecret };
  },
});

export const adminUpdateOidcClient = defineOidcEndpoint({
  method: "POST",
  path: "/admin/oauth2/update-client",
  auth: "sensitive",
  body: updateClientInput,
  response: clientAnswer,
  summary: "Change a client's settings (not its type or id; a client of the configuration file changes there)",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const admin = requirePermission(ctx, { oidcClient: ["update"] }, OIDC_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_UPDATE_OIDC_CLIENTS);
    const service = oidcService(runtime);
    const current = await changeableClient(runtime.stores, service.configClients, body.clientId);
    const { client, fields } = applyUpdate(current, body, runtime.now());
    if (!(await runtime.stores.oidcClients.updateClient(client))) throw new APIError("NOT_FOUND", OIDC_MESSAGES.OIDC_CLIENT_NOT_FOUND);
    await emitOidcEvent(runtime.stores, ctx, "oidc_client.updated", { data: { clientId: client.clientId, fields } });
    runtime.logger.info({ clientId: client.clientId, fields, by: admin.user.id }, "OpenID client updated");
    return { client: publicClient(client) };
  },
});

export const adminRotateOidcClientSecret = defineOidcEndpoint({
  method: "POST",
  path: "/admin/oauth2/rotate-client-secret",
  auth: "sensitive",
  carriesToken: true,
  body: z.object({ clientId: clientIdSchema }),
  response: z.object({ client: oidcClientSchema, clientSecret: z.string().describe("Shown this once") }),
  summary: "Give a client a new secret (answered once); the old one stops working at once",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const admin = requirePermission(ctx, { oidcClient: ["update"] }, OIDC_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_UPDATE_OIDC_CLIENTS);
    const service = oidcService(runtime);
    const current = await changeableClient(runtime.stores, service.configClients, body.clientId);
    const { client, clientSecret } = await rotateClientSecret(runtime.stores, current, runtime.now());
    await emitOidcEvent(runtime.stores, ctx, "oidc_client.updated", { data: { clientId: client.clientId, fields: ["secret"] } });
    runtime.logger.info({ clientId: client.clientId, by: admin.user.id }, "OpenID client secret rotated");
    return { client: publicClient(client), clientSecret };
  },
});

export const adminDeleteOidcClient = defineOidcEndpoint({
  method: "POST",
  path: "/admin/oauth2/delete-client",
  auth: "sensitive",
  body: z.object({ clientId: clientIdSchema }),
  response: statusSuccessSchema,
  summary: "Remove a client, with every grant and token issued to it",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const admin = requirePermission(ctx, { oidcClient: ["delete"] }, OIDC_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_DELETE_OIDC_CLIENTS);
    const service = oidcService(runtime);
    await changeableClient(runtime.stores, service.configClients, body.clientId);
    const deleted = await runtime.stores.transaction((tx) => deleteClient(tx, body.clientId));
    if (!deleted) throw new APIError("NOT_FOUND", OIDC_MESSAGES.OIDC_CLIENT_NOT_FOUND);
    await emitOidcEvent(runtime.stores, ctx, "oidc_client.deleted", { data: { clientId: body.clientId } });
    runtime.logger.info({ clientId: body.clientId, by: admin.user.id }, "OpenID client deleted");
    return { success: true };
  },
});

export const adminListUserOidcGrants = defineOidcEndpoint({
  method: "GET",
  path: "/admin/oauth2/list-user-grants",
  auth: "sensitive",
  query: z.object({ userId: userIdSchema }),
  response: z.object({ grants: z.array(oidcGrantSchema) }),
  summary: "The applications a user granted, and what each may access",
  tags: TAGS,
  async handler(ctx) {
    requirePermission(ctx, { oidcGrant: ["list"] }, OIDC_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_OIDC_GRANTS);
    const user = await findTargetUser(ctx.runtime, ctx.query.userId);
    return { grants: await listGrants(oidcService(ctx.runtime), user.id) };
  },
});

export const adminRevokeUserOidcGrant = defineOidcEndpoint({
  method: "POST",
  path: "/admin/oauth2/revoke-user-grant",
  auth: "sensitive",
  body: z.object({ userId: userIdSchema, clientId: z.string().min(1).max(128) }),
  response: statusSuccessSchema,
  summary: "Revoke what a user granted an application: its grant and every token issued under it",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const admin = requirePermission(ctx, { oidcGrant: ["revoke"] }, OIDC_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_OIDC_GRANTS);
    const user = await findTargetUser(runtime, body.userId);
    const revoked = await runtime.stores.transaction((tx) => revokeClientGrants(tx, user.id, body.clientId, runtime.now()));
    if (revoked === 0) throw new APIError("NOT_FOUND", OIDC_MESSAGES.GRANT_NOT_FOUND);
    await emitOidcEvent(runtime.stores, ctx, "oidc_grant.revoked", { userId: user.id, data: { clientId: body.clientId, reason: "administrator" } });
    runtime.logger.info({ userId: user.id, clientId: body.clientId, by: admin.user.id }, "OpenID grant revoked by an administrator");
    return { success: true };
  },
});

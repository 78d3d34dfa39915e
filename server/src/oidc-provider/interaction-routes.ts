import { z } from "zod";
import { STANDARD_SCOPES } from "../config/oidc-provider-options.js";
import { redirectTo } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import type { SessionAndUser } from "../storage/sessions.js";
import { amrOf } from "./claims.js";
import { defineOidcEndpoint, type OidcContext } from "./deps.js";
import type { EngineInteraction, EngineProvider } from "./engine-types.js";
import { OIDC_MESSAGES } from "./messages.js";
import { redirectAnswerSchema } from "./public.js";
import { cookieOnlyRequest, grantRequested, oidcService, type OidcService } from "./service.js";
import { emitOidcEvent } from "./events.js";
import { GRANT_LIFE, renewGrant } from "./grants.js";
import type { OidcRepositories } from "./store/index.js";

/**
 * Where oidc-provider sends the browser when it needs the user (README "OpenID Provider", "Sign-in and consent"):
 * the navigation route finishes the login with the Gatehouse session (or sends the browser to the web app's sign-in
 * page and back), and grants first-party clients without a page; the web app's consent page reads and answers the
 * interaction with the two JSON routes.
 */
const TAGS = ["OpenID Provider"] as const;
const uidSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);

const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

/** The interaction named in the URL, only when this browser is the one that started it (its interaction cookie). */
async function boundInteraction(provider: EngineProvider, uid: string, cookieHeader: string | null): Promise<EngineInteraction | null> {
  const { req, res } = cookieOnlyRequest(cookieHeader);
  try {
    const interaction = await provider.interactionDetails(req, res);
    return interaction.uid === uid ? interaction : null;
  } catch {
    return null;
  }
}

/** Stores the interaction's outcome and answers where the browser goes on (the provider's resume URL). */
async function finish(interaction: EngineInteraction, result: Record<string, unknown>): Promise<string> {
  interaction.result = { ...(interaction.lastSubmission ?? {}), ...result };
  await interaction.save(Math.max(1, interaction.exp - epoch(new Date())));
  return interaction.returnTo;
}

/**
 * prompt=login: the session (or none) this route had when it sent the browser to sign in again, kept beside the
 * interaction until it expires, so that a sign-in made in the very second the application asked is told apart from
 * the session it replaces.
 */
const SEEN_MODEL = "GatehouseLoginSeen";
const seenKey = (uid: string) => `${SEEN_MODEL}:${uid}`;

async function rememberSeen(stores: OidcRepositories, interaction: EngineInteraction, sessionId: string | null): Promise<void> {
  await stores.oidcPayloads.upsertPayload({
    key: seenKey(interaction.uid),
    model: SEEN_MODEL,
    payload: { sessionId },
    grantId: null,
    uid: interaction.uid,
    accountId: null,
    clientId: String(interaction.params.client_id),
    expiresAt: new Date(interaction.exp * 1000),
    consumedAt: null,
  });
}

/** Whether this session may not sign the user in to the application now (a fresh sign-in is owed). */
async function freshSignInOwed(stores: OidcRepositories, interaction: EngineInteraction, current: SessionAndUser, now: Date): Promise<boolean> {
  const createdAt = current.session.createdAt.getTime();
  // prompt=login: a sign-in made after the application asked. iat is in whole seconds: a session of an earlier
  // second is older, one of a later second newer; one of that same second is new only when it is not the one this
  // route sent to sign in again (a sign-in within a second of the request, by a passkey or a quick hand, would
  // otherwise be asked for twice).
  if (interaction.prompt.reasons.includes("login_prompt")) {
    if (createdAt < interaction.iat * 1000) return true;
    if (createdAt < (interaction.iat + 1) * 1000) {
      const seen = await stores.oidcPayloads.findPayload(seenKey(interaction.uid), now);
      if (!seen || seen.payload.sessionId === current.session.id) return true;
    }
  }
  const maxAge = Number(interaction.params.max_age);
  if (interaction.params.max_age !== undefined && Number.isFinite(maxAge) && now.getTime() - createdAt > maxAge * 1000) return true;
  return false;
}

function errorPage(ctx: OidcContext, code: string) {
  return redirectTo(`${ctx.runtime.config.basePath}/error?error=${encodeURIComponent(code)}`);
}

/** The scopes the application asks for, and which of them this consent adds. */
function requestedScopes(interaction: EngineInteraction): { requested: string[]; missing: Set<string> } {
  const requested = String(interaction.params.scope ?? "")
    .split(" ")
    .filter(Boolean);
  const details = interaction.prompt.details as {
    missingOIDCScope?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  const missing = new Set<string>([...(details.missingOIDCScope ?? []), ...Object.values(details.missingResourceScopes ?? {}).flat()]);
  return { requested, missing };
}

/**
 * Grants what the application asks for (all of it, or what the user accepted) and finishes the consent. The grant
 * is the user's one grant to the client, kept across browsers.
 */
async function consent(
  service: OidcService,
  provider: EngineProvider,
  interaction: EngineInteraction,
  accepted: ReadonlySet<string> | undefined,
): Promise<{ url: string; grantId: string; scopes: string[] }> {
  const accountId = interaction.session!.accountId!;
  const clientId = String(interaction.params.client_id);
  const client = await service.findClient(clientId);
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  const grant = existing ?? new provider.Grant({ accountId, clientId });
  const { requested } = requestedScopes(interaction);
  const details = interaction.prompt.details as { missingResourceScopes?: Record<string, string[]>; missingOIDCClaims?: string[] };
  const standard = new Set<string>(STANDARD_SCOPES);
  grantRequested(
    grant,
    {
      requestParamOIDCScopes: new Set(requested.filter((s) => standard.has(s))),
      requestParamScopes: new Set(requested),
      requestParamClaims: new Set(details.missingOIDCClaims ?? []),
      resourceServers: Object.fromEntries(
        Object.entries(details.missingResourceScopes ?? {}).map(([resource, scopes]) => [resource, { scopes: new Set(scopes) }]),
      ),
    },
    client?.scopes ?? [],
    accepted,
  );
  // A year from this consent (a grant given before is renewed).
  if (existing) renewGrant(grant, service.runtime.now());
  const grantId = await grant.save(GRANT_LIFE);
  const url = await finish(interaction, { consent: { grantId } });
  const scopes = requested.filter((s) => (client?.scopes ?? []).includes(s) && (!accepted || accepted.has(s) || s === "openid"));
  return { url, grantId, scopes };
}

export const oidcInteraction = defineOidcEndpoint({
  method: "GET",
  path: "/oauth2/interaction/:uid",
  auth: "none",
  navigation: true,
  carriesToken: true,
  summary:
    "Where the OpenID Provider sends the browser when it needs the user: signs them in with the Gatehouse session (or sends them to the sign-in page and back), then to the consent page when one is owed",
  tags: TAGS,
  async handler(ctx) {
    const { runtime } = ctx;
    const uid = uidSchema.safeParse(ctx.params.uid);
    if (!uid.success) return errorPage(ctx, "interaction_expired");
    const service = oidcService(runtime);
    await service.ready();
    const provider = await service.provider();
    const interaction = await boundInteraction(provider, uid.data, ctx.headers.get("cookie"));
    if (!interaction) return errorPage(ctx, "interaction_expired");
    const current = await ctx.getSession({ disableCookieCache: true });
    const here = `${runtime.config.basePath}/oauth2/interaction/${interaction.uid}`;
    const signIn = (again: boolean) =>
      redirectTo(
        service.appURL(
          `${runtime.config.oidcProvider.loginPage}?returnTo=${encodeURIComponent(here)}${again ? "&prompt=login" : ""}`,
        ),
      );

    if (interaction.prompt.name === "login") {
      const loginPrompt = interaction.prompt.reasons.includes("login_prompt");
      if (!current) {
        if (loginPrompt) await rememberSeen(runtime.stores, interaction, null);
        return signIn(false);
      }
      // An administrator acting as the user does not sign the user in to other applications.
      if (current.session.impersonatedBy) {
        return redirectTo(
          await finish(interaction, {
            error: "access_denied",
            error_description: "an impersonation session cannot sign in to applications",
          }),
        );
      }
      if (await freshSignInOwed(runtime.stores, interaction, current, runtime.now())) {
        if (loginPrompt) await rememberSeen(runtime.stores, interaction, current.session.id);
        return signIn(true);
      }
      const login = {
        accountId: current.user.id,
        amr: amrOf(current.session.factors, current.session.loginMethod),
        ts: epoch(current.session.createdAt),
        remember: true,
      };
      return redirectTo(await finish(interaction, { login }));
    }

    if (interaction.prompt.name === "consent") {
      if (!current) return signIn(false);
      if (current.user.id !== interaction.session?.accountId) return errorPage(ctx, "login_required");
      const client = await service.findClient(String(interaction.params.client_id));
      if (!client) return errorPage(ctx, "invalid_client");
      if (client.skipConsent) {
        const { url, scopes } = await consent(service, provider, interaction, undefined);
        await emitOidcEvent(runtime.stores, ctx, "oidc_grant.given", { userId: current.user.id, data: { clientId: client.clientId, scopes } });
        runtime.logger.info({ userId: current.user.id, clientId: client.clientId, scopes }, "OpenID grant given (first-party)");
        return redirectTo(url);
      }
      return redirectTo(service.appURL(`${runtime.config.oidcProvider.consentPage}?uid=${encodeURIComponent(interaction.uid)}`));
    }
    return errorPage(ctx, "interaction_expired");
  },
});

/** A live interaction by its id, with the provider it belongs to; 404 when there is none. */
async function findInteraction(ctx: OidcContext, uid: string) {
  const service = oidcService(ctx.runtime);
  await service.ready();
  const provider = await service.provider();
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) throw new APIError("NOT_FOUND", OIDC_MESSAGES.INTERACTION_NOT_FOUND);
  return { service, provider, interaction };
}

/** The interaction a consent route acts on: awaiting consent, and the signed-in user's. */
async function consentInteraction(ctx: OidcContext, uid: string) {
  const { service, provider, interaction } = await findInteraction(ctx, uid);
  if (interaction.session?.accountId !== ctx.session!.user.id) {
    throw new APIError("FORBIDDEN", OIDC_MESSAGES.INTERACTION_BELONGS_TO_ANOTHER_USER);
  }
  if (interaction.prompt.name !== "consent" || interaction.result?.consent) {
    throw new APIError("BAD_REQUEST", OIDC_MESSAGES.INTERACTION_IS_NOT_AWAITING_CONSENT);
  }
  const client = await service.findClient(String(interaction.params.client_id));
  if (!client) throw new APIError("NOT_FOUND", OIDC_MESSAGES.INTERACTION_NOT_FOUND);
  return { service, provider, interaction, client };
}

/**
 * The application an authorization is for, by its interaction: the sign-in and second-step pages name it ("to continue
 * to …") while the browser is on its way there. Not bound to the browser's interaction cookie (this route is fetched
 * from the web app's pages, outside that cookie's path): it answers the application's name and logo, which are not
 * secret (anyone may start an authorization for it and be shown them), to whoever holds the interaction's random id,
 * and nothing else.
 */
export const getOidcInteractionClient = defineOidcEndpoint({
  method: "GET",
  path: "/oauth2/interaction-client",
  auth: "none",
  query: z.object({ uid: uidSchema }),
  response: z
    .object({ clientId: z.string(), name: z.string(), logoUri: z.string().nullable() })
    .meta({ id: "OidcInteractionClient", description: "The application an authorization waiting for the user is for" }),
  summary: "The application an authorization is for (its name and logo), for the sign-in and second-step pages on its way",
  tags: TAGS,
  async handler(ctx) {
    const { service, interaction } = await findInteraction(ctx, ctx.query.uid);
    const client = await service.findClient(String(interaction.params.client_id));
    if (!client) throw new APIError("NOT_FOUND", OIDC_MESSAGES.INTERACTION_NOT_FOUND);
    return { clientId: client.clientId, name: client.name, logoUri: client.logoUri };
  },
});

export const getOidcInteraction = defineOidcEndpoint({
  method: "GET",
  path: "/oauth2/get-interaction",
  auth: "sensitive",
  query: z.object({ uid: uidSchema }),
  response: z
    .object({
      uid: z.string(),
      prompt: z.literal("consent"),
      client: z.object({
        clientId: z.string(),
        name: z.string(),
        logoUri: z.string().nullable(),
        clientUri: z.string().nullable(),
        policyUri: z.string().nullable(),
        tosUri: z.string().nullable(),
        firstParty: z.boolean(),
      }),
      redirectOrigin: z.string().nullable().describe("Where the user goes back to: the origin of the redirect URI"),
      scopes: z.array(z.object({ scope: z.string(), granted: z.boolean().describe("Allowed before") })),
      newScopes: z.array(z.string()).describe("What this consent adds"),
      claims: z.array(z.string()).describe("Claims asked for by name (the claims parameter)"),
      user: z.object({ id: z.string(), name: z.string(), email: z.string(), image: z.string().nullable() }),
    })
    .meta({ id: "OidcInteraction", description: "An application's request waiting for the user's consent" }),
  summary: "The consent page's data: the application, what it asks for (and what was allowed before), the user",
  tags: TAGS,
  async handler(ctx) {
    const { interaction, client } = await consentInteraction(ctx, ctx.query.uid);
    const { requested, missing } = requestedScopes(interaction);
    const user = ctx.session!.user;
    let redirectOrigin: string | null = null;
    try {
      redirectOrigin = new URL(String(interaction.params.redirect_uri)).origin;
      if (redirectOrigin === "null") redirectOrigin = String(interaction.params.redirect_uri).split(":")[0] + ":";
    } catch {
      redirectOrigin = null;
    }
    const details = interaction.prompt.details as { missingOIDCClaims?: string[] };
    return {
      uid: interaction.uid,
      prompt: "consent" as const,
      client: {
        clientId: client.clientId,
        name: client.name,
        logoUri: client.logoUri,
        clientUri: client.clientUri,
        policyUri: client.policyUri,
        tosUri: client.tosUri,
        firstParty: client.skipConsent,
      },
      redirectOrigin,
      scopes: requested.filter((s) => client.scopes.includes(s)).map((scope) => ({ scope, granted: !missing.has(scope) })),
      newScopes: requested.filter((s) => missing.has(s)),
      claims: details.missingOIDCClaims ?? [],
      user: { id: user.id, name: user.name, email: user.email, image: user.image ?? null },
    };
  },
});

export const consentOidcInteraction = defineOidcEndpoint({
  method: "POST",
  path: "/oauth2/consent",
  auth: "sensitive",
  body: z.object({
    uid: uidSchema,
    /** true: allow; false: refuse (the application gets access_denied). */
    accept: z.boolean(),
    /** Allow only these of the scopes asked for (openid stays when asked for). Unset: all of them. */
    scopes: z.array(z.string().min(1).max(128)).max(100).optional(),
  }),
  response: redirectAnswerSchema,
  summary:
    "The user's answer on the consent page: allow (all or some of the scopes) or refuse; answers the URL the browser goes to next",
  tags: TAGS,
  async handler(ctx) {
    const { runtime, body } = ctx;
    const { service, provider, interaction, client } = await consentInteraction(ctx, body.uid);
    const user = ctx.session!.user;
    if (!body.accept) {
      const url = await finish(interaction, { error: "access_denied", error_description: "End-User refused the request" });
      runtime.logger.info({ userId: user.id, clientId: client.clientId }, "OpenID consent refused");
      return { redirect: true as const, url };
    }
    const accepted = body.scopes ? new Set(body.scopes) : undefined;
    const { url, scopes } = await consent(service, provider, interaction, accepted);
    await emitOidcEvent(runtime.stores, ctx, "oidc_grant.given", { userId: user.id, data: { clientId: client.clientId, scopes } });
    runtime.logger.info({ userId: user.id, clientId: client.clientId, scopes }, "OpenID grant given");
    return { redirect: true as const, url };
  },
});

import { CLIENT_GRANT_TYPES, CLIENT_TYPES, SIGNING_ALGS } from "../config/oidc-provider-options.js";
import { systemEventSource } from "../events/emit.js";
import { APIError } from "../http/errors.js";
import type { Runtime } from "../runtime.js";
import { changeableClient, createClient, createClientInput, deleteClient, listAllClients, rotateClientSecret } from "./client-admin.js";
import { emitOidcEvent } from "./events.js";
import { rotateSigningKeys } from "./keys.js";
import { oidcService } from "./service.js";
import type { OidcRepositories } from "./store/index.js";

/**
 * `gatehouse client create|list|rotate-secret|delete` and `gatehouse oidc rotate-keys` (README "OpenID Provider",
 * "CLI"): the same rules as the admin API (client-admin.ts). A secret is printed once, when made.
 */
export const CLIENT_USAGE = `client create --name NAME --type web|public|machine [--redirect-url URL]... [--post-logout-redirect-url URL]...
                 [--scope SCOPE]... [--grant authorization_code|refresh_token|client_credentials]...
                 [--skip-consent] [--access-token-format opaque|jwt] [--audience URI]... [--signing-alg RS256|ES256]
                 [--client-id ID] [--logo-uri URL] [--client-uri URL] [--policy-uri URL] [--tos-uri URL]
            register an OpenID client; prints its id and, for web and machine clients, its secret (once)
  client list
            every OpenID client: the configuration file's and those registered here
  client rotate-secret CLIENT_ID
            a new secret for the client (printed once); the old one stops working at once
  client delete CLIENT_ID
            remove the client with every grant and token issued to it
  oidc rotate-keys [--activate-in SECONDS] [--overlap SECONDS]
            new RS256 and ES256 signing keys, published at once and signing after --activate-in (default
            oidcProvider.keyActivationDelay) so that relying parties caching the JWKS know them first; the previous
            keys stay in the JWKS --overlap longer (default oidcProvider.keyRotationOverlap) so tokens they signed
            stay valid`;

/** A command's refusal, worded for the operator (exit code 1). */
export class OidcCommandError extends Error {
  override name = "OidcCommandError";
}

const REPEATABLE = new Set(["redirect-url", "post-logout-redirect-url", "scope", "grant", "audience"]);
const FLAGS = new Set(["skip-consent"]);
const VALUED = new Set([
  "name",
  "type",
  "access-token-format",
  "signing-alg",
  "client-id",
  "logo-uri",
  "client-uri",
  "policy-uri",
  "tos-uri",
  "overlap",
  "activate-in",
]);

function parseFlags(args: string[]): { values: Map<string, string>; lists: Map<string, string[]>; flags: Set<string>; rest: string[] } {
  const values = new Map<string, string>();
  const lists = new Map<string, string[]>();
  const flags = new Set<string>();
  const rest: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (!arg.startsWith("--")) {
      rest.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (FLAGS.has(name)) {
      flags.add(name);
      continue;
    }
    if (!REPEATABLE.has(name) && !VALUED.has(name)) throw new OidcCommandError(`unknown option --${name}`);
    const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new OidcCommandError(`--${name} needs a value`);
    if (REPEATABLE.has(name)) lists.set(name, [...(lists.get(name) ?? []), ...value.split(/[\s,]+/).filter(Boolean)]);
    else values.set(name, value);
  }
  return { values, lists, flags, rest };
}

function refusal(error: unknown): never {
  if (error instanceof APIError) {
    const issues = (error.extra?.issues as { path: string; message: string }[] | undefined) ?? [];
    const detail = issues.map((i) => `${i.path.replace(/^body\./, "")}: ${i.message}`).join("; ");
    throw new OidcCommandError(detail ? `${error.message}: ${detail}` : error.message);
  }
  throw error;
}

const systemSource = (runtime: Runtime) => systemEventSource(runtime);

/** Runs `gatehouse client ...`; prints with `say`. */
export async function runClientCommand(runtime: Runtime, args: string[], say: (line: string) => void): Promise<void> {
  const [action, ...rest] = args;
  const stores = runtime.stores as Runtime["stores"] & OidcRepositories;
  const service = oidcService(runtime);
  const now = runtime.now();
  if (action === "create") {
    const { values, lists, flags, rest: extra } = parseFlags(rest);
    if (extra.length) throw new OidcCommandError(`unexpected argument "${extra[0]}"`);
    const type = values.get("type");
    if (!type || !(CLIENT_TYPES as readonly string[]).includes(type)) throw new OidcCommandError(`--type must be ${CLIENT_TYPES.join(", ")}`);
    const grants = lists.get("grant");
    if (grants?.some((g) => !(CLIENT_GRANT_TYPES as readonly string[]).includes(g))) {
      throw new OidcCommandError(`--grant must be ${CLIENT_GRANT_TYPES.join(", ")}`);
    }
    const alg = values.get("signing-alg");
    if (alg && !(SIGNING_ALGS as readonly string[]).includes(alg)) throw new OidcCommandError(`--signing-alg must be ${SIGNING_ALGS.join(" or ")}`);
    const parsed = createClientInput.safeParse({
      name: values.get("name"),
      type,
      clientId: values.get("client-id"),
      redirectURLs: lists.get("redirect-url"),
      postLogoutRedirectURLs: lists.get("post-logout-redirect-url"),
      scopes: lists.get("scope"),
      grantTypes: grants,
      skipConsent: flags.has("skip-consent") || undefined,
      accessTokenFormat: values.get("access-token-format"),
      audience: lists.get("audience"),
      signingAlg: alg,
      logoUri: values.get("logo-uri"),
      clientUri: values.get("client-uri"),
      policyUri: values.get("policy-uri"),
      tosUri: values.get("tos-uri"),
    });
    if (!parsed.success) {
      throw new OidcCommandError(parsed.error.issues.map((i) => `${i.path.join(".") || "options"}: ${i.message}`).join("; "));
    }
    const { client, clientSecret } = await createClient(stores, service.configClients, parsed.data, now).catch(refusal);
    await emitOidcEvent(stores, systemSource(runtime), "oidc_client.created", { data: { clientId: client.clientId, name: client.name } });
    say(`created ${client.type} client "${client.name}"`);
    say(`client id: ${client.clientId}`);
    if (clientSecret) say(`client secret (shown this once, stored hashed): ${clientSecret}`);
    return;
  }
  if (action === "list") {
    const clients = await listAllClients(stores, service.configClients);
    if (!clients.length) say("no OpenID clients");
    for (const c of clients) {
      say(
        `${c.clientId}\t${c.type}\t${c.name}\t${c.source}${c.disabled ? "\tdisabled" : ""}\tscopes: ${c.scopes.join(" ")}\tredirects: ${c.redirectURLs.join(" ") || "-"}`,
      );
    }
    return;
  }
  if (action === "rotate-secret" || action === "delete") {
    const clientId = rest[0];
    if (!clientId || rest.length > 1) throw new OidcCommandError(`usage: gatehouse client ${action} CLIENT_ID`);
    const client = await changeableClient(stores, service.configClients, clientId).catch(refusal);
    if (action === "rotate-secret") {
      const { clientSecret } = await rotateClientSecret(stores, client, now).catch(refusal);
      await emitOidcEvent(stores, systemSource(runtime), "oidc_client.updated", { data: { clientId, fields: ["secret"] } });
      say(`new secret for ${clientId} (shown this once; the old one no longer works): ${clientSecret}`);
    } else {
      await stores.transaction((tx) => deleteClient(tx, clientId));
      await emitOidcEvent(stores, systemSource(runtime), "oidc_client.deleted", { data: { clientId } });
      say(`deleted client ${clientId} with its grants and tokens`);
    }
    return;
  }
  throw new OidcCommandError(`unknown client command "${action ?? ""}": create, list, rotate-secret or delete`);
}

/** Runs `gatehouse oidc ...`. */
export async function runOidcCommand(runtime: Runtime, args: string[], say: (line: string) => void): Promise<void> {
  const [action, ...rest] = args;
  if (action !== "rotate-keys") throw new OidcCommandError(`unknown oidc command "${action ?? ""}": rotate-keys`);
  const { values, rest: extra } = parseFlags(rest);
  if (extra.length) throw new OidcCommandError(`unexpected argument "${extra[0]}"`);
  const seconds = (name: string, fallback: number) => {
    const text = values.get(name);
    const value = text === undefined ? fallback : Number(text);
    if (!Number.isInteger(value) || value < 0 || value > 31_536_000) {
      throw new OidcCommandError(`--${name} must be a number of seconds between 0 and 31536000`);
    }
    return value;
  };
  const overlap = seconds("overlap", runtime.config.oidcProvider.keyRotationOverlap);
  const activateIn = seconds("activate-in", runtime.config.oidcProvider.keyActivationDelay);
  const stores = runtime.stores as Runtime["stores"] & OidcRepositories;
  const result = await stores.transaction((tx) =>
    rotateSigningKeys({ stores: tx, secret: runtime.config.secret, now: () => runtime.now() }, overlap, activateIn),
  );
  for (const key of result.added) say(`new ${key.alg} signing key ${key.kid}, published now, signing from ${result.signsFrom.toISOString()}`);
  say(
    `${result.retired} previous signing key(s) sign until ${result.signsFrom.toISOString()} and stay published until ${result.publishedUntil.toISOString()}; running instances pick the change up within a minute`,
  );
}

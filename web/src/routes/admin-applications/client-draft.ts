import type { AdminOauth2CreateClientBody, AdminOauth2UpdateClientBody, AuthError, OidcClient } from "@gatehouse/client";

/** The scopes the OpenID Provider gives a meaning to (README "OpenID Provider"); any other is an API's. */
export const USER_SCOPES = ["openid", "profile", "email", "offline_access", "organizations", "active_organization"] as const;
export type UserScope = (typeof USER_SCOPES)[number];

/** What a new web or public client may ask its users for unless the administrator changes it (as the service does). */
const DEFAULT_USER_SCOPES: readonly UserScope[] = ["openid", "profile", "email", "offline_access"];

export type ClientType = OidcClient["type"];
type Settings = Omit<AdminOauth2CreateClientBody, "type" | "clientId">;

/** The client form's values: lists as text (one item per line, API scopes separated by spaces). */
export interface ClientDraft {
  name: string;
  type: ClientType;
  /** Create only; empty: the service makes a random one. */
  clientId: string;
  redirectURLs: string;
  postLogoutRedirectURLs: string;
  userScopes: readonly UserScope[];
  apiScopes: string;
  refreshTokens: boolean;
  /** A web client may also get tokens as itself. */
  clientCredentials: boolean;
  skipConsent: boolean;
  accessTokenFormat: "opaque" | "jwt";
  audience: string;
  signingAlg: "RS256" | "ES256";
  logoUri: string;
  clientUri: string;
  policyUri: string;
  tosUri: string;
}

/** The lines of a list field that hold something, trimmed. */
export function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The API scopes of their field, separated by spaces (or commas). */
export const words = (text: string) => text.split(/[\s,]+/).filter(Boolean);
const isUserScope = (scope: string): scope is UserScope => (USER_SCOPES as readonly string[]).includes(scope);

/** A new client's form as it starts, for `type`: the service's defaults. */
export function newDraft(type: ClientType = "web"): ClientDraft {
  return {
    name: "",
    type,
    clientId: "",
    redirectURLs: "",
    postLogoutRedirectURLs: "",
    userScopes: type === "machine" ? [] : DEFAULT_USER_SCOPES,
    apiScopes: "",
    refreshTokens: type !== "machine",
    clientCredentials: false,
    skipConsent: false,
    accessTokenFormat: type === "machine" ? "jwt" : "opaque",
    audience: "",
    signingAlg: "RS256",
    logoUri: "",
    clientUri: "",
    policyUri: "",
    tosUri: "",
  };
}

/** The form of a new client after the type changed: what depends on the type starts again from its defaults. */
export function withType(draft: ClientDraft, type: ClientType): ClientDraft {
  const fresh = newDraft(type);
  return {
    ...draft,
    type,
    userScopes: fresh.userScopes,
    refreshTokens: fresh.refreshTokens,
    clientCredentials: false,
    skipConsent: type === "machine" ? false : draft.skipConsent,
    accessTokenFormat: fresh.accessTokenFormat,
  };
}

/** An existing client as the form edits it. */
export function draftOf(client: OidcClient): ClientDraft {
  return {
    name: client.name,
    type: client.type,
    clientId: client.clientId,
    redirectURLs: client.redirectURLs.join("\n"),
    postLogoutRedirectURLs: client.postLogoutRedirectURLs.join("\n"),
    userScopes: USER_SCOPES.filter((scope) => client.scopes.includes(scope)),
    apiScopes: client.scopes.filter((scope) => !isUserScope(scope)).join(" "),
    refreshTokens: client.grantTypes.includes("refresh_token"),
    clientCredentials: client.type === "web" && client.grantTypes.includes("client_credentials"),
    skipConsent: client.skipConsent,
    accessTokenFormat: client.accessTokenFormat,
    audience: client.audience.join("\n"),
    signingAlg: client.signingAlg,
    logoUri: client.logoUri ?? "",
    clientUri: client.clientUri ?? "",
    policyUri: client.policyUri ?? "",
    tosUri: client.tosUri ?? "",
  };
}

/** The scopes the form sends, in the order the service is given them (users' first, then the APIs'). */
export function scopesOf(draft: ClientDraft): string[] {
  const api = words(draft.apiScopes);
  if (draft.type === "machine") return api;
  // A user's scope typed among the API scopes counts as ticked.
  const users = USER_SCOPES.filter((scope) => draft.userScopes.includes(scope) || api.includes(scope));
  return [...users, ...api.filter((scope) => !isUserScope(scope))];
}

function grantsOf(draft: ClientDraft): NonNullable<Settings["grantTypes"]> {
  if (draft.type === "machine") return ["client_credentials"];
  return [
    "authorization_code",
    ...(draft.refreshTokens ? (["refresh_token"] as const) : []),
    ...(draft.type === "web" && draft.clientCredentials ? (["client_credentials"] as const) : []),
  ];
}

const urlOrNull = (text: string) => text.trim() || null;

/** Every setting of the form, as the create and update routes take them. A machine client has no user-facing settings. */
export function settingsOf(draft: ClientDraft): Required<Settings> {
  const users = draft.type !== "machine";
  return {
    name: draft.name.trim(),
    redirectURLs: users ? lines(draft.redirectURLs) : [],
    postLogoutRedirectURLs: users ? lines(draft.postLogoutRedirectURLs) : [],
    scopes: scopesOf(draft),
    grantTypes: grantsOf(draft),
    skipConsent: users && draft.skipConsent,
    accessTokenFormat: draft.accessTokenFormat,
    audience: lines(draft.audience),
    signingAlg: draft.signingAlg,
    logoUri: users ? urlOrNull(draft.logoUri) : null,
    clientUri: users ? urlOrNull(draft.clientUri) : null,
    policyUri: users ? urlOrNull(draft.policyUri) : null,
    tosUri: users ? urlOrNull(draft.tosUri) : null,
  };
}

/** The create route's body. */
export function createBody(draft: ClientDraft): AdminOauth2CreateClientBody {
  const clientId = draft.clientId.trim();
  return { ...settingsOf(draft), type: draft.type, ...(clientId ? { clientId } : {}) };
}

/** Only what the form changed, so the audit log's `fields` names those; null when nothing changed. */
export function updateBody(client: OidcClient, draft: ClientDraft): AdminOauth2UpdateClientBody | null {
  const before = settingsOf(draftOf(client));
  const after = settingsOf(draft);
  const changed: Partial<Settings> = {};
  for (const key of Object.keys(after) as (keyof Settings)[]) {
    if (JSON.stringify(after[key]) !== JSON.stringify(before[key])) (changed as Record<string, unknown>)[key] = after[key];
  }
  return Object.keys(changed).length > 0 ? { clientId: client.clientId, ...changed } : null;
}

/** The form's fields a refusal can be about (text fields; the rest of a refusal goes to the top of the form). */
export type DraftField =
  | "name"
  | "clientId"
  | "redirectURLs"
  | "postLogoutRedirectURLs"
  | "apiScopes"
  | "audience"
  | "logoUri"
  | "clientUri"
  | "policyUri"
  | "tosUri";

/**
 * What is wrong with one field, as the service said it in a VALIDATION_ERROR issue (`body.redirectURLs.1`): the
 * field, and the value at fault for a list (the second redirect URI sent). Issues about grants, or anything the
 * form does not show, give `field: null`.
 */
export interface DraftIssue {
  field: DraftField | null;
  /** For a list: the item the issue is about; undefined when the issue is about the whole list (none given). */
  value?: string | undefined;
  /** The issue's path below the body ("grantTypes"), to tell the caller what the form does not show. */
  path: string;
}

/** The issues of a refused create or update, each placed on the form's field. */
export function issuesOf(error: AuthError, draft: ClientDraft): DraftIssue[] {
  const sent = settingsOf(draft);
  const lists: Partial<Record<string, readonly string[]>> = {
    redirectURLs: sent.redirectURLs,
    postLogoutRedirectURLs: sent.postLogoutRedirectURLs,
    scopes: sent.scopes,
    audience: sent.audience,
  };
  return (error.issues ?? []).map((issue) => {
    const [name = "", index] = issue.path.replace(/^body\./, "").split(".");
    const list = lists[name];
    const value = list && index !== undefined ? list[Number(index)] : undefined;
    const field: DraftField | null =
      name === "scopes"
        ? "apiScopes"
        : ["name", "clientId", "redirectURLs", "postLogoutRedirectURLs", "audience", "logoUri", "clientUri", "policyUri", "tosUri"].includes(name)
          ? (name as DraftField)
          : null;
    return { field, value, path: name };
  });
}

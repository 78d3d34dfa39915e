import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * The part of oidc-provider 8 (which ships no types) this module uses. The library is loaded with a dynamic import
 * (engine.ts) the first time the provider is needed, so a service with the provider off never loads it.
 */

/** Koa's context, as far as the provider's helpers and our hooks touch it. */
export interface EngineContext {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  status: number;
  body: unknown;
  type: string;
  headers: Record<string, string | string[] | undefined>;
  get(name: string): string;
  set(name: string, value: string | string[]): void;
  append(name: string, value: string | string[]): void;
  redirect(url: string): void;
  accepts(...types: string[]): string | false;
  oidc: EngineOidcContext;
}

export interface EngineOidcContext {
  route: string;
  provider: EngineProvider;
  requestParamClaims?: Set<string>;
  params: Record<string, unknown> & { scope?: string; client_id?: string; prompt?: string; max_age?: number | string };
  client?: EngineClient;
  session?: { accountId?: string; uid?: string; past(age: number): boolean; loginTs?: number };
  grant?: EngineGrant;
  prompts: Set<string>;
  entities: Record<string, unknown> & {
    Client?: EngineClient;
    Grant?: EngineGrant;
    AuthorizationCode?: EngineToken;
    AccessToken?: EngineToken;
    RefreshToken?: EngineToken;
    ClientCredentials?: EngineToken;
    Account?: { accountId: string };
  };
  requestParamScopes: Set<string>;
  requestParamOIDCScopes: Set<string>;
  resourceServers: Record<string, unknown>;
  result?: Record<string, unknown>;
}

/** A client as oidc-provider builds it from the metadata the adapter or the configuration gives. */
export interface EngineClient {
  clientId: string;
  clientName?: string;
  applicationType?: string;
  clientAuthMethod: string;
  scope?: string;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  grantTypeAllowed(type: string): boolean;
  /** Our metadata, passed through extraClientMetadata. */
  [key: string]: unknown;
}

export interface EngineToken {
  jti: string;
  kind: string;
  accountId?: string;
  clientId?: string;
  grantId?: string;
  scope?: string;
  scopes: Set<string>;
  sessionUid?: string;
  resourceServer?: unknown;
  consumed?: number;
  exp?: number;
}

export interface EngineGrant {
  jti: string;
  accountId: string;
  clientId: string;
  openid?: { scope?: string; claims?: string[] };
  resources?: Record<string, string>;
  exp?: number;
  iat?: number;
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  addResourceScope(resource: string, scope: string): void;
  getOIDCScope(): string;
  getOIDCScopeEncountered(): string;
  save(ttl?: number): Promise<string>;
  destroy(): Promise<void>;
}

export interface EngineInteraction {
  uid: string;
  jti: string;
  iat: number;
  exp: number;
  returnTo: string;
  prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
  params: Record<string, unknown> & { client_id?: string; scope?: string; redirect_uri?: string; max_age?: number | string };
  session?: { accountId?: string; uid?: string; cookie?: string };
  grantId?: string;
  result?: Record<string, unknown>;
  lastSubmission?: Record<string, unknown>;
  save(ttl: number): Promise<string>;
  persist(): Promise<string>;
}

export interface EngineProvider {
  issuer: string;
  proxy: boolean;
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  use(middleware: (ctx: EngineContext, next: () => Promise<void>) => Promise<void>): void;
  on(event: string, listener: (...args: never[]) => void): this;
  emit(event: string, ...args: unknown[]): boolean;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<EngineInteraction>;
  Interaction: { find(uid: string): Promise<EngineInteraction | undefined> };
  Grant: (new (properties: { accountId: string; clientId: string }) => EngineGrant) & {
    find(id: string, opts?: { ignoreExpiration?: boolean }): Promise<EngineGrant | undefined>;
  };
  Client: { find(id: string): Promise<EngineClient | undefined>; prototype: Record<string, unknown> };
  Session: { findByUid(uid: string): Promise<{ accountId?: string; destroy(): Promise<void> } | undefined> };
}

export type OidcErrorClass = new (description?: string, detail?: string) => Error & { status: number; error: string };

export interface EngineCheck {
  reason: string;
}

export interface EnginePrompt {
  name: string;
  checks: { add(check: EngineCheck, index?: number): void; remove(reason: string): void; get(reason: string): EngineCheck };
}

export interface EnginePolicy extends Array<EnginePrompt> {
  get(name: string): EnginePrompt;
}

/** What `import("oidc-provider")` gives. */
export interface OidcEngine {
  default: new (issuer: string, configuration: Record<string, unknown>) => EngineProvider;
  errors: Record<string, OidcErrorClass> & {
    InvalidGrant: OidcErrorClass;
    InvalidScope: OidcErrorClass;
    InvalidTarget: OidcErrorClass;
    InvalidRequest: OidcErrorClass;
    InvalidClientMetadata: OidcErrorClass;
    InvalidRedirectUri: OidcErrorClass;
    AccessDenied: OidcErrorClass;
  };
  interactionPolicy: {
    base(): EnginePolicy;
    Check: new (
      reason: string,
      description: string,
      error: string,
      check: (ctx: EngineContext) => boolean | Promise<boolean>,
    ) => EngineCheck;
  };
}

let loading: Promise<OidcEngine> | null = null;

/** Loads oidc-provider once (ESM, untyped: the specifier is a variable so the compiler takes our types above). */
export function loadEngine(): Promise<OidcEngine> {
  const specifier = "oidc-provider";
  loading ??= import(specifier) as Promise<OidcEngine>;
  return loading;
}

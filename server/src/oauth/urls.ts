import type { EndpointContext } from "../http/endpoint.js";
import type { OAuthProvider } from "./provider.js";

/** The service's public origin: BASE_URL's when set, else the origin the request came to. */
export function serviceOrigin(ctx: EndpointContext): string {
  const { baseURL } = ctx.runtime.config;
  return baseURL ? new URL(baseURL).origin : ctx.url.origin;
}

/** The public API base: `{BASE_URL or request origin}{basePath}`. */
export function apiBase(ctx: EndpointContext): string {
  const { baseURL, basePath } = ctx.runtime.config;
  return (baseURL ?? ctx.url.origin).replace(/\/+$/, "") + basePath;
}

/** Where the provider sends the user back: `{apiBase}/callback/{id}` unless the provider's redirectURI says otherwise. */
export function redirectURIOf(ctx: EndpointContext, provider: OAuthProvider): string {
  return provider.settings.redirectURI ?? `${apiBase(ctx)}/callback/${provider.id}`;
}

/** The web app's error page at the service origin (it reads `?error=CODE`), used when the flow named none. */
export function defaultErrorURL(ctx: EndpointContext): string {
  return `${serviceOrigin(ctx)}/error`;
}

export function withQuery(url: string, params: Record<string, string | undefined>): string {
  const defined = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (!defined.length) return url;
  const hashAt = url.indexOf("#");
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? "" : url.slice(hashAt);
  return base + (base.includes("?") ? "&" : "?") + new URLSearchParams(defined).toString() + hash;
}

/** The scopes a flow asks for: the provider's defaults (unless turned off), the configured ones, the caller's. */
export function scopesFor(provider: OAuthProvider, requested: readonly string[] = []): string[] {
  const base = provider.settings.disableDefaultScope ? [] : provider.defaultScopes;
  return [...new Set([...base, ...provider.settings.scopes, ...requested])];
}

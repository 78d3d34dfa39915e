import type { EndpointContext } from "../http/endpoint.js";
import { requireBase } from "../http/public-base.js";
import type { OAuthProvider } from "./provider.js";

/**
 * The public API base: `{BASE_URL, else the base fixed at listen time}{basePath}` (http/public-base.ts). Never the
 * request's Host: a redirect_uri on the attacker's host would send the provider's code there.
 */
export function apiBase(ctx: EndpointContext): string {
  return requireBase(ctx.runtime) + ctx.runtime.config.basePath;
}

/** Where the provider sends the user back: `{apiBase}/callback/{id}` unless the provider's redirectURI says otherwise. */
export function redirectURIOf(ctx: EndpointContext, provider: OAuthProvider): string {
  return provider.settings.redirectURI ?? `${apiBase(ctx)}/callback/${provider.id}`;
}

/**
 * The web app's error page at the service origin (it reads `?error=CODE`), used when the flow named none; a path
 * on the same site when no base is known.
 */
export function defaultErrorURL(ctx: EndpointContext): string {
  const base = ctx.runtime.base.url();
  return base ? `${new URL(base).origin}/error` : "/error";
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

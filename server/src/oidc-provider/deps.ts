import { defineEndpointFor, type EndpointContext } from "../http/endpoint.js";
import type { Runtime } from "../runtime.js";
import type { OidcRepositories } from "./store/index.js";

/**
 * The OpenID Provider's routes see the whole Runtime: the provider they drive (service.ts) reads sessions, users
 * and organizations through core's parts, and is built from the runtime (one per Gatehouse instance). Its stores
 * are typed with the module's repositories.
 */
export type OidcDeps = Omit<Runtime, "stores"> & { stores: Runtime["stores"] & OidcRepositories };

export type OidcContext<B = unknown, Q = unknown> = EndpointContext<B, Q, OidcDeps>;

export const defineOidcEndpoint = defineEndpointFor<OidcDeps>();

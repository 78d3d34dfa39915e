import type { Config } from "../config/index.js";
import { defineEndpointFor, type EndpointContext } from "../http/endpoint.js";
import type { OriginMatcher } from "../http/origin.js";
import type { PublicBase } from "../http/public-base.js";
import type { Logger } from "../logger.js";
import type { CoreRepositories, Transactional } from "../storage/index.js";
import type { PasskeyRepositories } from "./store/index.js";

/** The stores passkey code reads and writes: its own, core's users, and the verification table (challenges). */
export type PasskeyStores = Transactional<Pick<CoreRepositories, "users" | "verifications"> & PasskeyRepositories>;

/**
 * What the passkey module's routes use, instead of the whole Runtime: its stores, the origins the service trusts
 * (the default expected origins of a ceremony), the base its relying party id defaults to. Sign-in with a passkey
 * and deleting one with the password are the exceptions: they go through core's one sign-in function and password
 * check, which take the whole Runtime, so those two routes are declared with defineEndpoint.
 */
export interface PasskeyDeps {
  config: Config;
  stores: PasskeyStores;
  origins: OriginMatcher;
  base: PublicBase;
  logger: Logger;
  now(): Date;
}

/** A request to a passkey route. */
export type PasskeyContext<B = unknown, Q = unknown> = EndpointContext<B, Q, PasskeyDeps>;

/** defineEndpoint for passkey routes: their handlers see PasskeyDeps as ctx.runtime. */
export const definePasskeyEndpoint = defineEndpointFor<PasskeyDeps>();

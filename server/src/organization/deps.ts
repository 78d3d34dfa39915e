import type { Config } from "../config/index.js";
import type { Mailer } from "../email/mailer.js";
import type { AnyModule } from "../gatehouse-module.js";
import { defineEndpointFor, type EndpointContext } from "../http/endpoint.js";
import type { PublicBase } from "../http/public-base.js";
import type { Logger } from "../logger.js";
import type { SessionService } from "../session/session-service.js";
import type { CoreRepositories, Transactional } from "../storage/index.js";
import type { OrganizationRepositories } from "./store/index.js";

/** The stores organization code reads and writes: its own, and the users and sessions of core. */
export type OrganizationStores = Transactional<Pick<CoreRepositories, "users" | "sessions"> & OrganizationRepositories>;

/**
 * What the organization module's routes and helpers use, instead of the whole Runtime (which has all of it): its
 * stores, the sessions it re-issues after an active organization changes, the mailer for invitations, and the base
 * its links are built on. No password hasher, no social sign-in, no raw database.
 */
export interface OrganizationDeps {
  config: Config;
  stores: OrganizationStores;
  sessions: SessionService;
  mailer: Mailer;
  logger: Logger;
  base: PublicBase;
  /** The installed modules: the second-factor policy holds only while the two-factor module is installed and on. */
  modules: readonly AnyModule[];
  now(): Date;
}

/** A request to an organization route. */
export type OrganizationContext<B = unknown, Q = unknown> = EndpointContext<B, Q, OrganizationDeps>;

/** defineEndpoint for organization routes: their handlers see OrganizationDeps as ctx.runtime. */
export const defineOrganizationEndpoint = defineEndpointFor<OrganizationDeps>();

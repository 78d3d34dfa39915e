import type { Config } from "../config/index.js";
import type { PasswordHasher } from "../credentials/password.js";
import type { Mailer } from "../email/mailer.js";
import type { AnyModule } from "../gatehouse-module.js";
import { defineEndpointFor, type EndpointContext } from "../http/endpoint.js";
import type { PublicBase } from "../http/public-base.js";
import type { Logger } from "../logger.js";
import type { OrganizationRepositories } from "../organization/store/index.js";
import type { PasskeyRepositories } from "../passkey/store/index.js";
import type { SessionService } from "../session/session-service.js";
import type { CoreRepositories, Transactional } from "../storage/index.js";
import type { TwoFactorRepositories } from "../two-factor/store/index.js";
import type { AdminRepositories } from "./store/index.js";

/**
 * The stores administrator routes use: core's (they manage users, passwords and sessions), their own user directory,
 * the organization module's, read for the administrators' organization list, and the two-factor and passkey
 * modules' for a user's factors (factor-routes.ts): absent when those modules are not installed.
 */
export type AdminStores = Transactional<
  CoreRepositories &
    AdminRepositories &
    Pick<OrganizationRepositories, "organizations" | "members" | "organizationDirectory"> &
    Partial<TwoFactorRepositories & PasskeyRepositories>
>;

/**
 * What the admin module's routes and helpers use, instead of the whole Runtime: administrators create, change and
 * remove users through core's operations (passwords, notices, user removal with the modules' hooks), so they need
 * their parts; no social sign-in, no origin matcher, no secondary storage, no raw database. Impersonation is the
 * exception: it opens sessions through core's one sign-in function (session/sign-in.ts), which takes the whole
 * Runtime, so its two routes are declared with defineEndpoint.
 */
export interface AdminDeps {
  config: Config;
  stores: AdminStores;
  sessions: SessionService;
  hasher: PasswordHasher;
  mailer: Mailer;
  base: PublicBase;
  logger: Logger;
  /** The installed modules, whose hooks run when a user is removed (user/remove-user.ts). */
  modules: readonly AnyModule[];
  now(): Date;
}

/** A request to an administrator route. */
export type AdminContext<B = unknown, Q = unknown> = EndpointContext<B, Q, AdminDeps>;

/** defineEndpoint for administrator routes: their handlers see AdminDeps as ctx.runtime. */
export const defineAdminEndpoint = defineEndpointFor<AdminDeps>();

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Kysely } from "kysely";
import type { Config } from "./config/index.js";
import type { z } from "zod";
import type { Endpoint, EndpointContext } from "./http/endpoint.js";
import type { Dialect } from "./storage/database.js";
import type { SchemaSpec, TableAdditions } from "./storage/expected-schema.js";
import type { CoreRepositories, Transactional } from "./storage/index.js";
import type { MigrationModule } from "./storage/migrator.js";
import type { Runtime } from "./runtime.js";

/**
 * A module's route: its handler may see only the dependencies its domain names (defineEndpointFor), which the
 * Runtime has once the module's stores are composed into it (a module outside modules.ts's Stores type, such as a
 * test's, adds them only at run time: hence `any` here).
 */
export type ModuleEndpoint = Endpoint<z.ZodType, z.ZodType, unknown, any>;

/**
 * A part of the service in one folder: its routes, migrations, tables, store and error catalogue (README.md,
 * "Modules"). Core (users, sessions, accounts, verification, credentials, social sign-in) is not a module; the
 * organization and admin features are, and so is every later feature. createGatehouse composes core with the
 * installed modules (MODULES, or the list given to it).
 *
 * A module's tables exist whether or not the configuration turns the module on: its migrations run with every
 * installed module's (Kysely refuses a database that applied a migration it is no longer given, and a module
 * turned off and on again finds its data). `enabled` decides whether its routes answer.
 */
export interface GatehouseModule<
  Repositories extends object = object,
  Endpoints extends Record<string, ModuleEndpoint> = Record<string, ModuleEndpoint>,
> {
  /** A short name, for errors and logs. */
  name: string;
  /** Whether the configuration turns the module's routes on. */
  enabled(config: Config): boolean;
  /** Its routes, by the name the server-side API calls them (routes.ts puts them in ENDPOINTS). */
  endpoints: Endpoints;
  /** Its versioned migrations, by name: one sequence with core's and the other modules' (storage/migrator.ts). */
  migrations: Record<string, MigrationModule>;
  /** Its tables' part of the expected schema (storage/expected-schema.ts), checked by the reconcile step. */
  tables: SchemaSpec;
  /** Columns and indexes it adds to tables of core or of another module (as Better Auth's plugins do). */
  tableAdditions?: TableAdditions;
  /** Its repositories over a connection or a transaction; they join core's in `runtime.stores`. */
  repositories(db: Kysely<any>, dialect: Dialect): Repositories;
  /** Its error catalogue (http/error-catalogue.ts lists every catalogue for the client's ErrorCode union). */
  errors: Readonly<Record<string, string>>;
  /**
   * Runs inside the transaction that removes a user (user/remove-user.ts), before the user's rows go: what the
   * module keeps for the user is cleaned up or handed over. Answers fields for the removal's log line.
   */
  beforeUserRemoved?(
    stores: Transactional<CoreRepositories & Repositories>,
    userId: string,
    config: Config,
  ): Promise<Record<string, unknown>>;
  /**
   * Runs, inside the transaction that makes the change, when what proves a user's identity changes
   * (user/credentials-reset.ts): the module revokes what that change must end. Reasons:
   * - "password-changed": change, reset or set of the password (trusted devices end);
   * - "sessions-revoked": "sign out everywhere" (trusted devices end);
   * - "mailbox-proven": the owner of an address proved it on an unverified account (magic link, email code): what
   *   the account's previous holder set up goes with their password (second factors, passkeys, trusted devices).
   */
  onCredentialsReset?(
    stores: Transactional<CoreRepositories & Repositories>,
    userId: string,
    reason: CredentialsResetReason,
    config: Config,
  ): Promise<void>;
  /**
   * Runs when a browser signs out (POST /sign-out), whether or not it still held a session, after the session's
   * cookies are cleared: the module drops what that browser holds of its own (a pending sign-in's cookie and its
   * row), so that nothing begun before the sign-out can be finished after it.
   */
  onSignOut?(ctx: EndpointContext): Promise<void>;
  /**
   * Paths the module answers outside the router (ModuleMount), made once by createGatehouse when the configuration
   * turns the module on.
   */
  mount?(runtime: Runtime): ModuleMount;
  /**
   * Background work the module runs while the service does (a timer, a dispatcher): called once by createGatehouse
   * for every installed module, whatever `enabled` says (the work checks the configuration itself); what it answers
   * is stopped by `gatehouse.close()`. Timers it starts should be unref'd.
   */
  start?(runtime: Runtime): { stop(): void | Promise<void> } | void;
  /**
   * The lowest security-event `seq` the module still needs (an outbox reader's oldest undelivered event), or null
   * when it needs none: the audit log's retention prune (events/prune.ts) never deletes that event or a later one.
   */
  retainEventsFrom?(stores: Transactional<CoreRepositories & Repositories>, config: Config): Promise<number | null>;
}

/**
 * Requests a module answers itself, before the router sees them (GatehouseModule.mount): the OpenID Provider's
 * endpoints, which are oidc-provider's Node request handler.
 */
export interface ModuleMount {
  /** Whether the path (without the query) is the module's. */
  owns(pathname: string): boolean;
  /** Answers on node:http (the bundled server). */
  node(req: IncomingMessage, res: ServerResponse, remoteAddress: string | undefined): void;
  /** Answers a web-standard request (the library's handler). */
  fetch(request: Request, remoteAddress?: string): Promise<Response>;
  /** Stops what it runs in the background (called by `gatehouse.close()`). */
  close?(): void;
}

export type CredentialsResetReason = "password-changed" | "sessions-revoked" | "mailbox-proven";

export type AnyModule = GatehouseModule<any, Record<string, ModuleEndpoint>>;

/** Declares a module, keeping its routes' exact types (ENDPOINTS and the server-side API are typed from them). */
export function defineModule<Repositories extends object, Endpoints extends Record<string, ModuleEndpoint>>(
  module: GatehouseModule<Repositories, Endpoints>,
): GatehouseModule<Repositories, Endpoints> {
  return module;
}

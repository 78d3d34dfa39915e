import type { Kysely } from "kysely";
import type { Config } from "./config/index.js";
import type { AnyModule } from "./gatehouse-module.js";
import { adminModule } from "./admin/module.js";
import type { AdminRepositories } from "./admin/store/index.js";
import type { AnyEndpoint } from "./http/endpoint.js";
import { newDeviceModule } from "./new-device/module.js";
import type { NewDeviceRepositories } from "./new-device/store/index.js";
import { eventsModule } from "./events/module.js";
import type { EventRepositories } from "./events/store/index.js";
import { oidcProviderModule } from "./oidc-provider/module.js";
import type { OidcRepositories } from "./oidc-provider/store/index.js";
import { organizationModule } from "./organization/module.js";
import type { OrganizationRepositories } from "./organization/store/index.js";
import { emailOtpModule, magicLinkModule } from "./passwordless/module.js";
import type { PasswordlessRepositories } from "./passwordless/store/index.js";
import { passkeyModule } from "./passkey/module.js";
import type { PasskeyRepositories } from "./passkey/store/index.js";
import type { Dialect } from "./storage/database.js";
import {
  composeDatabaseShape,
  createRepositories,
  migrateToLatest,
  transactional,
  type CoreRepositories,
  type DatabaseHandle,
  type DatabaseShape,
  type Transactional,
} from "./storage/index.js";
import type { Database } from "./storage/schema.js";
import type { SessionStoreOptions } from "./storage/sessions.js";
import { twoFactorModule } from "./two-factor/module.js";
import type { TwoFactorRepositories } from "./two-factor/store/index.js";
import { webhooksModule } from "./webhooks/module.js";
import type { WebhookRepositories } from "./webhooks/store/index.js";

export type { AnyModule, GatehouseModule } from "./gatehouse-module.js";

/** The installed modules: their tables are part of every database, their routes answer when enabled. */
export const MODULES: readonly AnyModule[] = [organizationModule, adminModule, passkeyModule, magicLinkModule, emailOtpModule, twoFactorModule, eventsModule, newDeviceModule, oidcProviderModule, webhooksModule];

/** The runtime's stores: core's repositories and every installed module's, with transaction(fn). */
export type Stores = Transactional<
  CoreRepositories & OrganizationRepositories & AdminRepositories & PasskeyRepositories & PasswordlessRepositories & TwoFactorRepositories & EventRepositories & NewDeviceRepositories & OidcRepositories & WebhookRepositories
>;

export interface StoreOptions extends SessionStoreOptions {
  dialect: Dialect;
  modules?: readonly AnyModule[] | undefined;
}

/** Core's and the modules' repositories over the database, with transaction(fn) (storage/index.ts). */
export function createStores(db: Kysely<Database>, opts: StoreOptions): Stores {
  const { dialect, modules = MODULES, ...sessionOptions } = opts;
  const build = (conn: Kysely<Database>) => {
    // Prepared statements and coalesced reads run on the pool: never inside a transaction.
    const stores: Record<string, unknown> = createRepositories(conn, dialect, conn.isTransaction ? {} : sessionOptions);
    for (const module of modules) {
      for (const [name, repository] of Object.entries(module.repositories(conn, dialect))) {
        if (name in stores) throw new Error(`module ${module.name}: a store named "${name}" exists already`);
        stores[name] = repository;
      }
    }
    return stores;
  };
  return transactional(db, build) as unknown as Stores;
}

/** The database core and the modules need: every migration, and the expected schema the reconcile step checks. */
export function databaseShape(modules: readonly AnyModule[] = MODULES): DatabaseShape {
  return composeDatabaseShape(modules);
}

/** Brings the database to the shape of core and the modules (storage/migrator.ts); answers what was done. */
export function migrateDatabase(database: DatabaseHandle, modules: readonly AnyModule[] = MODULES): Promise<string[]> {
  return migrateToLatest(database.db as never, database.dialect, database.schema, databaseShape(modules));
}

/**
 * The routes that answer: core's, and those of the modules the configuration turns on (a module's routes are
 * in ENDPOINTS either way, for the server-side API's types).
 */
export function activeEndpoints(
  all: Record<string, AnyEndpoint>,
  modules: readonly AnyModule[],
  config: Config,
): Record<string, AnyEndpoint> {
  const active: Record<string, AnyEndpoint> = { ...all };
  for (const module of modules) for (const name of Object.keys(module.endpoints)) delete active[name];
  for (const module of modules) {
    if (!module.enabled(config)) continue;
    for (const [name, endpoint] of Object.entries(module.endpoints)) {
      if (name in active) throw new Error(`module ${module.name}: a route named "${name}" exists already`);
      active[name] = endpoint as AnyEndpoint;
    }
  }
  return active;
}

import type { Config } from "./config/index.js";
import type { AnyModule } from "./gatehouse-module.js";
import type { PasswordHasher } from "./credentials/password.js";
import type { Mailer } from "./email/mailer.js";
import type { OriginMatcher } from "./http/origin.js";
import type { PublicBase } from "./http/public-base.js";
import type { Logger } from "./logger.js";
import type { Metrics } from "./metrics/metrics.js";
import type { OAuthRuntime } from "./social/registry.js";
import type { SessionService } from "./session/session-service.js";
import type { Stores } from "./modules.js";
import type { SecondaryStorage } from "./storage/secondary/types.js";

/**
 * What every handler receives: the settled configuration and the service's parts, built once at start. The database
 * is reached through the stores only (a transaction is `stores.transaction(fn)`); the raw handle stays with the
 * Gatehouse object, for the CLI and tests.
 */
export interface Runtime {
  config: Config;
  stores: Stores;
  storage: SecondaryStorage;
  hasher: PasswordHasher;
  logger: Logger;
  origins: OriginMatcher;
  /** The public URL links and OAuth redirects are built on: BASE_URL, else fixed at listen time (public-base.ts). */
  base: PublicBase;
  sessions: SessionService;
  mailer: Mailer;
  /** Social sign-in: the configured providers and the token vault. */
  oauth: OAuthRuntime;
  /** Prometheus metrics (metrics/metrics.ts); NO_METRICS, which records nothing, unless `metrics.enabled`. */
  metrics: Metrics;
  /** The installed modules (modules.ts), for the hooks core runs on their behalf (user removal). */
  modules: readonly AnyModule[];
  now(): Date;
}

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Config } from "../config/index.js";
import type { PasswordHasher, PasswordHashObserver } from "../credentials/password.js";
import type { DatabaseHandle } from "../storage/database.js";
import { VERSION } from "../version.js";
import { RouteHistogram, type RouteRecorder } from "./route-histogram.js";

/**
 * Prometheus metrics (`metrics.enabled`; README "Metrics" lists every metric and its labels). Each Gatehouse has a
 * registry of its own, never prom-client's global one: an application may run several instances in one process
 * (the tests do) or use that global registry for its own metrics. What belongs to the process rather than to an
 * instance (CPU, memory, the event loop's lag, garbage collection: prom-client's default metrics) is collected once
 * per process, in a registry of its own too, and printed before the instance's.
 *
 * With metrics off, `runtime.metrics` is NO_METRICS: every call records nothing, and the hot paths (the router,
 * the session fast path, the password hasher) do not even read the clock.
 */

/** How a sign-in ended: a session opened, a refusal, or a second factor owed (no session yet). */
export type SignInResult = "success" | "failure" | "second_step";

/**
 * Which limit refused a request: the per-client limit of every route (rate-limit.ts), the account's wrong-password
 * wait or its mail allowance (account-limits.ts), or the second step's account lockout (two-factor/second-step.ts).
 */
export type RateLimitKind = "client" | "account_password" | "account_mail" | "two_factor_lockout";

/**
 * One webhook delivery attempt, as the webhooks' dispatcher reports it (each attempt is exactly one report):
 * - `delivered`: the receiver answered 2xx;
 * - `failed`: an error, a timeout or another status; it will be tried again per `webhooks.retrySchedule`;
 * - `gave_up`: failed, and the retry schedule is spent: no further try;
 * - `refused`: not sent, the target resolved to a private, loopback or link-local address.
 */
export type WebhookDeliveryResult = "delivered" | "failed" | "gave_up" | "refused";

export interface Metrics {
  readonly enabled: boolean;
  /**
   * The request-duration recorder of one route: its declared path (`/reset-password/:token`), never a request's
   * path, so no id or token becomes a label. Take it once, when the routes are built.
   */
  httpRoute(route: string, method: string): RouteRecorder;
  /**
   * A sign-in by `method` (session/sign-in.ts's SignInMethod: "email", "passkey", a provider's id, …) ended so;
   * a failure says why (`reason`: sign_in.failed's reason, events/types.ts).
   */
  signIn(method: string, result: SignInResult, reason?: string): void;
  /** A request answered 429 by `limit`. */
  rateLimitRefused(limit: RateLimitKind): void;
  /** Handed to the password hasher: it reports each hash's wait for a worker and its whole time. */
  readonly passwordHashObserver: PasswordHashObserver | undefined;
  /** Reads the hasher's queue (jobs waiting, jobs in the workers) at each scrape. */
  watchPasswordHasher(hasher: PasswordHasher): void;
  /** Reads the database pool (PostgreSQL: open, idle, waiting) at each scrape; SQLite has none to read. */
  watchDatabase(database: DatabaseHandle): void;
  /**
   * For the webhooks' dispatcher (issue #17 item 3): call once per delivery attempt with its result and, when it
   * was sent, how long the receiver took to answer (seconds). Counts `gatehouse_webhook_deliveries_total{result}`
   * and observes `gatehouse_webhook_delivery_duration_seconds{result}`.
   */
  recordWebhookDelivery(result: WebhookDeliveryResult, seconds?: number): void;
  /**
   * For the webhooks' dispatcher: the age in seconds of the oldest event it has still to deliver (0 when it is
   * caught up); set after each pass over the outbox. `gatehouse_webhook_outbox_lag_seconds`.
   */
  setWebhookOutboxLag(seconds: number): void;
  /** The Content-Type of `render()`'s text. */
  readonly contentType: string;
  /** The Prometheus text format: the process's metrics, then this instance's. */
  render(): Promise<string>;
}

const NO_RECORDER: RouteRecorder = { observe() {} };

/** Metrics off: nothing is kept, every call returns at once. */
export const NO_METRICS: Metrics = {
  enabled: false,
  httpRoute: () => NO_RECORDER,
  signIn() {},
  rateLimitRefused() {},
  passwordHashObserver: undefined,
  watchPasswordHasher() {},
  watchDatabase() {},
  recordWebhookDelivery() {},
  setWebhookOutboxLag() {},
  contentType: Registry.PROMETHEUS_CONTENT_TYPE,
  render: async () => "",
};

let processRegistry: Registry | undefined;

/**
 * prom-client's default metrics (process CPU and memory, heap, garbage collection, open handles, and the event
 * loop's lag: `nodejs_eventloop_lag_seconds` and the `nodejs_eventloop_lag_p50/p90/p99_seconds` percentiles of
 * monitorEventLoopDelay since the previous scrape), in one registry for the whole process, made with the first
 * instance that turns metrics on.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

const HASH_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const WEBHOOK_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createMetrics(config: Pick<Config, "metrics">): Metrics {
  if (!config.metrics.enabled) return NO_METRICS;
  const registry = new Registry();
  const registers = [registry];

  new Gauge({ name: "gatehouse_build_info", help: "Always 1; the running version in its label", labelNames: ["version"], registers }).set(
    { version: VERSION },
    1,
  );
  const http = new RouteHistogram(
    "gatehouse_http_request_duration_seconds",
    "HTTP requests by route (the declared path), method and status: how long each took to answer, in seconds",
    registry,
  );
  const signIns = new Counter({
    name: "gatehouse_sign_ins_total",
    help: "Sign-ins by method and result (success: a session opened; failure: refused, with its reason; second_step: a second factor is owed)",
    labelNames: ["method", "result", "reason"],
    registers,
  });
  const refusals = new Counter({
    name: "gatehouse_rate_limit_refusals_total",
    help: "Requests answered 429 by a rate limit, by the limit that refused them",
    labelNames: ["limit"],
    registers,
  });
  const hashTime = new Histogram({
    name: "gatehouse_password_hash_duration_seconds",
    help: "Password hashes (hash: a new password; verify: a check) from the request to the answer, queue included, in seconds",
    labelNames: ["operation"],
    buckets: HASH_BUCKETS,
    registers,
  });
  const hashWait = new Histogram({
    name: "gatehouse_password_hash_queue_wait_seconds",
    help: "How long a password hash waited for a worker thread, in seconds",
    labelNames: ["operation"],
    buckets: WAIT_BUCKETS,
    registers,
  });
  const deliveries = new Counter({
    name: "gatehouse_webhook_deliveries_total",
    help: "Webhook delivery attempts by result (delivered, failed: retried later, gave_up: retries spent, refused: private target)",
    labelNames: ["result"],
    registers,
  });
  const deliveryTime = new Histogram({
    name: "gatehouse_webhook_delivery_duration_seconds",
    help: "How long webhook receivers took to answer, in seconds, by result",
    labelNames: ["result"],
    buckets: WEBHOOK_BUCKETS,
    registers,
  });
  const outboxLag = new Gauge({
    name: "gatehouse_webhook_outbox_lag_seconds",
    help: "Age of the oldest event the webhooks still have to deliver, in seconds (0: caught up)",
    registers,
  });
  processMetrics();

  // Bound once: the hasher calls this after every hash.
  const passwordHashObserver: PasswordHashObserver = (operation, waitSeconds, totalSeconds) => {
    hashWait.observe({ operation }, waitSeconds);
    hashTime.observe({ operation }, totalSeconds);
  };

  return {
    enabled: true,
    httpRoute: (route, method) => http.route(route, method),
    signIn(method, result, reason) {
      signIns.inc(reason === undefined ? { method, result } : { method, result, reason });
    },
    rateLimitRefused(limit) {
      refusals.inc({ limit });
    },
    passwordHashObserver,
    watchPasswordHasher(hasher) {
      const stats = hasher.stats?.bind(hasher);
      if (!stats) return;
      new Gauge({
        name: "gatehouse_password_hash_queue_depth",
        help: "Password hashes waiting for a worker thread",
        registers,
        collect() {
          this.set(stats().queued);
        },
      });
      new Gauge({
        name: "gatehouse_password_hash_in_progress",
        help: "Password hashes handed to the worker threads (running, or next in a worker's line)",
        registers,
        collect() {
          this.set(stats().running);
        },
      });
    },
    watchDatabase(database) {
      if (!database.poolStats) return;
      const pool = database.poolStats.bind(database);
      const gauge = (name: string, help: string, read: (stats: ReturnType<typeof pool>) => number) =>
        new Gauge({
          name,
          help,
          registers,
          collect() {
            this.set(read(pool()));
          },
        });
      gauge("gatehouse_database_pool_connections", "PostgreSQL connections the pool holds open", (s) => s.total);
      gauge("gatehouse_database_pool_idle_connections", "Open PostgreSQL connections no query is using", (s) => s.idle);
      gauge("gatehouse_database_pool_waiting_queries", "Queries waiting for a PostgreSQL connection", (s) => s.waiting);
      gauge("gatehouse_database_pool_max_connections", "The pool's size (database.poolSize)", (s) => s.max);
    },
    recordWebhookDelivery(result, seconds) {
      deliveries.inc({ result });
      if (seconds !== undefined) deliveryTime.observe({ result }, seconds);
    },
    setWebhookOutboxLag(seconds) {
      outboxLag.set(seconds);
    },
    contentType: registry.contentType,
    async render() {
      const [process, own] = await Promise.all([processMetrics().metrics(), registry.metrics()]);
      return `${process}\n${own}`;
    },
  };
}

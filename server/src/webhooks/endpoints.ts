import type { Config } from "../config/index.js";
import { configEndpointId } from "../config/webhook-options.js";
import type { Logger } from "../logger.js";
import { endpointSecretSealer, webhookSecretKey } from "./secrets.js";
import type { StoredEndpoint, WebhookRepositories } from "./store/index.js";

/**
 * Every endpoint there is: the configuration file's (`webhooks.endpoints`, read-only) and those made through the
 * admin API (the webhookEndpoint table), with what the dispatcher needs to send to them (the secret's key bytes,
 * the event filter).
 */
export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string | null;
  /** Event patterns (exact types, `user.*`, `*`); null: every type. */
  events: string[] | null;
  enabled: boolean;
  source: "config" | "api";
  /** Null for the configuration file's. */
  createdAt: Date | null;
  updatedAt: Date | null;
}

export interface LiveEndpoint extends WebhookEndpoint {
  /** The secret's bytes (after `whsec_`, base64-decoded): the HMAC key. Null when a stored secret does not open. */
  key: Buffer | null;
  /** Whether the endpoint wants events of this type. */
  wants(type: string): boolean;
}

/** Whether a type matches an endpoint's patterns: an exact type, a prefix (`user.*`), or `*`; null: every type. */
export function eventMatcher(patterns: readonly string[] | null): (type: string) => boolean {
  if (patterns === null || patterns.includes("*")) return () => true;
  const exact = new Set(patterns.filter((p) => !p.endsWith(".*")));
  const prefixes = patterns.filter((p) => p.endsWith(".*")).map((p) => p.slice(0, -1));
  return (type) => exact.has(type) || prefixes.some((prefix) => type.startsWith(prefix));
}

export function configEndpoints(config: Pick<Config, "webhooks">): LiveEndpoint[] {
  return config.webhooks.endpoints.map((endpoint) => ({
    id: configEndpointId(endpoint.url),
    url: endpoint.url,
    description: endpoint.description ?? null,
    events: endpoint.events ?? null,
    enabled: endpoint.enabled,
    source: "config" as const,
    createdAt: null,
    updatedAt: null,
    key: webhookSecretKey(endpoint.secret),
    wants: eventMatcher(endpoint.events ?? null),
  }));
}

export function apiEndpoint(stored: StoredEndpoint): WebhookEndpoint {
  return {
    id: stored.id,
    url: stored.url,
    description: stored.description,
    events: stored.events,
    enabled: stored.enabled,
    source: "api",
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
  };
}

/** How long the dispatcher trusts its list of endpoints before reading it again (another instance may change it). */
export const ENDPOINTS_TTL_MS = 5_000;

/**
 * The endpoints as the dispatcher sees them, read at most every ENDPOINTS_TTL_MS (and at once after a change made
 * on this instance: invalidate). A change made on another instance reaches this one within that time.
 */
export class EndpointDirectory {
  private cached: LiveEndpoint[] | null = null;
  private readAt = 0;
  private reading: Promise<LiveEndpoint[]> | null = null;
  private readonly fromConfig: LiveEndpoint[];
  /** Opened secrets by endpoint id and its last change, so a secret is decrypted once per change. */
  private keys = new Map<string, { updatedAt: number; key: Buffer | null }>();

  constructor(
    private readonly deps: { config: Config; stores: WebhookRepositories; logger: Logger },
  ) {
    this.fromConfig = configEndpoints(deps.config);
  }

  private generation = 0;

  invalidate(): void {
    this.readAt = 0;
    this.generation++;
  }

  async current(now = Date.now()): Promise<LiveEndpoint[]> {
    if (this.cached && now - this.readAt < ENDPOINTS_TTL_MS) return this.cached;
    this.reading ??= this.read(now).finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  private async read(now: number): Promise<LiveEndpoint[]> {
    const generation = this.generation;
    const stored = await this.deps.stores.webhookEndpoints.listEndpoints();
    const sealer = endpointSecretSealer(this.deps.config.secret);
    const keys = new Map<string, { updatedAt: number; key: Buffer | null }>();
    const live = stored.map((row): LiveEndpoint => {
      let known = this.keys.get(row.id);
      if (!known || known.updatedAt !== row.updatedAt.getTime()) {
        const plain = sealer.open(row.id, row.sealedSecret);
        const key = plain === null ? null : webhookSecretKey(plain);
        if (!key) this.deps.logger.error({ endpointId: row.id }, "webhook endpoint secret does not open (was GATEHOUSE_SECRET changed?)");
        known = { updatedAt: row.updatedAt.getTime(), key };
      }
      keys.set(row.id, known);
      return { ...apiEndpoint(row), key: known.key, wants: eventMatcher(row.events) };
    });
    this.keys = keys;
    this.cached = [...this.fromConfig, ...live];
    // Changed while reading: the list may predate the change, so the next call reads again.
    this.readAt = generation === this.generation ? now : 0;
    return this.cached;
  }
}

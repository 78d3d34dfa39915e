import { generateId } from "../crypto/random.js";
import type { StoredEvent } from "../events/store/models.js";
import type { WebhookDeliveryResult } from "../metrics/metrics.js";
import type { WebhookDeps } from "./deps.js";
import { configEndpoints, EndpointDirectory, eventMatcher, type LiveEndpoint } from "./endpoints.js";
import { webhookBody } from "./payload.js";
import { signWebhook } from "./secrets.js";
import { createAgents, sendWebhook, type SendOptions, type SendOutcome } from "./send.js";
import type { DeliveryOutcome, NewDelivery, OutboxGap, StoredDelivery } from "./store/index.js";

/**
 * The webhooks' dispatcher (README "Webhooks"), one per running Gatehouse, started with the module and stopped by
 * `gatehouse.close()`. Each pass:
 *
 * 1. fans new events out: in one transaction, with the cursor row locked (on PostgreSQL `FOR UPDATE SKIP LOCKED`:
 *    one instance fans out at a time, the others skip), it reads the events after the cursor, writes one delivery
 *    per event and enabled endpoint that wants it, and moves the cursor. Seqs the cursor passes that have no event
 *    yet (a transaction still open on PostgreSQL) are kept as gaps; an event that appears in one later is fanned out
 *    then, and a gap still empty after GAP_GRACE_MS is given up (a rolled-back transaction's seq);
 * 2. sends: the deliveries it just wrote are written already taken by this instance (status `sending` until a
 *    lease ends), up to its free capacity; the others, retries, and deliveries whose instance died are taken later
 *    with `FOR UPDATE SKIP LOCKED` (claimDueDeliveries), so no two instances send one delivery at once. A try's
 *    outcome is written only while its instance still holds it.
 *
 * It looks at the outbox every POLL_MS while some endpoint is on (one indexed `max(seq)`; the fan-out transaction
 * runs only when it moved), right away again while there is more to do, and every IDLE_MS with none on.
 */

/** How often the outbox is looked at while some endpoint is on. */
export const POLL_MS = 250;
/** With no endpoint on; also how often due deliveries nobody took are looked for, and gaps re-read. */
export const IDLE_MS = 5_000;
/** How long a seq may stay without its event before its transaction is taken as rolled back. */
export const GAP_GRACE_MS = 60_000;
/** Events read per fan-out transaction. */
export const FANOUT_BATCH = 500;
/** A jump of more seqs than this at once (a sequence moved by hand) is not kept as gaps. */
const MAX_NEW_GAPS = 1_000;
/** A taken delivery stays this instance's for twice the request timeout and this much, then another may take it. */
const LEASE_MARGIN_MS = 5_000;
/** How soon a try's outcome is written when nothing else is waiting (outcomes ending meanwhile join it). */
const OUTCOME_DELAY_MS = 50;
/** A pass failing this soon after start, before any succeeded, is logged at debug only (the migrations may still run). */
const STARTUP_GRACE_MS = 30_000;
/** How often delivered and failed deliveries older than the audit log's retention are pruned. */
const PRUNE_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

interface Taken {
  delivery: Pick<StoredDelivery, "id" | "endpointId" | "eventSeq" | "eventId" | "attempts">;
  event: StoredEvent | null;
}

type FanOut =
  | { locked: true }
  | {
      locked: false;
      /** The batch was full: more events wait. */
      full: boolean;
      /** Events read (new ones and those of filled gaps). */
      read: number;
      /** The cursor after it: the highest seq read. */
      highest: number;
      gaps: number;
      taken: Taken[];
      oldest: Date | null;
    };

export class WebhookDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Number.POSITIVE_INFINITY;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly inFlight = new Set<Promise<void>>();
  private lastMaxSeq = -1;
  private eventsLastTime = false;
  private lastGapsReadAt = 0;
  private gapsPending = false;
  private lastFanOutAt = 0;
  private nextClaimAt = 0;
  private outcomes: DeliveryOutcome[] = [];
  private readonly agents: SendOptions["agents"];
  private readonly configured: LiveEndpoint[];
  private pruneTimer: NodeJS.Timeout | null = null;
  readonly endpoints: EndpointDirectory;

  constructor(private readonly deps: WebhookDeps) {
    this.agents = createAgents(deps.config.webhooks.concurrency);
    this.configured = configEndpoints(deps.config);
    this.endpoints = new EndpointDirectory({ config: deps.config, stores: deps.stores, logger: deps.logger });
  }

  private startedAt = 0;
  private passed = false;

  start(): void {
    this.startedAt = Date.now();
    this.wake(0);
    this.pruneTimer = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.pruneTimer.unref();
  }

  /** Looks at the outbox and the due deliveries now (an endpoint changed, a delivery was sent again). */
  nudge(): void {
    this.nextClaimAt = 0;
    this.wake(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    await this.running;
    await Promise.allSettled([...this.inFlight]);
    await this.flushOutcomes();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private leaseMs(): number {
    return this.settings.timeout * 2_000 + LEASE_MARGIN_MS;
  }

  private get settings() {
    return this.deps.config.webhooks;
  }

  private wake(ms: number): void {
    if (this.stopped) return;
    if (this.running) {
      if (ms === 0) this.again = true;
      else this.schedule(ms);
      return;
    }
    this.schedule(ms);
  }

  private schedule(ms: number): void {
    const at = Date.now() + ms;
    if (this.timer && at >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Number.POSITIVE_INFINITY;
      this.run();
    }, ms);
    this.timer.unref();
  }

  private run(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .then((next) => {
        this.passed = true;
        return next;
      })
      .catch((error: Error) => {
        // Before its first pass the database may still be migrating (a library's createGatehouse starts modules at
        // once unless given `background: false`; the bundled server starts them after migrating).
        const level = this.passed || Date.now() - this.startedAt > STARTUP_GRACE_MS ? "warn" : "debug";
        this.deps.logger[level]({ err: error.message }, "webhook dispatcher pass failed");
        return IDLE_MS / 5;
      })
      .then((next) => {
        this.running = null;
        const delay = this.again ? 0 : next;
        this.again = false;
        this.wake(delay);
      });
  }

  /**
   * One pass; answers how long to wait before the next. After the cheap look at the outbox, everything it writes
   * goes in one transaction (one connection from the pool, which requests may be queueing for): the outcomes of
   * finished tries, the fan-out, and the taking of due deliveries. Tries start once it is committed.
   */
  private async pass(): Promise<number> {
    const { stores } = this.deps;
    const sinceFanOut = Date.now() - this.lastFanOutAt;
    // While events keep coming (the last fan-out read some), the look at max(seq) is skipped.
    let fanOutDue = this.eventsLastTime || (this.gapsPending && sinceFanOut >= 1_000) || sinceFanOut >= IDLE_MS;
    if (!fanOutDue) fanOutDue = (await stores.webhookOutbox.maxEventSeq()) !== this.lastMaxSeq;
    const capacity = () => this.settings.concurrency - this.inFlight.size;
    const claimDue = Date.now() >= this.nextClaimAt && capacity() > 0;
    if (!fanOutDue && !claimDue && this.outcomes.length === 0) return this.cadence();

    const outcomes = this.outcomes;
    this.outcomes = [];
    let work: { fan: FanOut | null; claimed: Taken[] | null };
    try {
      work = await stores.transaction(async (tx) => {
        await tx.webhookDeliveries.recordOutcomes(outcomes);
        const fan = fanOutDue ? await this.fanOut(tx) : null;
        const free = capacity() - (fan && !fan.locked ? fan.taken.length : 0);
        const claimed = claimDue && free > 0 ? await this.claim(tx, free) : null;
        return { fan, claimed };
      });
    } catch (error) {
      // Written by the next pass (a try's outcome is never lost while this instance runs).
      this.outcomes = [...outcomes, ...this.outcomes].slice(0, 10_000);
      throw error;
    }

    let busy = false;
    let oldest: Date | null = null;
    const { fan, claimed } = work;
    if (fan) {
      this.lastFanOutAt = Date.now();
      // Locked: another instance is fanning out; the next look tries again.
      if (!fan.locked) {
        this.gapsPending = fan.gaps > 0;
        this.lastMaxSeq = fan.highest;
        this.eventsLastTime = fan.read > 0;
        if (fan.full) busy = true;
        oldest = fan.oldest;
        this.sendAll(fan.taken);
      }
    }
    if (claimed) {
      for (const taken of claimed) {
        if (taken.delivery.attempts === 1 && taken.event && (!oldest || taken.event.createdAt < oldest)) oldest = taken.event.createdAt;
      }
      this.sendAll(claimed);
      const full = claimed.length > 0 && this.inFlight.size >= this.settings.concurrency;
      this.nextClaimAt = full ? 0 : this.nextClaimAfterSweep();
    }
    this.deps.metrics.setWebhookOutboxLag(oldest ? Math.max(0, (this.deps.now().getTime() - oldest.getTime()) / 1000) : 0);
    if (busy && this.inFlight.size < this.settings.concurrency) return 0;
    return this.cadence();
  }

  /** The wait between looks at the outbox: short while some endpoint is on. */
  private cadence(): number {
    return this.anyEnabled() ? POLL_MS : IDLE_MS;
  }

  private enabledApi = false;

  private anyEnabled(): boolean {
    return this.enabledApi || this.configured.some((e) => e.enabled);
  }

  /** The fan-out, inside the pass's transaction (see the class's comment). */
  private async fanOut(tx: WebhookDeps["stores"]): Promise<FanOut> {
    const { logger } = this.deps;
    const free = Math.max(0, this.settings.concurrency - this.inFlight.size);
    const leaseMs = this.leaseMs();
    const cursor = await tx.webhookOutbox.lockCursor();
    if (cursor === null) return { locked: true };
    const stored = await tx.webhookEndpoints.listEndpoints();
    this.enabledApi = stored.some((e) => e.enabled);
    const endpoints = [
      ...this.configured.filter((e) => e.enabled).map((e) => ({ id: e.id, createdAt: null as Date | null, wants: e.wants })),
      ...stored.filter((e) => e.enabled).map((e) => ({ id: e.id, createdAt: e.createdAt as Date | null, wants: eventMatcher(e.events) })),
    ];
    if (endpoints.length === 0) {
      // Nobody to deliver to: the cursor follows the log, and no gap is worth waiting for.
      const max = await tx.webhookOutbox.maxEventSeq();
      if (max > cursor) await tx.webhookOutbox.setCursor(max);
      await tx.webhookOutbox.deleteAllGaps();
      return { locked: false, full: false, read: 0, highest: Math.max(max, cursor), gaps: 0, taken: [], oldest: null };
    }
    const now = this.deps.now();
    // Gaps are read while this instance knows of some, and every IDLE_MS for those another instance left.
    const readGaps = this.gapsPending || Date.now() - this.lastGapsReadAt >= IDLE_MS;
    const gaps = readGaps ? await tx.webhookOutbox.listGaps() : [];
    if (readGaps) this.lastGapsReadAt = Date.now();
    const filled = gaps.length ? await tx.webhookOutbox.eventsBySeq(gaps.map((g) => g.seq)) : [];
    const events = await tx.webhookOutbox.eventsAfter(cursor, FANOUT_BATCH);

    // New gaps: the seqs between the cursor and the newest event read that no event has.
    const newGaps: OutboxGap[] = [];
    let previous = cursor;
    for (const event of events) {
      const missing = event.seq - previous - 1;
      if (missing > 0 && missing + newGaps.length <= MAX_NEW_GAPS) {
        for (let seq = previous + 1; seq < event.seq; seq++) newGaps.push({ seq, seenAt: now });
      } else if (missing > 0) {
        logger.warn({ from: previous + 1, to: event.seq - 1 }, "webhook outbox: seqs skipped without waiting for them");
      }
      previous = event.seq;
    }
    const filledSeqs = new Set(filled.map((e) => e.seq));
    const givenUp = gaps.filter((g) => !filledSeqs.has(g.seq) && now.getTime() - g.seenAt.getTime() >= GAP_GRACE_MS);
    if (givenUp.length) {
      logger.warn({ seqs: givenUp.map((g) => g.seq).slice(0, 20), count: givenUp.length }, "webhook outbox: gaps given up (rolled back)");
    }
    await tx.webhookOutbox.deleteGaps([...filledSeqs, ...givenUp.map((g) => g.seq)]);
    await tx.webhookOutbox.insertGaps(newGaps);
    if (previous > cursor) await tx.webhookOutbox.setCursor(previous);

    const lease = new Date(now.getTime() + leaseMs);
    const rows: NewDelivery[] = [];
    const eventOf = new Map<string, StoredEvent>();
    let budget = free;
    let oldest: Date | null = null;
    for (const event of [...filled, ...events]) {
      for (const endpoint of endpoints) {
        if (!endpoint.wants(event.type)) continue;
        // An endpoint made through the API gets the events made from its creation on.
        if (endpoint.createdAt && event.createdAt < endpoint.createdAt) continue;
        const take = budget > 0;
        if (take) budget--;
        const id = generateId();
        eventOf.set(id, event);
        if (!oldest || event.createdAt < oldest) oldest = event.createdAt;
        rows.push({
          id,
          endpointId: endpoint.id,
          eventSeq: event.seq,
          eventId: event.id,
          eventType: event.type,
          status: take ? "sending" : "pending",
          attempts: take ? 1 : 0,
          nextAttemptAt: take ? lease : now,
          lastAttemptAt: take ? now : null,
          createdAt: now,
        });
      }
    }
    const written = await tx.webhookOutbox.insertDeliveries(rows);
    if (rows.some((row) => row.status === "pending" && written.has(row.id))) this.nextClaimAt = 0;
    const taken = rows
      .filter((row) => row.status === "sending" && written.has(row.id))
      .map((row) => ({ delivery: { ...row }, event: eventOf.get(row.id) ?? null }));
    return {
      locked: false,
      full: events.length === FANOUT_BATCH,
      read: filled.length + events.length,
      highest: previous,
      gaps: gaps.length - filledSeqs.size - givenUp.length + newGaps.length,
      taken,
      oldest,
    };
  }

  /** Due deliveries taken for this instance, with their events (inside the pass's transaction). */
  private async claim(stores: WebhookDeps["stores"], limit: number): Promise<Taken[]> {
    const now = this.deps.now();
    const lease = new Date(now.getTime() + this.leaseMs());
    const claimed = await stores.webhookDeliveries.claimDueDeliveries(now, lease, limit);
    if (claimed.length === 0) return [];
    const events = await stores.webhookOutbox.eventsBySeq([...new Set(claimed.map((d) => d.eventSeq))]);
    const bySeq = new Map(events.map((e) => [e.seq, e]));
    return claimed.map((delivery) => ({ delivery, event: bySeq.get(delivery.eventSeq) ?? null }));
  }

  private sendAll(taken: readonly Taken[]): void {
    for (const item of taken) {
      const running: Promise<void> = this.deliver(item)
        .catch((error: Error) => this.deps.logger.error({ err: error.message, deliveryId: item.delivery.id }, "webhook delivery failed"))
        .finally(() => {
          this.inFlight.delete(running);
          if (this.nextClaimAt === 0) this.wake(0);
        });
      this.inFlight.add(running);
    }
  }

  private async endpointFor(id: string): Promise<LiveEndpoint | undefined> {
    let endpoint = (await this.endpoints.current()).find((e) => e.id === id);
    if (!endpoint) {
      // Made on another instance since the list was read.
      this.endpoints.invalidate();
      endpoint = (await this.endpoints.current()).find((e) => e.id === id);
    }
    return endpoint;
  }

  private async deliver({ delivery, event }: Taken): Promise<void> {
    const endpoint = await this.endpointFor(delivery.endpointId);
    const problem = !endpoint
      ? "the endpoint no longer exists"
      : !endpoint.enabled
        ? "the endpoint is turned off"
        : !endpoint.key
          ? "the endpoint's secret cannot be read (was GATEHOUSE_SECRET changed?)"
          : !event
            ? "the event is no longer in the audit log"
            : null;
    if (problem || !endpoint?.key || !event) {
      this.record(delivery, { result: "failed", status: null, body: null, error: problem, seconds: 0 }, true);
      return;
    }
    const body = webhookBody(event);
    const timestamp = Math.floor(this.deps.now().getTime() / 1000);
    const outcome = await sendWebhook(
      {
        url: endpoint.url,
        body,
        headers: {
          "webhook-id": event.id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signWebhook(endpoint.key, event.id, timestamp, body),
        },
      },
      { timeoutMs: this.settings.timeout * 1000, allowPrivateTargets: this.settings.allowPrivateTargets, agents: this.agents },
    );
    if (outcome.result === "refused") {
      this.deps.logger.warn({ endpointId: endpoint.id, deliveryId: delivery.id, error: outcome.error }, "webhook target refused");
    }
    this.record(delivery, outcome, false);
  }

  /** Queues a try's outcome (written by the next flush) and reports it to the metrics. */
  private record(delivery: Taken["delivery"], outcome: SendOutcome, final: boolean): void {
    const now = this.deps.now();
    const schedule = this.settings.retrySchedule;
    const attempt = delivery.attempts;
    let status: DeliveryOutcome["status"];
    let nextAttemptAt: Date | null = null;
    let metric: WebhookDeliveryResult;
    if (outcome.result === "delivered") {
      status = "delivered";
      metric = "delivered";
    } else if (!final && attempt <= schedule.length) {
      status = "pending";
      nextAttemptAt = new Date(now.getTime() + schedule[attempt - 1]! * 1000);
      metric = outcome.result === "refused" ? "refused" : "failed";
    } else {
      status = "failed";
      metric = outcome.result === "refused" ? "refused" : "gave_up";
    }
    if (!final) this.deps.metrics.recordWebhookDelivery(metric, outcome.result === "refused" ? undefined : outcome.seconds);
    this.outcomes.push({
      id: delivery.id,
      attempt,
      status,
      nextAttemptAt,
      at: now,
      responseStatus: outcome.status,
      responseBody: outcome.body,
      error: outcome.error,
      durationMs: outcome.result === "refused" || final ? null : Math.round(outcome.seconds * 1000),
    });
    if (nextAttemptAt) {
      const wait = Math.max(0, nextAttemptAt.getTime() - now.getTime());
      this.retryTimes.push(Date.now() + wait);
      this.nextClaimAt = Math.min(this.nextClaimAt, Date.now() + wait);
      this.wake(wait);
    }
    // The outcome is written by the next pass: at once while deliveries wait for room, else within OUTCOME_DELAY_MS
    // (outcomes of tries ending together share it).
    this.wake(this.nextClaimAt === 0 ? 0 : OUTCOME_DELAY_MS);
  }

  /** When this instance's own failed tries are due again (so a claim is not left to the IDLE_MS sweep). */
  private retryTimes: number[] = [];

  /** After a claim that found no more: the next claim at the earliest retry still ahead, or after IDLE_MS. */
  private nextClaimAfterSweep(): number {
    const now = Date.now();
    this.retryTimes = this.retryTimes.filter((at) => at > now);
    return Math.min(now + IDLE_MS, ...this.retryTimes);
  }

  /** Writes the outcomes still queued (at stop). */
  private async flushOutcomes(): Promise<void> {
    const outcomes = this.outcomes;
    this.outcomes = [];
    if (outcomes.length === 0) return;
    try {
      await this.deps.stores.webhookDeliveries.recordOutcomes(outcomes);
    } catch (error) {
      this.deps.logger.warn({ err: (error as Error).message, outcomes: outcomes.length }, "webhook outcomes not written at stop");
    }
  }

  /** Deletes delivered and failed deliveries older than the audit log's retention (`events.retentionDays`). */
  private async prune(): Promise<void> {
    const days = this.deps.config.events.retentionDays;
    if (days === 0) return;
    try {
      const count = await this.deps.stores.webhookDeliveries.pruneDeliveries(new Date(this.deps.now().getTime() - days * DAY_MS));
      if (count > 0) this.deps.logger.info({ deliveries: count }, "webhook delivery log pruned");
    } catch (error) {
      this.deps.logger.warn({ err: (error as Error).message }, "webhook delivery log prune failed");
    }
  }
}

import type { Runtime } from "../runtime.js";

/** How often the audit log is pruned, and how long after start the first prune waits (migrations run first). */
export const PRUNE_INTERVAL_MS = 3_600_000;
const FIRST_PRUNE_AFTER_MS = 60_000;

const DAY_MS = 86_400_000;

/**
 * Deletes the events older than `events.retentionDays`, except those a module still needs: every installed
 * module's `retainEventsFrom` (the webhooks' oldest undelivered event) keeps its answer and every later event.
 * Answers how many went (0 with retention 0, "keep for ever").
 */
export async function pruneEvents(runtime: Pick<Runtime, "config" | "stores" | "modules" | "now">): Promise<number> {
  const { retentionDays } = runtime.config.events;
  if (retentionDays === 0) return 0;
  let keepFrom: number | null = null;
  for (const module of runtime.modules) {
    if (!module.retainEventsFrom) continue;
    const needed = await module.retainEventsFrom(runtime.stores, runtime.config);
    if (needed !== null && (keepFrom === null || needed < keepFrom)) keepFrom = needed;
  }
  const before = new Date(runtime.now().getTime() - retentionDays * DAY_MS);
  return runtime.stores.events.prune(before, keepFrom);
}

/**
 * The background prune: a minute after start, then hourly; unref'd, so it never keeps the process alive, and
 * stopped by gatehouse.close(). A failure is logged and tried again at the next hour.
 */
export function startPruning(runtime: Runtime): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const prune = () => {
    running = pruneEvents(runtime)
      .then((count) => {
        if (count > 0) runtime.logger.info({ events: count }, "audit log pruned");
      })
      .catch((error: Error) => runtime.logger.warn({ err: error.message }, "audit log prune failed"));
  };
  let interval: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    prune();
    interval = setInterval(prune, PRUNE_INTERVAL_MS);
    interval.unref();
  }, FIRST_PRUNE_AFTER_MS);
  first.unref();
  return {
    async stop() {
      clearTimeout(first);
      if (interval) clearInterval(interval);
      await running;
    },
  };
}

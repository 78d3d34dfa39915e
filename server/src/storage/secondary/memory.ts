import type { SecondaryStorage } from "./types.js";

interface Entry {
  value: string;
  expiresAt: number; // ms epoch, Infinity for no expiry
}

/** One process's store; expired entries are dropped when read and swept once a minute. */
export function memoryStorage(now: () => number = Date.now): SecondaryStorage {
  const entries = new Map<string, Entry>();
  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const sweep = setInterval(() => {
    const t = now();
    for (const [key, entry] of entries) if (entry.expiresAt <= t) entries.delete(key);
  }, 60_000);
  sweep.unref();

  return {
    async get(key) {
      return live(key)?.value ?? null;
    },
    async set(key, value, ttlSeconds) {
      entries.set(key, { value, expiresAt: ttlSeconds && ttlSeconds > 0 ? now() + ttlSeconds * 1000 : Infinity });
    },
    async delete(key) {
      entries.delete(key);
    },
    async increment(key, ttlMs) {
      const entry = live(key);
      if (!entry) {
        entries.set(key, { value: "1", expiresAt: now() + ttlMs });
        return { count: 1, ttlMs };
      }
      entry.value = String(Number(entry.value) + 1);
      return { count: Number(entry.value), ttlMs: entry.expiresAt - now() };
    },
    async close() {
      clearInterval(sweep);
      entries.clear();
    },
  };
}

import { Redis } from "ioredis";
import { StorageUnavailableError, type SecondaryStorage } from "./types.js";

export interface RedisLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

// INCR and the expiry in one step: a counter can never be left without a life.
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

/**
 * Redis-backed storage. While Redis is away, commands fail at once (no offline queue) and are answered
 * with 503; the client reconnects by itself.
 */
export function redisStorage(url: string, logger?: RedisLogger, keyPrefix = "gatehouse:"): SecondaryStorage {
  const client = new Redis(url, {
    keyPrefix,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 3_000,
    commandTimeout: 3_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    lazyConnect: false,
  });
  let down = false;
  client.on("error", (error: Error) => {
    if (!down) logger?.warn({ err: error.message }, "redis unavailable");
    down = true;
  });
  client.on("ready", () => {
    if (down) logger?.info({}, "redis reconnected");
    down = false;
  });
  client.defineCommand("gatehouseIncrement", { numberOfKeys: 1, lua: INCREMENT });

  const run = async <T>(operation: () => Promise<T>): Promise<T> => {
    try {
      return await operation();
    } catch (error) {
      throw new StorageUnavailableError(`Redis: ${(error as Error).message}`);
    }
  };

  return {
    get: (key) => run(() => client.get(key)),
    async set(key, value, ttlSeconds) {
      await run(() => (ttlSeconds && ttlSeconds > 0 ? client.set(key, value, "EX", ttlSeconds) : client.set(key, value)));
    },
    async delete(key) {
      await run(() => client.del(key));
    },
    async increment(key, ttlMs) {
      const [count, ttl] = await run(
        () =>
          (client as unknown as { gatehouseIncrement(k: string, ms: number): Promise<[number, number]> }).gatehouseIncrement(
            key,
            Math.max(1, Math.ceil(ttlMs)),
          ),
      );
      return { count: Number(count), ttlMs: Number(ttl) };
    },
    async close() {
      client.disconnect();
    },
  };
}

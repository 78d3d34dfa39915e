/**
 * Secondary storage: a small key-value store with expiry, shared by every instance when it is Redis.
 * Rate-limit counters live here.
 */
export interface SecondaryStorage {
  get(key: string): Promise<string | null>;
  /** Stores a value; ttlSeconds > 0 makes it expire. */
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Atomically adds one to the counter under key, creating it with the given life when absent.
   * Returns the new count and the milliseconds left before the counter expires.
   */
  increment(key: string, ttlMs: number): Promise<{ count: number; ttlMs: number }>;
  close(): Promise<void>;
}

/** Raised when the store cannot be reached; answered with 503. */
export class StorageUnavailableError extends Error {
  override name = "StorageUnavailableError";
}

import { randomBytes, scrypt as scryptCallback } from "node:crypto";
import { Worker } from "node:worker_threads";
import { APIError } from "../http/errors.js";

/**
 * Password hashes in the format existing databases of this API hold (API-NOTES.md 1.10):
 * scrypt N=16384, r=16, p=1, 64-byte key, the 32-character hex salt string itself as the salt input,
 * the password NFKC-normalised, stored as `saltHex:keyHex`.
 *
 * Hashing runs on a small pool of worker threads of its own, never on libuv's pool: a queue of hashes there
 * would stall every other task that uses it. Each worker lowers its own thread's priority, so under a
 * sign-in storm the event loop (sessions, cookie checks) is scheduled first and hashes use the rest.
 */
export const SCRYPT = { N: 16384, r: 16, p: 1, keyLength: 64, maxmem: 128 * 16384 * 16 * 2 } as const;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Runs a verification that always fails, to spend the same time as a real one (unknown accounts). */
  verifyDummy(password: string): Promise<void>;
  close(): Promise<void>;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { scryptSync, timingSafeEqual } = require("node:crypto");
const os = require("node:os");
// On Linux the nice value is per thread: this lowers only this worker's thread.
try { if (workerData.nice) os.setPriority(workerData.nice); } catch {}
const P = workerData.params;
parentPort.on("message", (job) => {
  try {
    const key = scryptSync(job.password.normalize("NFKC"), job.salt, P.keyLength, { N: P.N, r: P.r, p: P.p, maxmem: P.maxmem });
    if (job.expected === undefined) {
      parentPort.postMessage({ id: job.id, key: key.toString("hex") });
    } else {
      const expected = Buffer.from(job.expected, "hex");
      const ok = expected.length === key.length && timingSafeEqual(expected, key);
      parentPort.postMessage({ id: job.id, ok });
    }
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String(error && error.message || error) });
  }
});
`;

interface Job {
  id: number;
  password: string;
  salt: string;
  expected?: string;
  resolve(value: { key?: string; ok?: boolean }): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  /** Jobs sent to this worker, oldest (the one it is hashing) first; it answers them in that order. */
  jobs: Job[];
}

/**
 * Jobs a worker holds at once: the one it hashes and the next, waiting in its port. When a hash ends, the worker
 * starts the next at once instead of idling until the main thread, busy with requests, has read its answer and
 * sent it more work (that round trip cost 2-3% of the hashing time under a sign-in storm).
 */
const JOBS_PER_WORKER = 2;

const DUMMY_HASH =
  "a5e3b2c41f0d9e8b7a6c5d4e3f2a1b0c:" + "0".repeat(128); // never matches: its key is all zeros

export function createPasswordHasher(opts: { concurrency: number; nice: number; maxQueue?: number }): PasswordHasher {
  const maxQueue = opts.maxQueue ?? 4096;
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  // An idle worker first, then a new one while under the concurrency, then one that can hold another job.
  const freeSlot = (): Slot | undefined => {
    const idle = slots.find((s) => s.jobs.length === 0);
    if (idle) return idle;
    if (slots.length < opts.concurrency) return spawn();
    let best: Slot | undefined;
    for (const slot of slots) if (slot.jobs.length < JOBS_PER_WORKER && (!best || slot.jobs.length < best.jobs.length)) best = slot;
    return best;
  };

  const dispatch = () => {
    while (queue.length > 0) {
      const slot = freeSlot();
      if (!slot) return;
      const job = queue.shift()!;
      slot.jobs.push(job);
      slot.worker.postMessage({ id: job.id, password: job.password, salt: job.salt, expected: job.expected });
    }
  };

  const spawn = (): Slot => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { params: SCRYPT, nice: opts.nice },
      resourceLimits: { maxOldGenerationSizeMb: 32 },
    });
    worker.unref();
    const slot: Slot = { worker, jobs: [] };
    worker.on("message", (message: { id: number; key?: string; ok?: boolean; error?: string }) => {
      const job = slot.jobs[0]?.id === message.id ? slot.jobs.shift() : undefined;
      if (job) {
        if (message.error) job.reject(new Error(message.error));
        else job.resolve(message);
      }
      dispatch();
    });
    worker.on("error", (error) => {
      for (const job of slot.jobs.splice(0)) job.reject(error);
      slots.splice(slots.indexOf(slot), 1);
      if (!closed) dispatch();
    });
    slots.push(slot);
    return slot;
  };

  const run = (password: string, salt: string, expected?: string) =>
    new Promise<{ key?: string; ok?: boolean }>((resolve, reject) => {
      if (closed) return reject(new Error("password hasher closed"));
      if (queue.length >= maxQueue) {
        return reject(new APIError("SERVICE_UNAVAILABLE", "Too many requests. Please try again later."));
      }
      queue.push({ id: nextId++, password, salt, ...(expected !== undefined ? { expected } : {}), resolve, reject });
      dispatch();
    });

  const verify = async (hash: string, password: string): Promise<boolean> => {
    const [salt, key] = hash.split(":");
    if (!salt || !key || !/^[0-9a-f]+$/i.test(key)) return false;
    const result = await run(password, salt, key);
    return result.ok === true;
  };

  return {
    async hash(password) {
      const salt = randomBytes(16).toString("hex");
      const { key } = await run(password, salt);
      return `${salt}:${key}`;
    },
    verify,
    async verifyDummy(password) {
      await verify(DUMMY_HASH, password);
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error("password hasher closed"));
      await Promise.all(slots.map((s) => s.worker.terminate()));
      slots.length = 0;
    },
  };
}

/** Reference implementation on libuv's pool, used by tests to check the worker's output format. */
export function scryptReference(password: string, salt: string): Promise<string> {
  return new Promise((resolve, reject) =>
    scryptCallback(
      password.normalize("NFKC"),
      salt,
      SCRYPT.keyLength,
      { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: SCRYPT.maxmem },
      (error, key) => (error ? reject(error) : resolve(`${salt}:${key.toString("hex")}`)),
    ),
  );
}


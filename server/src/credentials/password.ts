import { randomBytes, scrypt as scryptCallback } from "node:crypto";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { APIError } from "../http/errors.js";
import { HTTP_FIXED_CODES, HTTP_MESSAGES } from "../http/messages.js";
import { storedHashFormat } from "./hash-formats.js";

/**
 * Password hashes in the format existing databases of this API hold (API-NOTES.md 1.10):
 * scrypt N=16384, r=16, p=1, 64-byte key, the 32-character hex salt string itself as the salt input,
 * the password NFKC-normalised, stored as `saltHex:keyHex`.
 *
 * Hashing runs on a small pool of worker threads of its own, never on libuv's pool: a queue of hashes there
 * would stall every other task that uses it. Each worker lowers its own thread's priority, so under a
 * sign-in storm the event loop (sessions, cookie checks) is scheduled first and hashes use the rest.
 *
 * The same workers verify the foreign hashes `gatehouse import` brings (hash-formats.ts): bcrypt (the bcrypt
 * package's synchronous compare, in the worker's thread), PBKDF2-SHA256 and Firebase's scrypt (node:crypto, also
 * synchronous there), and Argon2, whose package has only an asynchronous API, run on libuv's pool: at most
 * half of that pool's threads (UV_THREADPOOL_SIZE, 4 by default) verify Argon2 hashes at once, so that file and DNS
 * work still find threads. Each imported hash is verified once: the sign-in that succeeds replaces it.
 */
export const SCRYPT = { N: 16384, r: 16, p: 1, keyLength: 64, maxmem: 128 * 16384 * 16 * 2 } as const;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Runs a verification that always fails, to spend the same time as a real one (unknown accounts). */
  verifyDummy(password: string): Promise<void>;
  /** The queue now (for metrics): jobs waiting for a worker, and jobs handed to the workers. */
  stats?(): { queued: number; running: number };
  close(): Promise<void>;
}

/**
 * Told of every finished job when metrics are on (metrics/metrics.ts): "hash" (a new password) or "verify", the
 * seconds it waited for a worker, and its seconds from the request to the answer.
 */
export type PasswordHashObserver = (operation: "hash" | "verify", waitSeconds: number, totalSeconds: number) => void;

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { scryptSync, pbkdf2Sync, createCipheriv, timingSafeEqual } = require("node:crypto");
const os = require("node:os");
// On Linux the nice value is per thread: this lowers only this worker's thread.
try { if (workerData.nice) os.setPriority(workerData.nice); } catch {}
const P = workerData.params;
const same = (a, b) => a.length === b.length && timingSafeEqual(a, b);
let bcrypt, argon2;
// A foreign hash (hash-formats.ts): true or false, or a promise of it (Argon2). The password is used as UTF-8,
// as the systems that wrote these hashes did (no normalisation).
function verifyForeign(password, stored) {
  if (stored.startsWith("$2")) {
    bcrypt = bcrypt || require(workerData.modules.bcrypt);
    // $2y$ is PHP's name for $2b$, which the package knows.
    return bcrypt.compareSync(password, stored.startsWith("$2y$") ? "$2b$" + stored.slice(4) : stored);
  }
  if (stored.startsWith("$argon2")) {
    argon2 = argon2 || require(workerData.modules.argon2);
    return argon2.verify(stored, password);
  }
  if (stored.startsWith("pbkdf2_sha256$")) {
    const [, iterations, salt, key] = stored.split("$");
    const expected = Buffer.from(key, "base64");
    return same(expected, pbkdf2Sync(password, salt, Number(iterations), expected.length, "sha256"));
  }
  if (stored.startsWith("$firebase-scrypt$")) {
    // Firebase: scrypt(password, salt + separator, N = 2^mem_cost, r = rounds, p = 1, 32 bytes) is the AES-256-CTR
    // key (zero IV) that encrypts the project's signer key; the result is the stored password hash.
    const [, , params, salt, separator, signerKey, hash] = stored.split("$");
    const m = Number(/m=(\\d+)/.exec(params)[1]);
    const r = Number(/r=(\\d+)/.exec(params)[1]);
    const N = 2 ** m;
    const saltBytes = Buffer.concat([Buffer.from(salt, "base64"), Buffer.from(separator, "base64")]);
    const key = scryptSync(Buffer.from(password, "utf8"), saltBytes, 32, { N, r, p: 1, maxmem: 256 * N * r });
    const cipher = createCipheriv("aes-256-ctr", key, Buffer.alloc(16));
    const derived = Buffer.concat([cipher.update(Buffer.from(signerKey, "base64")), cipher.final()]);
    return same(Buffer.from(hash, "base64"), derived);
  }
  return false;
}
const fail = (id, error) => parentPort.postMessage({ id, error: String((error && error.message) || error) });
parentPort.on("message", (job) => {
  try {
    if (job.stored !== undefined) {
      const ok = verifyForeign(job.password, job.stored);
      if (typeof ok === "boolean") parentPort.postMessage({ id: job.id, ok });
      else ok.then((value) => parentPort.postMessage({ id: job.id, ok: value === true }), (error) => fail(job.id, error));
      return;
    }
    const key = scryptSync(job.password.normalize("NFKC"), job.salt, P.keyLength, { N: P.N, r: P.r, p: P.p, maxmem: P.maxmem });
    if (job.expected === undefined) {
      parentPort.postMessage({ id: job.id, key: key.toString("hex") });
    } else {
      const expected = Buffer.from(job.expected, "hex");
      const ok = expected.length === key.length && timingSafeEqual(expected, key);
      parentPort.postMessage({ id: job.id, ok });
    }
  } catch (error) {
    fail(job.id, error);
  }
});
`;

interface Job {
  id: number;
  password: string;
  /** Gatehouse's scrypt: the salt, and the key to compare with (none: hash). */
  salt?: string;
  expected?: string;
  /** A foreign hash to verify the password against (hash-formats.ts). */
  stored?: string;
  /** Runs on libuv's pool (Argon2): counted against POOL_JOBS. */
  pool?: boolean;
  /** With an observer: performance.now() when it was asked for, then when a worker got it. */
  askedAt?: number;
  sentAt?: number;
  resolve(value: { key?: string; ok?: boolean }): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  /**
   * Jobs sent to this worker, oldest first. It answers them in that order, except an Argon2 job, which a later one
   * may overtake while it runs on libuv's pool.
   */
  jobs: Job[];
}

/**
 * Jobs a worker holds at once: the one it hashes and the next, waiting in its port. When a hash ends, the worker
 * starts the next at once instead of idling until the main thread, busy with requests, has read its answer and
 * sent it more work (that round trip cost 2-3% of the hashing time under a sign-in storm).
 */
const JOBS_PER_WORKER = 2;

/** Argon2 verifications at once: half of libuv's pool (its other threads stay free for files and DNS). */
const POOL_JOBS = Math.max(1, Math.floor((Number(process.env.UV_THREADPOOL_SIZE) || 4) / 2));

/** Where the workers load the native hash packages from (they are plain CommonJS workers, without our resolver). */
const requireHere = createRequire(import.meta.url);
let nativeModules: { bcrypt: string; argon2: string } | undefined;
const resolveNativeModules = () => {
  // A package that cannot be found fails the verifications that need it (with its name), not the service's start.
  const resolve = (name: string) => {
    try {
      return requireHere.resolve(name);
    } catch {
      return name;
    }
  };
  return (nativeModules ??= { bcrypt: resolve("bcrypt"), argon2: resolve("argon2") });
};

/** A hash asked for, or still waiting, when the hasher closes (the service stopping): 503, as other outages answer. */
const serviceStopping = () =>
  new APIError("SERVICE_UNAVAILABLE", HTTP_FIXED_CODES.SERVICE_UNAVAILABLE, { code: "SERVICE_UNAVAILABLE" });

const DUMMY_HASH =
  "a5e3b2c41f0d9e8b7a6c5d4e3f2a1b0c:" + "0".repeat(128); // never matches: its key is all zeros

export function createPasswordHasher(opts: {
  concurrency: number;
  nice: number;
  maxQueue?: number;
  observe?: PasswordHashObserver | undefined;
}): PasswordHasher {
  const maxQueue = opts.maxQueue ?? 4096;
  const observe = opts.observe;
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;
  let poolJobs = 0;

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
    // In order, except that an Argon2 job waits (and lets later jobs pass) while POOL_JOBS of them run.
    let i = 0;
    while (i < queue.length) {
      const job = queue[i]!;
      if (job.pool && poolJobs >= POOL_JOBS) {
        i++;
        continue;
      }
      const slot = freeSlot();
      if (!slot) return;
      queue.splice(i, 1);
      slot.jobs.push(job);
      if (observe) job.sentAt = performance.now();
      if (job.stored !== undefined) {
        if (job.pool) poolJobs++;
        slot.worker.postMessage({ id: job.id, password: job.password, stored: job.stored });
      } else {
        slot.worker.postMessage({ id: job.id, password: job.password, salt: job.salt, expected: job.expected });
      }
    }
  };

  const settle = (slot: Slot, job: Job) => {
    slot.jobs.splice(slot.jobs.indexOf(job), 1);
    if (job.pool) poolJobs--;
    if (observe && job.askedAt !== undefined) {
      const asked = job.askedAt;
      const end = performance.now();
      observe(job.salt !== undefined && job.expected === undefined ? "hash" : "verify", ((job.sentAt ?? end) - asked) / 1000, (end - asked) / 1000);
    }
  };

  const spawn = (): Slot => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { params: SCRYPT, nice: opts.nice, modules: resolveNativeModules() },
      resourceLimits: { maxOldGenerationSizeMb: 32 },
    });
    worker.unref();
    const slot: Slot = { worker, jobs: [] };
    worker.on("message", (message: { id: number; key?: string; ok?: boolean; error?: string }) => {
      const job = slot.jobs[0]?.id === message.id ? slot.jobs[0] : slot.jobs.find((j) => j.id === message.id);
      if (job) {
        settle(slot, job);
        if (message.error) job.reject(new Error(message.error));
        else job.resolve(message);
      }
      dispatch();
    });
    worker.on("error", (error) => {
      for (const job of [...slot.jobs]) {
        settle(slot, job);
        job.reject(error);
      }
      slots.splice(slots.indexOf(slot), 1);
      if (!closed) dispatch();
    });
    slots.push(slot);
    return slot;
  };

  const run = (spec: Omit<Job, "id" | "resolve" | "reject">) =>
    new Promise<{ key?: string; ok?: boolean }>((resolve, reject) => {
      if (closed) return reject(serviceStopping());
      if (queue.length >= maxQueue) {
        return reject(new APIError("SERVICE_UNAVAILABLE", HTTP_MESSAGES.TOO_MANY_REQUESTS_PLEASE_TRY_AGAIN_LATER));
      }
      const job: Job = { id: nextId++, ...spec, resolve, reject };
      if (observe) job.askedAt = performance.now();
      queue.push(job);
      dispatch();
    });

  const verify = async (hash: string, password: string): Promise<boolean> => {
    const format = storedHashFormat(hash);
    if (format !== "scrypt") {
      const result = await run({ password, stored: hash, pool: format === "argon2" });
      return result.ok === true;
    }
    const [salt, key] = hash.split(":");
    if (!salt || !key || !/^[0-9a-f]+$/i.test(key)) return false;
    const result = await run({ password, salt, expected: key });
    return result.ok === true;
  };

  return {
    async hash(password) {
      const salt = randomBytes(16).toString("hex");
      const { key } = await run({ password, salt });
      return `${salt}:${key}`;
    },
    verify,
    async verifyDummy(password) {
      await verify(DUMMY_HASH, password);
    },
    stats() {
      let running = 0;
      for (const slot of slots) running += slot.jobs.length;
      return { queued: queue.length, running };
    },
    async close() {
      closed = true;
      // Requests still waiting for a hash when the service stops are answered 503 (their connections are usually
      // gone by then), not logged one by one as unhandled errors.
      const waiting = [...queue.splice(0), ...slots.flatMap((slot) => slot.jobs.splice(0))];
      await Promise.all(slots.map((s) => s.worker.terminate()));
      slots.length = 0;
      for (const job of waiting) job.reject(serviceStopping());
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


import { execFile } from "node:child_process";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * The malloc settings Gatehouse's launcher (server/bin/gatehouse) starts Node with: scrypt's 32 MiB scratch
 * buffer stays in the heap instead of being mapped and faulted in again for every hash.
 */
export const TUNED_MALLOC = "glibc.malloc.mmap_threshold=67108864:glibc.malloc.trim_threshold=268435456:glibc.malloc.arena_max=1";

/** The parameters Gatehouse and Better Auth hash passwords with. */
export const SCRYPT = { N: 16384, r: 16, p: 1, keyLength: 64, maxmem: 64 * 1024 * 1024 };

const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { scryptSync, randomBytes } = require("node:crypto");
const { N, r, p, keyLength, maxmem } = workerData.scrypt;
const end = Date.now() + workerData.ms;
let count = 0;
while (Date.now() < end) {
  scryptSync("correct horse battery staple", randomBytes(16).toString("hex"), keyLength, { N, r, p, maxmem });
  count++;
}
parentPort.postMessage(count);
`;

/**
 * The machine's password-hash limit: scrypt hashes per second with one thread per core, each hashing in a
 * loop. Hashes that finish after the window are counted, and the rate is taken over the real elapsed time.
 */
export async function measureHashLimit(seconds, threads = availableParallelism()) {
  const started = performance.now();
  const counts = await Promise.all(
    Array.from(
      { length: threads },
      () =>
        new Promise((resolve, reject) => {
          const worker = new Worker(WORKER, { eval: true, workerData: { scrypt: SCRYPT, ms: seconds * 1000 } });
          worker.once("message", resolve);
          worker.once("error", reject);
        }),
    ),
  );
  const elapsed = (performance.now() - started) / 1000;
  const hashes = counts.reduce((a, b) => a + b, 0);
  return {
    threads,
    seconds: Math.round(elapsed * 100) / 100,
    hashes,
    hashesPerSecond: Math.round((hashes / elapsed) * 10) / 10,
    msPerHashPerCore: Math.round(((elapsed * 1000 * threads) / hashes) * 10) / 10,
    params: SCRYPT,
  };
}

/**
 * The same measurement in a fresh Node process started with `env` added (for example GLIBC_TUNABLES, which glibc
 * reads only when a process starts).
 */
export function measureHashLimitWith(env, seconds, threads = availableParallelism()) {
  const child = fileURLToPath(new URL("./hash-limit-child.mjs", import.meta.url));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [child, String(seconds), String(threads)],
      { env: { ...process.env, ...env } },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout))),
    );
  });
}

import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * WAL checkpoints off the event loop. better-sqlite3 is synchronous, and with `synchronous = NORMAL` the only
 * write that waits for the disk (fsync) is a checkpoint, which SQLite by default runs inside whichever COMMIT
 * pushes the WAL past 1000 pages: a request's event loop would stall for the fsync. The service's connection
 * turns automatic checkpoints off, and this worker thread, with a connection of its own to the same file, runs a
 * PASSIVE checkpoint every `intervalMs` (it never blocks writers; pages still read by someone wait for the next).
 *
 * A PASSIVE checkpoint copies the WAL into the database but never starts the WAL over: SQLite starts it over only
 * when a write finds every frame copied, which under a steady stream of writes never happens, so the WAL would grow
 * as long as the writes last (2.5 GB in 90 s of token requests, for an 18 MB database). So when the WAL holds more
 * than `restartBytes`, the worker runs a RESTART checkpoint: it waits for the writer's lock (in this thread), copies
 * the few frames the PASSIVE one left, and makes the next write start the WAL from its beginning. Writes wait for
 * it meanwhile (a few milliseconds, once per `restartBytes` written). The service's connection keeps the file at
 * `restartBytes` when it starts over (`journal_size_limit`, database.ts), so a burst's WAL is given back to the disk.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma("busy_timeout = 5000");
const pageBytes = db.pragma("page_size", { simple: true }) + 24;
const checkpoint = (mode) => { try { return db.pragma("wal_checkpoint(" + mode + ")")[0]; } catch { return null; } };
const pass = () => {
  const done = checkpoint("PASSIVE");
  if (!done || done.log * pageBytes <= workerData.restartBytes) return;
  const restarted = checkpoint("RESTART");
  if (restarted && restarted.busy === 0) parentPort.postMessage("restarted");
};
const timer = setInterval(pass, workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  checkpoint("PASSIVE");
  db.close();
  parentPort.postMessage("stopped");
});
`;

/** The WAL's size past which the checkpointer starts it over (and the size the file is kept at). */
export const WAL_RESTART_BYTES = 64 * 1024 * 1024;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(
  path: string,
  { intervalMs = 1000, restartBytes = WAL_RESTART_BYTES, onRestart }: { intervalMs?: number; restartBytes?: number; onRestart?: () => void } = {},
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, driver, intervalMs, restartBytes } });
  worker.unref();
  worker.on("message", (message) => {
    if (message === "restarted") onRestart?.();
  });
  let stopped: Promise<void> | null = null;
  return {
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        const done = () => void worker.terminate().finally(resolve);
        const timeout = setTimeout(done, 2000);
        worker.on("message", (message) => {
          if (message !== "stopped") return;
          clearTimeout(timeout);
          done();
        });
        worker.once("error", () => {
          clearTimeout(timeout);
          done();
        });
        worker.postMessage("stop");
      });
      return stopped;
    },
  };
}

import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * WAL checkpoints off the event loop. better-sqlite3 is synchronous, and with `synchronous = NORMAL` the only
 * write that waits for the disk (fsync) is a checkpoint, which SQLite by default runs inside whichever COMMIT
 * pushes the WAL past 1000 pages: a request's event loop would stall for the fsync. The service's connection
 * turns automatic checkpoints off, and this worker thread, with a connection of its own to the same file, runs a
 * PASSIVE checkpoint every `intervalMs` (it never blocks writers; pages still read by someone wait for the next).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma("busy_timeout = 5000");
const checkpoint = () => { try { db.pragma("wal_checkpoint(PASSIVE)"); } catch {} };
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.postMessage("stopped");
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(path: string, intervalMs = 1000): Checkpointer {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, driver, intervalMs } });
  worker.unref();
  let stopped: Promise<void> | null = null;
  return {
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        const done = () => void worker.terminate().finally(resolve);
        const timeout = setTimeout(done, 2000);
        worker.once("message", () => {
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

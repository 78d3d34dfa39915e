import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { createStores, migrateDatabase } from "../src/modules.js";
import { openDatabase } from "../src/storage/index.js";
import { startCheckpointer } from "../src/storage/sqlite-checkpointer.js";
import { userRecord } from "./helpers/storage.js";

const dir = mkdtempSync(join(tmpdir(), "gatehouse-wal-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("moves committed pages from the WAL into the database file from its worker, not inside requests", async () => {
  const file = join(dir, "wal.db");
  const handle = openDatabase({ url: `sqlite://${file}` });
  try {
    await migrateDatabase(handle);
    const stores = createStores(handle.db, { dialect: handle.dialect });
    await sleep(1500);
    const before = statSync(file).size;
    const t0 = new Date("2026-01-01T00:00:00.000Z");
    for (let i = 0; i < 40; i++) {
      await stores.transaction(async (trx) => {
        for (let j = 0; j < 25; j++) {
          await trx.users.createUser(userRecord(t0, { name: `Person ${i}-${j} ${"x".repeat(200)}` }));
        }
      });
    }
    // The commits themselves never checkpoint (automatic checkpoints are off on the service's connection)...
    const walAfterWrites = statSync(`${file}-wal`).size;
    expect(walAfterWrites).toBeGreaterThan(100_000);
    // ...the worker does, within its interval: the rows reach the database file while the service keeps running.
    await sleep(1800);
    expect(statSync(file).size).toBeGreaterThan(before + 100_000);
  } finally {
    await handle.close();
  }
});

it("starts the WAL over while writes never stop, instead of letting it grow as long as they last", async () => {
  const file = join(dir, "steady.db");
  const raw = new BetterSqlite3(file);
  raw.pragma("journal_mode = WAL");
  raw.pragma("synchronous = NORMAL");
  raw.pragma("wal_autocheckpoint = 0");
  const limit = 256 * 1024;
  raw.pragma(`journal_size_limit = ${limit}`);
  raw.exec("create table t (id integer primary key, k text not null, v text not null)");
  raw.exec("create index t_k on t (k)");
  let restarts = 0;
  const checkpointer = startCheckpointer(file, { intervalMs: 20, restartBytes: limit, onRestart: () => (restarts += 1) });
  try {
    const insert = raw.prepare("insert into t (k, v) values (?, ?)");
    const value = "v".repeat(1500);
    let written = 0;
    const deadline = Date.now() + 30_000;
    // A steady stream of small transactions (as requests commit), over 20 MB of WAL frames in all, never pausing
    // long enough for a passive checkpoint to catch up, until the worker has started the WAL over a few times.
    while ((written < 15_000 || restarts < 3) && Date.now() < deadline) {
      for (let i = 0; i < 50; i++) insert.run(`${written}-${i}-${Math.random()}`, value);
      written += 50;
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Each restart made the next write start the WAL from its beginning, while the writes went on: without them
    // (PASSIVE checkpoints only) the WAL never starts over until the writes pause, and holds every frame written.
    expect(restarts).toBeGreaterThanOrEqual(3);
    expect((raw.prepare("select count(*) as n from t").get() as { n: number }).n).toBe(written);
  } finally {
    await checkpointer.stop();
    raw.close();
  }
});

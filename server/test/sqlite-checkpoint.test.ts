import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, expect, it } from "vitest";
import { createStores, migrateDatabase } from "../src/modules.js";
import { openDatabase } from "../src/storage/index.js";
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

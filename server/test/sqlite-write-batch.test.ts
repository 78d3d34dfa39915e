import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { sql, type Kysely } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../src/storage/index.js";
import { batchedWriteOf, type BatchedWrite } from "../src/storage/sqlite-write-batch.js";
import { precompiled, type Param } from "../src/storage/precompiled.js";

const dir = mkdtempSync(join(tmpdir(), "gatehouse-batch-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
async function open(): Promise<{ handle: DatabaseHandle; file: string; batched: BatchedWrite }> {
  const file = join(dir, `batch-${files++}.db`);
  const handle = openDatabase({ url: `sqlite://${file}` });
  await sql`create table t (id integer primary key, k text not null unique, n integer not null default 0)`.execute(handle.db);
  const batched = batchedWriteOf(handle.db);
  if (!batched) throw new Error("no batcher for SQLite");
  return { handle, file, batched };
}

const INSERT = "insert into t (k) values (?)";
const keys = async (handle: DatabaseHandle) =>
  (await sql<{ k: string }>`select k from t order by id`.execute(handle.db)).rows.map((row) => row.k);

/**
 * Another request's transaction, open on the connection with a row ("in-transaction") written and not committed, until
 * `release`: then it rolls back.
 */
async function openTransaction(handle: DatabaseHandle): Promise<{ release: () => void; transaction: Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let inserted!: () => void;
  const insertedInTransaction = new Promise<void>((resolve) => (inserted = resolve));
  const transaction = handle.db.transaction().execute(async (trx) => {
    await sql`insert into t (k) values (${"in-transaction"})`.execute(trx);
    inserted();
    await released;
    throw new Error("rolled back");
  });
  await insertedInTransaction;
  return { release, transaction };
}

/** Frames in the WAL now (a passive checkpoint, from a connection of its own, reports them). */
function walFrames(file: string): number {
  const reader = new BetterSqlite3(file);
  try {
    const [row] = reader.pragma("wal_checkpoint(PASSIVE)") as { log: number }[];
    return row!.log;
  } finally {
    reader.close();
  }
}

describe("SQLite group commit (storage/sqlite-write-batch.ts)", () => {
  it("commits the writes of one turn of the event loop together: each changed page reaches the WAL once", async () => {
    const { handle, file, batched } = await open();
    try {
      const startFrames = walFrames(file);
      // 40 writes handed over at once: one transaction, one commit.
      await Promise.all(Array.from({ length: 40 }, (_, i) => batched((run) => run(INSERT, [`together-${i}`]))));
      const together = walFrames(file) - startFrames;
      // 40 writes one after the other: a commit each.
      for (let i = 0; i < 40; i++) await batched((run) => run(INSERT, [`apart-${i}`]));
      const apart = walFrames(file) - startFrames - together;
      expect(together).toBeLessThanOrEqual(4);
      expect(apart).toBeGreaterThanOrEqual(40);
      expect(await keys(handle)).toHaveLength(80);
    } finally {
      await handle.close();
    }
  });

  it("answers each write what it decided from its own statements' changes", async () => {
    const { handle, batched } = await open();
    try {
      await batched((run) => run(INSERT, ["token"]));
      // Two requests marking the same row used in one batch: only the first marks it.
      const mark = () => batched((run) => run("update t set n = 1 where k = ? and n = 0", ["token"]).changes === 1);
      expect(await Promise.all([mark(), mark(), mark()])).toEqual([true, false, false]);
    } finally {
      await handle.close();
    }
  });

  it("fails only the write that throws: the batch runs again, each write on its own, and the others are written", async () => {
    const { handle, batched } = await open();
    try {
      const results = await Promise.allSettled([
        batched((run) => run(INSERT, ["first"])),
        batched((run) => {
          run(INSERT, ["half-written"]);
          run(INSERT, ["first"]); // unique constraint: this write fails, and its first row must not stay
        }),
        batched((run) => run(INSERT, ["last"]).changes),
      ]);
      expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
      expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: "SQLITE_CONSTRAINT_UNIQUE" });
      expect((results[2] as PromiseFulfilledResult<number>).value).toBe(1);
      expect(await keys(handle)).toEqual(["first", "last"]);
    } finally {
      await handle.close();
    }
  });

  it("never runs inside another request's open transaction: it waits for it, and keeps its rows when that one rolls back", async () => {
    const { handle, batched } = await open();
    try {
      const { release, transaction } = await openTransaction(handle);
      let settled = false;
      const write = batched((run) => run(INSERT, ["batched"])).then((value) => {
        settled = true;
        return value;
      });
      // Several turns of the event loop later, the write still waits for the transaction.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false);
      release();
      await expect(transaction).rejects.toThrow("rolled back");
      expect(await write).toEqual({ changes: 1 });
      expect(await keys(handle)).toEqual(["batched"]);
    } finally {
      await handle.close();
    }
  });

  it("settles the writes still waiting when the database is closed (written or refused), never leaves them pending", async () => {
    const { handle, batched } = await open();
    const write = batched((run) => run(INSERT, ["late"])).then(
      () => "written",
      () => "refused",
    );
    await handle.close();
    const pending = new Promise((resolve) => setTimeout(() => resolve("pending"), 2000));
    expect(["written", "refused"]).toContain(await Promise.race([write, pending]));
  });

  it("runs a hot statement at once when no transaction is open, and waits for another request's open transaction without seeing its writes", async () => {
    const { handle } = await open();
    const countOf = precompiled(
      (db: Kysely<any>, v: Param<{ k: string }>) => db.selectFrom("t").select((eb) => eb.fn.countAll().as("n")).where("k", "=", v("k")),
      { named: true },
    );
    const count = async (k: string) => Number(((await countOf(handle.db, "sqlite", { k })).rows[0] as { n: number }).n);
    try {
      expect(await count("in-transaction")).toBe(0);
      const { release, transaction } = await openTransaction(handle);
      let answered: number | undefined;
      const read = count("in-transaction").then((n) => (answered = n));
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(answered).toBeUndefined();
      release();
      await expect(transaction).rejects.toThrow("rolled back");
      // It never saw the row of the transaction that was rolled back.
      expect(await read).toBe(0);
    } finally {
      await handle.close();
    }
  });
});

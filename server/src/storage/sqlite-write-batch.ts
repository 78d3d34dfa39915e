import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";

/**
 * SQLite: the writes of several requests committed together ("group commit").
 *
 * A commit in WAL mode writes every page its transaction changed to the WAL, two writes per page, and on a token
 * request that commit was the largest single cost of the event loop (bench/README.md "OpenID Provider"). Requests
 * answered in the same turn of the event loop mostly change the same pages (the tail of each time-ordered index,
 * the events table's last page), so a write handed to `batchedWrite` waits for the end of the turn and runs with
 * the others of that turn in one transaction: each page is written once per batch, not once per request.
 *
 * A write is a synchronous function of `run` (a statement and its values: the rows it changed), so nothing else
 * runs between its statements. It may decide from what a statement changed (a token marked used only if no other
 * request marked it) and answer anything; it must leave the database as it was when it decides not to write.
 *
 * All or nothing per write, as if each had its own transaction: when a write throws, the batch is rolled back and
 * every write of it runs again in a transaction of its own, so the one that threw fails alone (with its error) and
 * the others are written. There are no savepoints: one copies every page it changes, which costs what the shared
 * commit saves.
 *
 * The batch runs while it holds Kysely's connection (`db.connection()`), so never inside a transaction another
 * request has open on the one connection, and each write's promise settles once its transaction is committed.
 */
export type SyncRun = (sql: string, parameters: readonly unknown[]) => { changes: number };
export type BatchedWrite = <T>(write: (run: SyncRun) => T) => Promise<T>;

interface Pending {
  write: (run: SyncRun) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * `prepare` answers a prepared statement for its SQL: the connection's statement cache (database.ts), which Kysely's
 * statements and the hot ones share.
 */
export function sqliteWriteBatcher(
  raw: BetterSqlite3.Database,
  db: Kysely<any>,
  prepare: (sql: string) => BetterSqlite3.Statement,
): BatchedWrite {
  const run: SyncRun = (sql, parameters) => ({ changes: prepare(sql).run(parameters as unknown[]).changes });
  const begin = raw.prepare("begin");
  const commit = raw.prepare("commit");
  const rollback = raw.prepare("rollback");

  /** Runs writes in one transaction: their answers, or throws (rolled back) when one throws. */
  const inOneTransaction = (writes: readonly Pending[]): unknown[] => {
    begin.run();
    try {
      const answers = writes.map((pending) => pending.write(run));
      commit.run();
      return answers;
    } catch (error) {
      if (raw.inTransaction) rollback.run();
      throw error;
    }
  };

  let queue: Pending[] = [];
  let scheduled = false;

  const runBatch = (batch: readonly Pending[]) => {
    let answers: unknown[];
    try {
      answers = inOneTransaction(batch);
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      // One of them threw: each again on its own, so only the one that fails is refused.
      for (const pending of batch) {
        try {
          pending.resolve(inOneTransaction([pending])[0]);
        } catch (own) {
          pending.reject(own);
        }
      }
      return;
    }
    batch.forEach((pending, i) => pending.resolve(answers[i]));
  };

  const flush = () => {
    scheduled = false;
    db.connection()
      .execute(async () => {
        // What was queued until the connection was free, including writes queued while it waited.
        const batch = queue;
        queue = [];
        if (batch.length) runBatch(batch);
      })
      .catch((error: unknown) => {
        // The connection could not be had (the database closed): every write still queued fails with it.
        const batch = queue;
        queue = [];
        for (const pending of batch) pending.reject(error);
      });
  };

  return <T>(write: (run: SyncRun) => T) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}

const batchers = new WeakMap<object, BatchedWrite>();

/** Registers the batcher of `db`, the pool's own instance (database.ts; a transaction's instance has none). */
export function registerBatchedWrite(db: Kysely<any>, batcher: BatchedWrite): void {
  batchers.set(db, batcher);
}

/** The batcher of `db`: SQLite, outside a transaction, else undefined (the caller writes as it otherwise would). */
export function batchedWriteOf(db: Kysely<any>): BatchedWrite | undefined {
  return batchers.get(db);
}

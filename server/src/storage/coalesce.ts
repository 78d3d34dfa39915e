/**
 * Reads by key, coalesced under load. While fewer than `concurrency` reads are out, a key is read at once on its
 * own (no added latency when the service is quiet). Beyond that, keys wait, and each read that comes back sends
 * everything that waited as one read of many keys (up to `maxBatch`): one round trip, one statement for the
 * database to parse, plan and run, instead of one each. A waiting key is read by a statement that starts after it
 * arrived, so it sees every write committed before its request came in.
 *
 * `readMany` answers the rows found, in any order; `keyOf` tells a row's key. Keys asked for twice in one batch
 * are read once. A read of one key goes to `readOne`: the statement made for one key, whose plan is the cheapest
 * for it (a quiet service pays nothing for the batching). A failed read fails every key it carried.
 */
export function coalescingReader<K, R>(opts: {
  readOne: (key: K) => Promise<R | undefined>;
  readMany: (keys: K[]) => Promise<R[]>;
  keyOf: (row: R) => K;
  concurrency: number;
  maxBatch: number;
}): (key: K) => Promise<R | undefined> {
  interface Waiter {
    key: K;
    resolve(row: R | undefined): void;
    reject(error: unknown): void;
  }
  let inFlight = 0;
  const waiting: Waiter[] = [];

  const settle = (batch: Waiter[], rows: R[]) => {
    const byKey = new Map<K, R>();
    for (const row of rows) byKey.set(opts.keyOf(row), row);
    for (const waiter of batch) waiter.resolve(byKey.get(waiter.key));
  };

  const send = (batch: Waiter[]) => {
    inFlight++;
    const keys = [...new Set(batch.map((w) => w.key))];
    let read: Promise<R[]>;
    try {
      read = keys.length === 1 ? opts.readOne(keys[0]!).then((row) => (row === undefined ? [] : [row])) : opts.readMany(keys);
    } catch (error) {
      read = Promise.reject(error);
    }
    read.then(
      (rows) => {
        done();
        settle(batch, rows);
      },
      (error: unknown) => {
        done();
        for (const waiter of batch) waiter.reject(error);
      },
    );
  };

  const done = () => {
    inFlight--;
    if (waiting.length > 0) send(waiting.splice(0, opts.maxBatch));
  };

  return (key) =>
    new Promise<R | undefined>((resolve, reject) => {
      const waiter = { key, resolve, reject };
      if (inFlight < opts.concurrency) send([waiter]);
      else waiting.push(waiter);
    });
}

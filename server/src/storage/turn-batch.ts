/**
 * Calls made during one turn of the event loop, answered together at its end by one call of `flush`: PostgreSQL's
 * hot token statements (oidc-provider/store/payloads.ts), where one statement for the requests of a turn costs the
 * database and the event loop a fraction of one statement each (bench/README.md "What moved it").
 *
 * `flush` gets the items in the order they were handed in (at most `maxBatch` at once: a longer queue is flushed
 * in several calls, side by side) and answers one settled result per item (as `Promise.allSettled` does), in that
 * order, so each call fails or succeeds on its own; a `flush` that throws fails every item of its call with that
 * error. An item waits for the end of the turn it was handed in (`setImmediate`), never longer.
 */
export function turnBatcher<I, O>(
  flush: (items: readonly I[]) => Promise<readonly PromiseSettledResult<O>[]>,
  maxBatch = 64,
): (item: I) => Promise<O> {
  type Pending = { item: I; resolve: (value: O) => void; reject: (error: unknown) => void };
  let queue: Pending[] = [];
  let scheduled = false;

  const settle = (batch: readonly Pending[]) => {
    let answered: Promise<readonly PromiseSettledResult<O>[]>;
    try {
      answered = flush(batch.map((pending) => pending.item));
    } catch (error) {
      answered = Promise.reject(error);
    }
    answered.then(
      (results) =>
        batch.forEach((pending, i) => {
          const result = results[i];
          if (!result) pending.reject(new Error("turnBatcher: the flush answered fewer results than items"));
          else if (result.status === "fulfilled") pending.resolve(result.value);
          else pending.reject(result.reason);
        }),
      (error: unknown) => batch.forEach((pending) => pending.reject(error)),
    );
  };

  const run = () => {
    scheduled = false;
    const pending = queue;
    queue = [];
    for (let i = 0; i < pending.length; i += maxBatch) settle(pending.slice(i, i + maxBatch));
  };

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(run);
      }
    });
}

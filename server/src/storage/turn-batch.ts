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

/**
 * A turnBatcher `flush` for statements that serve several requests at once: the items run as one batch (`runBatch`,
 * which answers one value per item, in order), and each item runs on its own (`runOne`) when it is alone or when the
 * batch fails as a whole, so only the one at fault fails. An item whose `keyOf` repeats an earlier item's (a token or
 * challenge presented twice in one turn) is left out of the batch and runs on its own after it, where it meets the
 * first one's effect as it would have.
 */
export async function batchOrEach<I, O>(
  items: readonly I[],
  { runBatch, runOne, keyOf }: { runBatch: (items: I[]) => Promise<readonly O[]>; runOne: (item: I) => Promise<O>; keyOf?: (item: I) => string | undefined },
): Promise<PromiseSettledResult<O>[]> {
  const seen = new Set<string>();
  const together: number[] = [];
  const after: number[] = [];
  items.forEach((item, i) => {
    const key = keyOf?.(item);
    if (key !== undefined && seen.has(key)) return void after.push(i);
    if (key !== undefined) seen.add(key);
    together.push(i);
  });
  const results: PromiseSettledResult<O>[] = new Array(items.length);
  const each = async (indexes: readonly number[]) => {
    const settled = await Promise.allSettled(indexes.map((i) => runOne(items[i]!)));
    indexes.forEach((i, j) => (results[i] = settled[j]!));
  };
  if (together.length === 1) await each(together);
  else {
    try {
      const values = await runBatch(together.map((i) => items[i]!));
      together.forEach((i, j) => (results[i] = { status: "fulfilled", value: values[j]! }));
    } catch {
      await each(together);
    }
  }
  if (after.length) await each(after);
  return results;
}

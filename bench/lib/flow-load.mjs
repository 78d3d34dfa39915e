import autocannon from "autocannon";

/**
 * A load of multi-request operations (a sign-in and its second step; a passkey's options and its assertion), driven
 * by autocannon from this process: each connection runs the operation's requests one after the other, in a loop, on
 * its own keep-alive connection, and each request may be built from what the earlier ones answered (autocannon's
 * per-connection context). An operation counts when every one of its requests was accepted; its latency is from
 * the moment its first request was built (just before it was sent) to its last answer, with full precision.
 *
 * opts: url, duration (s), connections, timeout (s), name (for status keys),
 *   steps: [{ name, method, path, headers,
 *             build(context) -> { body?, headers? } | null (null: the operation cannot go on, counted as failed),
 *             accept(status, body, headers, context) -> true, or a reason string (the operation failed) }],
 *   end(context, ok) (optional): called once when an operation ends, whether it succeeded or not (e.g. returns a
 *   user it borrowed to a pool).
 * A step's headers are merged with what build() returns; response headers are given lower-cased (Set-Cookie as
 * an array).
 */
export function runFlowLoad(opts) {
  const latencies = [];
  const failures = {};
  const statuses = {};
  let ok = 0;
  let started = 0;
  const fail = (context, reason) => {
    failures[reason] = (failures[reason] ?? 0) + 1;
    context.failed = true;
    if (opts.end) opts.end(context, false);
  };
  const requests = opts.steps.map((step, index) => ({
    method: step.method ?? "GET",
    path: step.path,
    headers: step.headers ?? {},
    setupRequest(request, context) {
      if (index === 0) {
        // A fresh context for each operation (autocannon resets it after the last request).
        context.start = performance.now();
        context.failed = false;
        started++;
      } else if (context.failed) {
        return null; // back to the first request: a new operation
      }
      const built = step.build ? step.build(context) : {};
      if (!built) {
        if (index === 0) throw new Error(`${opts.name}: the first request of an operation must always be built`);
        fail(context, `${step.name}: not built`);
        return null;
      }
      return {
        ...request,
        headers: { ...request.headers, ...(built.headers ?? {}) },
        ...(built.body !== undefined ? { body: built.body } : {}),
      };
    },
    onResponse(status, body, context, rawHeaders) {
      const key = `${step.name} ${status}`;
      statuses[key] = (statuses[key] ?? 0) + 1;
      if (context.failed) return;
      const headers = {};
      for (const [name, value] of Object.entries(rawHeaders ?? {})) headers[name.toLowerCase()] = value;
      let verdict;
      try {
        verdict = step.accept ? step.accept(status, body, headers, context) : status >= 200 && status < 300;
      } catch (error) {
        verdict = `${step.name}: ${error.message}`;
      }
      if (verdict !== true) return fail(context, typeof verdict === "string" ? verdict : `${step.name}: ${status}`);
      if (index === opts.steps.length - 1) {
        ok++;
        latencies.push(performance.now() - context.start);
        if (opts.end) opts.end(context, true);
      }
    },
  }));

  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    autocannon(
      {
        url: opts.url,
        connections: opts.connections,
        duration: opts.duration,
        timeout: opts.timeout ?? 60,
        requests,
      },
      (error, result) => {
        if (error) return reject(error);
        const seconds = Math.min(Number(process.hrtime.bigint() - t0) / 1e9, opts.duration);
        const sorted = Float64Array.from(latencies).sort();
        const pct = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] : null);
        const round = (v) => (v === null ? null : Math.round(v * 1000) / 1000);
        const failed = Object.values(failures).reduce((a, b) => a + b, 0);
        resolve({
          seconds: Math.round(seconds * 100) / 100,
          ok,
          failed,
          failures,
          // Operations begun and neither finished nor failed when the load stopped (dropped, as autocannon drops
          // the last requests of a load).
          unfinished: started - ok - failed,
          requests: Object.values(statuses).reduce((a, b) => a + b, 0),
          statuses,
          errors: result.errors,
          timeouts: result.timeouts,
          // Operations per second (the figure compared with the targets), named as the single-request loads' rps.
          rps: Math.round((ok / seconds) * 10) / 10,
          p50: round(pct(50)),
          p90: round(pct(90)),
          p99: round(pct(99)),
          max: round(sorted.length ? sorted[sorted.length - 1] : null),
          mean: round(sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : null),
          // The per-request fields the reports look at on the other loads.
          non2xx: failed,
          stalled: [],
        });
      },
    );
  });
}

/** The Cookie header that sends back what a response's Set-Cookie lines set (those with a value). */
export function cookieHeaderOf(setCookie) {
  const lines = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  return lines
    .map((c) => c.split(";")[0])
    .filter((pair) => pair.split("=")[1])
    .join("; ");
}

import autocannon from "autocannon";

/**
 * One autocannon load, with latencies recorded by us at full precision (autocannon's own histogram keeps
 * whole milliseconds). Only 2xx responses count towards req/s and the latency percentiles.
 *
 * opts: url, duration (s), connections, method, path, headers, body, makeBody() (a fresh body per request),
 *       overallRate (req/s over all connections), timeout (s),
 *       headersOf(i) (the headers of connection i, instead of `headers`: a session of its own per connection)
 */
export function runLoad(opts) {
  const request = { method: opts.method ?? "GET", path: opts.path, headers: opts.headers ?? {} };
  if (opts.body !== undefined) request.body = opts.body;
  if (opts.makeBody) {
    request.setupRequest = (req) => ({ ...req, body: opts.makeBody() });
  }
  const latencies = [];
  const statuses = {};
  // When each connection's request in flight was sent (autocannon sends one at a time per connection), so the
  // requests still unanswered when the load stops can be reported rather than silently dropped.
  const pendingSince = [];
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const instance = autocannon(
      {
        url: opts.url,
        connections: opts.connections,
        duration: opts.duration,
        timeout: opts.timeout ?? 30,
        requests: [request],
        // A rate-limited load: latencies as measured, without autocannon's coordinated-omission backfill.
        ...(opts.overallRate ? { overallRate: opts.overallRate, ignoreCoordinatedOmission: true } : {}),
        setupClient(client) {
          const slot = pendingSince.push(null) - 1;
          if (opts.headersOf) client.setHeaders(opts.headersOf(slot));
          client.on("request", () => (pendingSince[slot] = performance.now()));
          client.on("response", () => (pendingSince[slot] = null));
          client.on("timeout", () => (pendingSince[slot] = null));
        },
      },
      (error, result) => {
        if (error) return reject(error);
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const now = performance.now();
        const unfinished = pendingSince.filter((t) => t !== null).map((t) => now - t);
        // For a paced load (overallRate), a request unanswered for longer than its connection's pacing interval
        // is a stall: it enters the percentiles with the time it had waited (a lower bound), so that a server
        // that stops answering cannot report a low p99. An unpaced load drops its last requests, as autocannon does.
        const interval = opts.overallRate ? (1000 * opts.connections) / opts.overallRate : Infinity;
        const stalled = unfinished.filter((ms) => ms > interval);
        resolve(summarise([...latencies, ...stalled], statuses, result, Math.min(seconds, opts.duration), unfinished, stalled));
      },
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

function summarise(latencies, statuses, result, seconds, unfinished, stalled) {
  const sorted = Float64Array.from(latencies).sort();
  const ok = Object.entries(statuses).reduce((n, [code, count]) => n + (code >= 200 && code < 300 ? count : 0), 0);
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  const round = (v) => (v === null ? null : Math.round(v * 1000) / 1000);
  return {
    seconds: Math.round(seconds * 100) / 100,
    ok,
    non2xx: total - ok,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    rps: Math.round((ok / seconds) * 10) / 10,
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.length ? sorted[sorted.length - 1] : null),
    mean: round(sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : null),
    unfinished: unfinished.length,
    /** Unanswered requests counted in the percentiles as lower bounds (paced loads only), in ms. */
    stalled: stalled.map(round),
  };
}

import type { Registry } from "prom-client";

/**
 * The request-duration histogram, kept apart from prom-client's Histogram because it is recorded on every request:
 * prom-client's observe() builds a label object and a hash string per call. Here each route gets its recorder once,
 * when the router is built (`route(path, method)`), and a recorder keeps one series per status it has answered: an
 * observation is a lookup by number, a bucket search and three additions, with no allocation after a status's first.
 * At scrape time the series are handed to the registry in prom-client's own value shape, so the text format (escaping,
 * `le`, `_bucket`/`_sum`/`_count`) is the registry's, exactly as for its own histograms.
 */

export interface RouteRecorder {
  /** One answered request: its status and how long it took, in seconds. */
  observe(status: number, seconds: number): void;
}

interface Series {
  labels: { route: string; method: string; status: string };
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

/** Upper bounds in seconds: a session read takes about a millisecond, a sign-in a password hash (tens of ms). */
export const HTTP_BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class RouteHistogram {
  readonly type = "histogram";
  readonly aggregator = "sum";
  private readonly series: Series[] = [];
  private readonly recorders = new Map<string, RouteRecorder>();

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
    private readonly bounds: readonly number[] = HTTP_BUCKETS,
  ) {
    // The registry reads `name`, `help`, `type` and `get()` (prom-client's metric contract); nothing else.
    registry.registerMetric(this as never);
  }

  /** The recorder of one route (its declared path, never a request's path) and method; one per pair. */
  route(route: string, method: string): RouteRecorder {
    const key = `${method} ${route}`;
    let recorder = this.recorders.get(key);
    if (recorder) return recorder;
    const byStatus = new Map<number, Series>();
    const { bounds, series } = this;
    recorder = {
      observe(status, seconds) {
        let entry = byStatus.get(status);
        if (!entry) {
          entry = { labels: { route, method, status: String(status) }, buckets: new Float64Array(bounds.length + 1), sum: 0, count: 0 };
          byStatus.set(status, entry);
          series.push(entry);
        }
        let i = 0;
        while (i < bounds.length && seconds > bounds[i]!) i++;
        entry.buckets[i]! += 1;
        entry.sum += seconds;
        entry.count += 1;
      },
    };
    this.recorders.set(key, recorder);
    return recorder;
  }

  /** prom-client's shape: per series, cumulative `_bucket` values with `le`, then `_sum` and `_count`. */
  get(): { name: string; help: string; type: string; aggregator: string; values: MetricValue[] } {
    const values: MetricValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const entry of this.series) {
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        cumulative += entry.buckets[i]!;
        values.push({ labels: { ...entry.labels, le: this.bounds[i]! }, value: cumulative, metricName: bucketName });
      }
      values.push({ labels: { ...entry.labels, le: "+Inf" }, value: entry.count, metricName: bucketName });
      values.push({ labels: entry.labels, value: entry.sum, metricName: `${this.name}_sum` });
      values.push({ labels: entry.labels, value: entry.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

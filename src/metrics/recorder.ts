/**
 * What `/metrics` counts as it happens, per server: HTTP requests and their response times (per
 * method, route pattern and status, with v1.50's histogram buckets), searches the `searchCutoffMs`
 * budget cut short, and personalized searches (Quarry has no personalization service: none).
 * The other families are read when `/metrics` is asked (families.ts).
 */
import { byLabelValues, type Family } from './exposition.js';

/** v1.50's buckets of `meilisearch_http_response_time_seconds`, in seconds. */
export const RESPONSE_TIME_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

interface Histogram {
  method: string;
  path: string;
  /** observations at or below each bucket's bound */
  counts: number[];
  sum: number;
  count: number;
}

export class MetricsRecorder {
  /** `method path status` → requests */
  private readonly totals = new Map<string, { method: string; path: string; status: string; value: number }>();
  /** `method path` → response times */
  private readonly times = new Map<string, Histogram>();
  private degraded = 0;

  /** One answered request of the route `path` (its pattern, e.g. `/indexes/{index_uid}/search`). */
  request(method: string, path: string, status: number, seconds: number): void {
    const totalKey = `${method} ${path} ${status}`;
    const total = this.totals.get(totalKey) ?? { method, path, status: String(status), value: 0 };
    total.value++;
    this.totals.set(totalKey, total);
    const timeKey = `${method} ${path}`;
    const time = this.times.get(timeKey) ?? { method, path, counts: RESPONSE_TIME_BUCKETS.map(() => 0), sum: 0, count: 0 };
    RESPONSE_TIME_BUCKETS.forEach((bound, i) => {
      if (seconds <= bound) time.counts[i]!++;
    });
    time.sum += seconds;
    time.count++;
    this.times.set(timeKey, time);
  }

  /** A search whose ranking the time budget cut short. */
  degradedSearch(): void {
    this.degraded++;
  }

  families(): Family[] {
    return [
      {
        name: 'meilisearch_http_requests_total',
        help: 'Meilisearch HTTP requests total',
        type: 'counter',
        samples: [...this.totals.values()].map(({ method, path, status, value }) => ({ labels: { method, path, status }, value })),
      },
      {
        name: 'meilisearch_http_response_time_seconds',
        help: 'Meilisearch HTTP response times',
        type: 'histogram',
        samples: [...this.times.values()].sort((a, b) => byLabelValues({ labels: { method: a.method, path: a.path } }, { labels: { method: b.method, path: b.path } })).flatMap(({ method, path, counts, sum, count }) => [
          ...RESPONSE_TIME_BUCKETS.map((bound, i) => ({ labels: { method, path, le: String(bound) }, value: counts[i]!, suffix: '_bucket' })),
          { labels: { method, path, le: '+Inf' }, value: count, suffix: '_bucket' },
          { labels: { method, path }, value: sum, suffix: '_sum' },
          { labels: { method, path }, value: count, suffix: '_count' },
        ]),
      },
      { name: 'meilisearch_degraded_search_requests', help: 'Meilisearch number of degraded search requests', type: 'gauge', samples: [{ value: this.degraded }] },
      { name: 'meilisearch_personalized_search_requests', help: 'Meilisearch number of search requests with personalization', type: 'gauge', samples: [{ value: 0 }] },
    ];
  }
}

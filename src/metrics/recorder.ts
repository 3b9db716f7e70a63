/**
 * What `/metrics` counts as it happens, per server: HTTP requests (per method, route pattern or
 * unmatched path, and status) and their response times (per method and route pattern, with v1.50's
 * histogram buckets), searches the `searchCutoffMs`
 * budget cut short, `/search` requests with `personalize` (counted as v1.50 counts them, before they run), and the
 * chat route's searches and tokens (per workspace and model, from the providers' usage chunks;
 * the first MAX_CHAT_MODELS pairs).
 * The other families are read when `/metrics` is asked (families.ts).
 */
import { byLabelValues, type Family } from './exposition.js';

/**
 * Distinct paths of unmatched requests counted as labels. v1.50 labels such a request by its own
 * path and keeps every series, so a flood of random paths grows its registry without bound;
 * Quarry counts the first MAX_UNMATCHED_PATHS paths so and leaves requests to any other
 * unmatched path uncounted (README, compatibility).
 */
export const MAX_UNMATCHED_PATHS = 1000;

/**
 * Distinct workspace and model pairs whose chat tokens are counted. The model is whatever the
 * request names: 1,000 requests naming 90 KB models made `/metrics` a 270 MB answer (v1.50 keeps
 * every pair); the tokens of any other pair are left uncounted (README, compatibility).
 */
export const MAX_CHAT_MODELS = 1000;

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
  /** the paths unmatched requests are counted under */
  private readonly unmatchedPaths = new Set<string>();
  /** `method path` → response times */
  private readonly times = new Map<string, Histogram>();
  private degraded = 0;
  private personalized = 0;
  /** search type → searches run by the chat route */
  private readonly chatSearches = new Map<string, number>();
  /** `workspace model` → tokens the providers reported */
  private readonly chatTokens = new Map<string, { workspace: string; model: string; prompt: number; completion: number; total: number }>();

  /**
   * One answered request of the route `path` (its pattern, e.g. `/indexes/{index_uid}/search`);
   * `seconds`, its response time, when it is recorded (null: the `metrics` feature is off).
   */
  request(method: string, path: string, status: number, seconds: number | null): void {
    this.count(method, path, status);
    if (seconds === null) return;
    const timeKey = `${method} ${path}`;
    const time = this.times.get(timeKey) ?? { method, path, counts: RESPONSE_TIME_BUCKETS.map(() => 0), sum: 0, count: 0 };
    RESPONSE_TIME_BUCKETS.forEach((bound, i) => {
      if (seconds <= bound) time.counts[i]!++;
    });
    time.sum += seconds;
    time.count++;
    this.times.set(timeKey, time);
  }

  /** One answered request no route matched, counted under its own `path` (see MAX_UNMATCHED_PATHS). */
  unmatched(method: string, path: string, status: number): void {
    if (!this.unmatchedPaths.has(path)) {
      if (this.unmatchedPaths.size >= MAX_UNMATCHED_PATHS) return;
      this.unmatchedPaths.add(path);
    }
    this.count(method, path, status);
  }

  private count(method: string, path: string, status: number): void {
    const totalKey = `${method} ${path} ${status}`;
    const total = this.totals.get(totalKey) ?? { method, path, status: String(status), value: 0 };
    total.value++;
    this.totals.set(totalKey, total);
  }

  /** A `/search` request with `personalize`, whatever becomes of it. */
  personalizedSearch(): void {
    this.personalized++;
  }

  /** A search whose ranking the time budget cut short. */
  degradedSearch(): void {
    this.degraded++;
  }

  /** A search the chat route ran for an LLM. */
  chatSearch(type = 'internal'): void {
    this.chatSearches.set(type, (this.chatSearches.get(type) ?? 0) + 1);
  }

  /** The tokens a provider's usage chunk reported for one call of a chat completion. */
  chatUsage(workspace: string, model: string, usage: { prompt: number; completion: number; total: number }): void {
    const key = `${workspace} ${model}`;
    if (!this.chatTokens.has(key) && this.chatTokens.size >= MAX_CHAT_MODELS) return;
    const tokens = this.chatTokens.get(key) ?? { workspace, model, prompt: 0, completion: 0, total: 0 };
    tokens.prompt += usage.prompt;
    tokens.completion += usage.completion;
    tokens.total += usage.total;
    this.chatTokens.set(key, tokens);
  }

  families(): Family[] {
    const tokens = [...this.chatTokens.values()];
    const tokenSamples = (count: (t: (typeof tokens)[number]) => number) => tokens.map((t) => ({ labels: { workspace: t.workspace, model: t.model }, value: count(t) }));
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
      { name: 'meilisearch_personalized_search_requests', help: 'Meilisearch number of search requests with personalization', type: 'gauge', samples: [{ value: this.personalized }] },
      // families with labels show once they have a series, as v1.50's label vectors
      {
        name: 'meilisearch_chat_searches_total',
        help: 'Total number of searches performed by the chat route',
        type: 'counter',
        samples: [...this.chatSearches].map(([type, value]) => ({ labels: { type }, value })),
      },
      { name: 'meilisearch_chat_prompt_tokens_total', help: 'Total number of prompt tokens consumed', type: 'counter', samples: tokenSamples((t) => t.prompt) },
      { name: 'meilisearch_chat_completion_tokens_total', help: 'Total number of completion tokens consumed', type: 'counter', samples: tokenSamples((t) => t.completion) },
      { name: 'meilisearch_chat_tokens_total', help: 'Total number of tokens consumed (prompt + completion)', type: 'counter', samples: tokenSamples((t) => t.total) },
    ];
  }
}

/**
 * The Prometheus text of /metrics: family order, HELP/TYPE lines, escaping, pruned empty
 * families; the recorder's histogram; progress-trace durations read as humantime reads them.
 */
import { describe, expect, it } from 'vitest';
import { exposition } from '../../../src/metrics/exposition.js';
import { traceMilliseconds } from '../../../src/metrics/families.js';
import { MAX_CHAT_MODELS, MAX_UNMATCHED_PATHS, MetricsRecorder, RESPONSE_TIME_BUCKETS } from '../../../src/metrics/recorder.js';

describe('exposition', () => {
  it('sorts families by name, escapes label values and leaves out families without samples', () => {
    const text = exposition([
      { name: 'b_total', help: 'B', type: 'counter', samples: [{ labels: { path: 'a"b\\c\nd' }, value: 2 }] },
      { name: 'c_empty', help: 'C', type: 'gauge', samples: [] },
      { name: 'a_gauge', help: 'A help', type: 'gauge', samples: [{ value: 0.5 }, { value: Number.POSITIVE_INFINITY, suffix: '_x' }] },
    ]);
    expect(text).toBe('# HELP a_gauge A help\n# TYPE a_gauge gauge\na_gauge 0.5\na_gauge_x +Inf\n# HELP b_total B\n# TYPE b_total counter\nb_total{path="a\\"b\\\\c\\nd"} 2\n');
  });
});

describe('recorder', () => {
  it('counts requests per status and puts response times in v1.50 buckets', () => {
    const recorder = new MetricsRecorder();
    recorder.request('GET', '/health', 200, 0.07);
    recorder.request('GET', '/health', 200, 3);
    recorder.request('GET', '/health', 404, 0.001);
    const [requests, times] = recorder.families();
    expect(requests!.samples).toEqual([
      { labels: { method: 'GET', path: '/health', status: '200' }, value: 2 },
      { labels: { method: 'GET', path: '/health', status: '404' }, value: 1 },
    ]);
    const bucket = (le: string) => times!.samples.find((s) => s.suffix === '_bucket' && s.labels?.le === le)?.value;
    expect(RESPONSE_TIME_BUCKETS).toContain(0.075);
    expect([bucket('0.005'), bucket('0.075'), bucket('2.5'), bucket('5'), bucket('+Inf')]).toEqual([1, 2, 2, 3, 3]);
    expect(times!.samples.find((s) => s.suffix === '_count')?.value).toBe(3);
  });
});

describe('recorder limits', () => {
  it('counts a request without its time when none is given, and unmatched paths up to MAX_UNMATCHED_PATHS', () => {
    const recorder = new MetricsRecorder();
    recorder.request('GET', '/health', 200, null);
    for (let i = 0; i <= MAX_UNMATCHED_PATHS; i++) recorder.unmatched('GET', `/random-${i}`, 404);
    recorder.unmatched('GET', '/random-0', 404);
    const [requests, times] = recorder.families();
    expect(times!.samples).toEqual([]);
    expect(requests!.samples.find((s) => s.labels?.path === '/health')?.value).toBe(1);
    expect(requests!.samples.filter((s) => s.labels?.path.startsWith('/random-'))).toHaveLength(MAX_UNMATCHED_PATHS);
    expect(requests!.samples.find((s) => s.labels?.path === '/random-0')?.value).toBe(2);
    expect(requests!.samples.some((s) => s.labels?.path === `/random-${MAX_UNMATCHED_PATHS}`)).toBe(false);
  });

  it('counts the chat tokens of the first MAX_CHAT_MODELS workspace and model pairs, and more of those', () => {
    const recorder = new MetricsRecorder();
    const usage = { prompt: 1, completion: 2, total: 3 };
    for (let i = 0; i <= MAX_CHAT_MODELS; i++) recorder.chatUsage('w', `model-${i}`, usage);
    recorder.chatUsage('w', 'model-0', usage);
    const tokens = recorder.families().find((family) => family.name === 'meilisearch_chat_completion_tokens_total')!;
    const models = new Set(tokens.samples.map((sample) => sample.labels?.model));
    expect(models.size).toBe(MAX_CHAT_MODELS);
    expect(models.has(`model-${MAX_CHAT_MODELS}`)).toBe(false);
    const values = (model: string) => tokens.samples.filter((sample) => sample.labels?.model === model).map((sample) => sample.value);
    expect(values('model-0')).toEqual(values('model-1').map((value) => 2 * value));
  });
});

describe('traceMilliseconds', () => {
  it('reads the step durations of a progress trace in whole milliseconds', () => {
    expect(traceMilliseconds('12.34ms')).toBe(12);
    expect(traceMilliseconds('1.50s')).toBe(1500);
    expect(traceMilliseconds('999.99µs')).toBe(0);
    expect(traceMilliseconds('2.00m')).toBe(120_000);
    expect(traceMilliseconds('soon')).toBeUndefined();
  });
});

describe('series order', () => {
  it('sorts the series of a family by their label values, and a histogram by its series', () => {
    const text = exposition([
      { name: 'g', help: 'G', type: 'gauge', samples: [{ labels: { kind: 'types', value: 'a' }, value: 1 }, { labels: { kind: 'indexes', value: 'z' }, value: 2 }, { labels: { kind: 'indexes', value: 'b' }, value: 3 }] },
    ]);
    expect(text.split('\n').slice(2, 5)).toEqual(['g{kind="indexes",value="b"} 3', 'g{kind="indexes",value="z"} 2', 'g{kind="types",value="a"} 1']);
    const recorder = new MetricsRecorder();
    recorder.request('POST', '/b', 200, 0.001);
    recorder.request('GET', '/z', 200, 0.001);
    const [, times] = recorder.families();
    expect(times!.samples.filter((s) => s.suffix === '_count').map((s) => s.labels)).toEqual([{ method: 'GET', path: '/z' }, { method: 'POST', path: '/b' }]);
  });

  it('writes a series\' labels sorted by name, a bucket\'s `le` last, and orders series by values in that order', () => {
    const text = exposition([
      { name: 'c', help: 'C', type: 'counter', samples: [{ labels: { workspace: 'a', model: 'z' }, value: 1 }, { labels: { workspace: 'b', model: 'y' }, value: 2 }] },
      { name: 'h', help: 'H', type: 'histogram', samples: [{ labels: { path: '/p', method: 'GET', le: '0.5' }, value: 1, suffix: '_bucket' }] },
    ]);
    expect(text.split('\n').filter((line) => !line.startsWith('#'))).toEqual(['c{model="y",workspace="b"} 2', 'c{model="z",workspace="a"} 1', 'h_bucket{method="GET",path="/p",le="0.5"} 1', '']);
  });
});

/**
 * Every metric family v1.50's /metrics exposes (metrics.rs), read from the real server's
 * Prometheus text: name, type, help and label names of each family, and values that follow what
 * the server does — documents indexed, tasks run, a batch in progress, searches, requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
interface ParsedFamily {
  help: string;
  type: string;
  samples: ParsedSample[];
}

/** Parses the text exposition format: HELP/TYPE lines, then samples of the family (suffixes included). */
function parse(text: string): Map<string, ParsedFamily> {
  const families = new Map<string, ParsedFamily>();
  let current: ParsedFamily | undefined;
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.slice(0, -1).split('\n')) {
    const help = /^# HELP (\S+) (.*)$/.exec(line);
    if (help !== null) {
      current = { help: help[2]!, type: '', samples: [] };
      families.set(help[1]!, current);
      continue;
    }
    const type = /^# TYPE (\S+) (counter|gauge|histogram)$/.exec(line);
    if (type !== null) {
      expect(families.get(type[1]!)).toBe(current);
      current!.type = type[2]!;
      continue;
    }
    const sample = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    expect(sample, line).not.toBeNull();
    const labels: Record<string, string> = {};
    for (const [, name, value] of (sample![2] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)) labels[name!] = value!;
    current!.samples.push({ name: sample![1]!, labels, value: sample![3] === '+Inf' ? Infinity : Number(sample![3]) });
  }
  return families;
}

/** v1.50's families: type, help, label names (histograms: of their `_count` series). */
const FAMILIES: Record<string, [type: string, help: string, labels: string[]]> = {
  meilisearch_http_requests_total: ['counter', 'Meilisearch HTTP requests total', ['method', 'path', 'status']],
  meilisearch_http_response_time_seconds: ['histogram', 'Meilisearch HTTP response times', ['method', 'path']],
  meilisearch_degraded_search_requests: ['gauge', 'Meilisearch number of degraded search requests', []],
  meilisearch_personalized_search_requests: ['gauge', 'Meilisearch number of search requests with personalization', []],
  meilisearch_db_size_bytes: ['gauge', 'Meilisearch DB Size In Bytes', []],
  meilisearch_used_db_size_bytes: ['gauge', 'Meilisearch Used DB Size In Bytes', []],
  meilisearch_index_count: ['gauge', 'Meilisearch Index Count', []],
  meilisearch_index_docs_count: ['gauge', 'Meilisearch Index Docs Count', ['index']],
  meilisearch_nb_tasks: ['gauge', 'Meilisearch Number of tasks', ['kind', 'value']],
  meilisearch_batch_running_progress_trace: ['gauge', 'The currently running progress trace', ['batch_uid', 'step_name']],
  meilisearch_last_finished_batches_progress_trace_ms: ['gauge', 'The last few batches progress trace in milliseconds', ['batch_uid', 'step_name']],
  meilisearch_last_indexed_documents_count: ['gauge', 'The last number of indexed documents in a batch', ['batch_uid', 'index']],
  meilisearch_last_indexed_documents_duration_ms: ['gauge', 'The duration in ms of the last batch that indexed documents', ['batch_uid', 'index']],
  meilisearch_last_update: ['gauge', 'Meilisearch Last Update', []],
  meilisearch_is_indexing: ['gauge', 'Meilisearch Is Indexing', []],
  meilisearch_search_queue_size: ['gauge', 'Meilisearch Search Queue Size', []],
  meilisearch_searches_running: ['gauge', 'Meilisearch Searches Running', []],
  meilisearch_searches_waiting_to_be_processed: ['gauge', 'Meilisearch Searches Being Processed', []],
  meilisearch_task_queue_latency_seconds: ['gauge', 'Meilisearch Task Queue Latency in Seconds', []],
  meilisearch_task_queue_max_size: ['gauge', 'Meilisearch Task Queue Max Size', []],
  meilisearch_task_queue_used_size: ['gauge', 'Meilisearch Task Queue Used Size', []],
  meilisearch_task_queue_size_until_stop_registering: ['gauge', 'Meilisearch Task Queue Size Until Stop Registering', []],
};
/** Families of /chats: like v1.50 before any chat, they have no series (test/http/chats/completions.test.ts counts them after one). */
const CHAT_FAMILIES = ['meilisearch_chat_searches_total', 'meilisearch_chat_prompt_tokens_total', 'meilisearch_chat_completion_tokens_total', 'meilisearch_chat_tokens_total'];

describe('GET /metrics families', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ args: ['--experimental-enable-metrics', '--experimental-search-queue-size', '37'] });
  });
  afterAll(async () => {
    await server.dispose();
  });

  async function scrape(): Promise<Map<string, ParsedFamily>> {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    return parse(await res.text());
  }
  const value = (families: Map<string, ParsedFamily>, name: string, labels: Record<string, string> = {}): number | undefined =>
    families.get(name)?.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

  it('exposes every v1.50 family with its type, help and labels, and values that follow the server', async () => {
    const before = await scrape();
    expect(value(before, 'meilisearch_index_count')).toBe(0);
    expect(value(before, 'meilisearch_search_queue_size')).toBe(37);
    expect(value(before, 'meilisearch_task_queue_latency_seconds')).toBe(0);
    expect(before.has('meilisearch_index_docs_count')).toBe(false);

    // a batch large enough to be caught running
    const docs = Array.from({ length: 5_000 }, (_, i) => ({ id: i, text: `document ${i} about metrics and families` }));
    const added = await call(server, 'POST', '/indexes/metrics/documents', docs);
    expect(added.status).toBe(202);
    let running: Map<string, ParsedFamily> | undefined;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
      const families = await scrape();
      if (families.has('meilisearch_batch_running_progress_trace')) {
        running = families;
        break;
      }
      if (value(families, 'meilisearch_nb_tasks', { kind: 'statuses', value: 'succeeded' }) === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(running, 'the batch was never seen running').toBeDefined();
    expect(value(running!, 'meilisearch_is_indexing')).toBe(1);
    expect(value(running!, 'meilisearch_nb_tasks', { kind: 'statuses', value: 'processing' })).toBe(1);
    expect(value(running!, 'meilisearch_task_queue_latency_seconds')).toBeGreaterThan(0);
    const progress = running!.get('meilisearch_batch_running_progress_trace')!;
    expect([progress.type, progress.help]).toEqual(FAMILIES.meilisearch_batch_running_progress_trace!.slice(0, 2));
    const steps = progress.samples;
    for (const step of steps) expect(Object.keys(step.labels).sort()).toEqual(['batch_uid', 'step_name']);
    expect(steps.map((step) => step.labels)).toContainEqual({ batch_uid: '0', step_name: 'processing tasks' });
    for (const step of steps) expect(step.value).toBeGreaterThanOrEqual(0);

    expect((await waitTask(server, added.body.taskUid, 60_000)).status).toBe('succeeded');
    expect((await call(server, 'POST', '/indexes/metrics/search', { q: 'metrics' })).status).toBe(200);

    const after = await scrape();
    for (const [name, [type, help, labels]] of Object.entries(FAMILIES)) {
      if (name === 'meilisearch_batch_running_progress_trace') continue; // no batch runs now: checked above
      const family = after.get(name);
      expect(family, name).toBeDefined();
      expect([family!.type, family!.help], name).toEqual([type, help]);
      const series = family!.samples.filter((s) => s.name === (type === 'histogram' ? `${name}_count` : name));
      expect(series.length, name).toBeGreaterThan(0);
      for (const sample of series) expect(Object.keys(sample.labels).sort(), name).toEqual([...labels].sort());
    }
    for (const name of CHAT_FAMILIES) expect(after.has(name), name).toBe(false);
    expect(after.has('meilisearch_batch_running_progress_trace')).toBe(false);
    expect([...after.keys()]).toEqual([...after.keys()].sort());

    expect(value(after, 'meilisearch_index_count')).toBe(1);
    expect(value(after, 'meilisearch_index_docs_count', { index: 'metrics' })).toBe(5_000);
    expect(value(after, 'meilisearch_is_indexing')).toBe(0);
    expect(value(after, 'meilisearch_nb_tasks', { kind: 'statuses', value: 'succeeded' })).toBe(1);
    expect(value(after, 'meilisearch_nb_tasks', { kind: 'types', value: 'documentAdditionOrUpdate' })).toBe(1);
    expect(value(after, 'meilisearch_nb_tasks', { kind: 'indexes', value: 'metrics' })).toBe(1);
    expect(value(after, 'meilisearch_last_indexed_documents_count', { batch_uid: '0', index: 'metrics' })).toBe(5_000);
    expect(value(after, 'meilisearch_last_indexed_documents_duration_ms', { batch_uid: '0', index: 'metrics' })).toBeGreaterThan(0);
    expect(value(after, 'meilisearch_last_finished_batches_progress_trace_ms', { batch_uid: '0', step_name: 'processing tasks' })).toBeGreaterThanOrEqual(0);
    expect(value(after, 'meilisearch_last_update')).toBeGreaterThan(Date.now() / 1000 - 120);
    expect(value(after, 'meilisearch_used_db_size_bytes')).toBeGreaterThan(value(before, 'meilisearch_used_db_size_bytes')!);
    expect(value(after, 'meilisearch_task_queue_used_size')).toBeGreaterThan(0);
    expect(value(after, 'meilisearch_task_queue_size_until_stop_registering')).toBe(
      Math.floor((value(after, 'meilisearch_task_queue_max_size')! * 40) / 100) - value(after, 'meilisearch_task_queue_used_size')!,
    );
    expect([value(after, 'meilisearch_searches_running'), value(after, 'meilisearch_searches_waiting_to_be_processed')]).toEqual([0, 0]);
    expect(value(after, 'meilisearch_http_requests_total', { method: 'POST', path: '/indexes/{index_uid}/search', status: '200' })).toBe(1);
    const buckets = after.get('meilisearch_http_response_time_seconds')!.samples.filter((s) => s.name.endsWith('_bucket') && s.labels.path === '/indexes/{index_uid}/search');
    expect(buckets.map((s) => s.labels.le)).toEqual(['0.005', '0.01', '0.025', '0.05', '0.075', '0.1', '0.25', '0.5', '0.75', '1', '2.5', '5', '7.5', '10', '+Inf']);
  }, 120_000);
});

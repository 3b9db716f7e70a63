/**
 * The families /metrics reads when asked, from a fake queue: the last document batch shown only
 * while recent (v1.50's window: as long again as it ran, plus five minutes), the running batch's
 * steps as completion ratios, the task queue's latency from its oldest waiting task.
 */
import { describe, expect, it } from 'vitest';
import { readFamilies, type MetricSources } from '../../../src/metrics/families.js';
import type { Batch, Task } from '../../../src/types/task.js';

const S = 1_000_000_000n;

function batch(uid: number, startedAt: bigint, finishedAt: bigint): Batch {
  return {
    uid,
    progress: null,
    details: { indexedDocuments: 7, deletedDocuments: 2 },
    stats: { totalNbTasks: 1, status: { succeeded: 1 }, types: { documentAdditionOrUpdate: 1 }, indexUids: { zeta: 1, alpha: 1 }, progressTrace: { 'processing tasks': '1.50s', 'processing tasks > indexing': '250.00ms' } },
    startedAt,
    finishedAt,
    enqueuedAt: null,
    batchStrategy: '',
    indexes: ['alpha', 'zeta'],
  };
}

function sources(now: bigint, options: { last?: Batch; running?: MetricSources['queue']['processing']; oldest?: bigint }): MetricSources {
  const page = <T>(results: T[]) => ({ results, total: results.length, limit: 1, from: null, next: null });
  return {
    stats: { databaseSize: 1, usedDatabaseSize: 1, lastUpdate: null, indexes: {} },
    queue: {
      query: (query) => page(query.limit === 0 || options.oldest === undefined ? [] : [{ enqueuedAt: options.oldest } as Task]),
      queryBatches: () => page(options.last === undefined ? [] : [options.last]),
      processing: options.running ?? null,
      taskIndexUids: () => [],
      storageSize: () => ({ max: 100, used: 10, untilFull: 30 }),
    },
    searchQueue: { counts: { running: 0, waiting: 0, capacity: 1000 } },
    now,
  };
}

const samples = (families: ReturnType<typeof readFamilies>, name: string) => families.find((family) => family.name === name)!.samples;

describe('readFamilies', () => {
  it('shows the last document batch while it is recent, under its first index', () => {
    const recent = readFamilies(sources(1_000n * S, { last: batch(3, 990n * S, 994n * S) }));
    expect(samples(recent, 'meilisearch_last_indexed_documents_count')).toEqual([{ labels: { batch_uid: '3', index: 'alpha' }, value: 9 }]);
    expect(samples(recent, 'meilisearch_last_indexed_documents_duration_ms')).toEqual([{ labels: { batch_uid: '3', index: 'alpha' }, value: 4000 }]);
    const old = readFamilies(sources(1_000n * S + 305n * S, { last: batch(3, 990n * S, 994n * S) }));
    expect(samples(old, 'meilisearch_last_indexed_documents_count')).toEqual([]);
  });

  it("reads the last finished batch's trace in milliseconds", () => {
    const families = readFamilies(sources(1_000n * S, { last: batch(3, 990n * S, 994n * S) }));
    expect(samples(families, 'meilisearch_last_finished_batches_progress_trace_ms')).toEqual([
      { labels: { batch_uid: '3', step_name: 'processing tasks' }, value: 1500 },
      { labels: { batch_uid: '3', step_name: 'processing tasks > indexing' }, value: 250 },
    ]);
  });

  it("gives each step of the running batch its completion ratio, and the oldest waiting task's wait", () => {
    const running = { batch: batch(4, 0n, null as unknown as bigint), taskUids: new Set([5]), progress: { view: () => ({ steps: [{ currentStep: 'processing tasks', finished: 0, total: 2 }, { currentStep: 'indexing', finished: 3, total: 4 }], percentage: 10 }), trace: () => ({}), requestsView: () => undefined } };
    const families = readFamilies(sources(1_000n * S, { running, oldest: 997n * S }));
    expect(samples(families, 'meilisearch_batch_running_progress_trace')).toEqual([
      { labels: { batch_uid: '4', step_name: 'processing tasks' }, value: 0 },
      { labels: { batch_uid: '4', step_name: 'indexing' }, value: 0.75 },
    ]);
    expect(samples(families, 'meilisearch_is_indexing')).toEqual([{ value: 1 }]);
    expect(samples(families, 'meilisearch_task_queue_latency_seconds')).toEqual([{ value: 3 }]);
    expect(samples(families, 'meilisearch_task_queue_size_until_stop_registering')).toEqual([{ value: 30 }]);
  });
});

/**
 * The metric families `/metrics` reads at the time it is asked (v1.50's routes/metrics.rs):
 * database sizes, indexes and their documents, task counts per status, type and index, the
 * running batch's progress, the last finished batch's step durations, the last document batch,
 * the last update, whether a batch runs, the search queue, and the task queue's latency and
 * size. Names, types, labels and help texts are v1.50's (metrics.rs).
 */
import type { InstanceStats } from '../indexes/stats.js';
import type { TaskQueue } from '../tasks/queue.js';
import type { SearchQueue } from '../search/search-queue.js';
import { TASK_STATUSES, TASK_TYPES, type Batch, type Timestamp } from '../types/task.js';
import type { Family, Sample } from './exposition.js';

export interface MetricSources {
  /** `GET /stats` of every index, sizes included */
  stats: InstanceStats;
  queue: Pick<TaskQueue, 'query' | 'queryBatches' | 'processing' | 'taskIndexUids' | 'storageSize'>;
  searchQueue: Pick<SearchQueue, 'counts'>;
  now: Timestamp;
}

const NS_PER_MS = 1_000_000n;
/** v1.50 shows the last document batch until five minutes after it took as long again as it ran. */
const LAST_BATCH_GRACE_NS = 5n * 60n * 1_000_000_000n;

const gauge = (name: string, help: string, samples: Sample[]): Family => ({ name, help, type: 'gauge', samples });

/** A step duration of a progress trace (`12.34ms`, `1.50µs`, humantime's units) in whole milliseconds, or undefined. */
export function traceMilliseconds(text: string): number | undefined {
  const match = /^(\d+)(?:\.(\d+))?(ns|µs|us|ms|s|m|h)$/.exec(text);
  if (match === null) return undefined;
  const unitNs = { ns: 1n, µs: 1_000n, us: 1_000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n }[match[3] as 'ns'];
  const fraction = match[2] ?? '';
  const ns = BigInt(match[1]!) * unitNs + (BigInt(fraction || '0') * unitNs) / 10n ** BigInt(fraction.length);
  return Number(ns / NS_PER_MS);
}

function taskCounts(sources: MetricSources): Sample[] {
  const count = (filter: object): number => sources.queue.query({ ...filter, limit: 0 }).total;
  // v1.50 lists each kind's values in their `BTreeMap` order
  const sorted = (values: readonly string[]) => [...values].sort();
  return [
    ...sorted(sources.queue.taskIndexUids()).map((uid) => ({ labels: { kind: 'indexes', value: uid }, value: count({ indexUids: [uid] }) })),
    ...sorted(TASK_STATUSES).map((status) => ({ labels: { kind: 'statuses', value: status }, value: count({ statuses: [status] }) })),
    ...sorted(TASK_TYPES).map((type) => ({ labels: { kind: 'types', value: type }, value: count({ types: [type] }) })),
  ];
}

/** The completion ratio of each step of the running batch. */
function runningProgress(sources: MetricSources): Sample[] {
  const running = sources.queue.processing;
  const progress = running?.progress?.view() ?? running?.batch.progress;
  if (running === null || progress === undefined || progress === null) return [];
  const batchUid = String(running.batch.uid);
  return progress.steps.map((step) => ({ labels: { batch_uid: batchUid, step_name: step.currentStep }, value: step.finished / step.total }));
}

function lastFinishedBatch(sources: MetricSources): Batch | undefined {
  return sources.queue.queryBatches({ statuses: ['succeeded', 'failed'], limit: 1 }).results[0];
}

function lastTrace(batch: Batch | undefined): Sample[] {
  if (batch === undefined) return [];
  return Object.entries(batch.stats.progressTrace ?? {}).flatMap(([step, text]) => {
    const ms = traceMilliseconds(text);
    return ms === undefined ? [] : [{ labels: { batch_uid: String(batch.uid), step_name: step }, value: ms }];
  });
}

/** The last succeeded batch that wrote documents, while it is recent enough, as [count, duration in ms] samples. */
function lastDocumentBatch(sources: MetricSources): [Sample[], Sample[]] {
  const [batch] = sources.queue.queryBatches({ statuses: ['succeeded'], types: ['documentAdditionOrUpdate', 'documentEdition', 'documentDeletion'], limit: 1 }).results;
  if (batch === undefined || batch.finishedAt === null) return [[], []];
  const took = batch.finishedAt - batch.startedAt;
  const since = sources.now - batch.finishedAt;
  if (since < 0n || since > took + LAST_BATCH_GRACE_NS) return [[], []];
  const { indexedDocuments, editedDocuments, deletedDocuments } = batch.details;
  const modified = (indexedDocuments ?? 0) + (editedDocuments ?? 0) + (deletedDocuments ?? 0);
  const [index = ''] = Object.keys(batch.stats.indexUids).sort();
  const labels = { batch_uid: String(batch.uid), index };
  return [[{ labels, value: modified }], [{ labels, value: Number(took / NS_PER_MS) }]];
}

/** Seconds the oldest enqueued or processing task has waited, 0 when none waits. */
function queueLatency(sources: MetricSources): number {
  const [oldest] = sources.queue.query({ statuses: ['enqueued', 'processing'], limit: 1, reverse: true }).results;
  return oldest === undefined ? 0 : Number(sources.now - oldest.enqueuedAt) / 1e9;
}

export function readFamilies(sources: MetricSources): Family[] {
  const { stats } = sources;
  const indexes = Object.entries(stats.indexes);
  const searches = sources.searchQueue.counts;
  const storage = sources.queue.storageSize();
  const [indexedCount, indexedDuration] = lastDocumentBatch(sources);
  return [
    gauge('meilisearch_db_size_bytes', 'Meilisearch DB Size In Bytes', [{ value: stats.databaseSize }]),
    gauge('meilisearch_used_db_size_bytes', 'Meilisearch Used DB Size In Bytes', [{ value: stats.usedDatabaseSize }]),
    gauge('meilisearch_index_count', 'Meilisearch Index Count', [{ value: indexes.length }]),
    gauge('meilisearch_index_docs_count', 'Meilisearch Index Docs Count', indexes.map(([uid, index]) => ({ labels: { index: uid }, value: index.numberOfDocuments }))),
    gauge('meilisearch_nb_tasks', 'Meilisearch Number of tasks', taskCounts(sources)),
    gauge('meilisearch_batch_running_progress_trace', 'The currently running progress trace', runningProgress(sources)),
    gauge('meilisearch_last_finished_batches_progress_trace_ms', 'The last few batches progress trace in milliseconds', lastTrace(lastFinishedBatch(sources))),
    gauge('meilisearch_last_indexed_documents_count', 'The last number of indexed documents in a batch', indexedCount),
    gauge('meilisearch_last_indexed_documents_duration_ms', 'The duration in ms of the last batch that indexed documents', indexedDuration),
    // seconds since the epoch of the last index change; v1.50 leaves it at 0 until there is one
    gauge('meilisearch_last_update', 'Meilisearch Last Update', [{ value: stats.lastUpdate === null ? 0 : Number(stats.lastUpdate / 1_000_000_000n) }]),
    gauge('meilisearch_is_indexing', 'Meilisearch Is Indexing', [{ value: sources.queue.processing === null ? 0 : 1 }]),
    gauge('meilisearch_search_queue_size', 'Meilisearch Search Queue Size', [{ value: searches.capacity }]),
    gauge('meilisearch_searches_running', 'Meilisearch Searches Running', [{ value: searches.running }]),
    gauge('meilisearch_searches_waiting_to_be_processed', 'Meilisearch Searches Being Processed', [{ value: searches.waiting }]),
    gauge('meilisearch_task_queue_latency_seconds', 'Meilisearch Task Queue Latency in Seconds', [{ value: queueLatency(sources) }]),
    gauge('meilisearch_task_queue_max_size', 'Meilisearch Task Queue Max Size', [{ value: storage.max }]),
    gauge('meilisearch_task_queue_used_size', 'Meilisearch Task Queue Used Size', [{ value: storage.used }]),
    gauge('meilisearch_task_queue_size_until_stop_registering', 'Meilisearch Task Queue Size Until Stop Registering', [{ value: storage.untilFull }]),
  ];
}

/**
 * Batches ↔ the lines of a dump's `batches/queue.jsonl` (dumps-snapshots-upgrade.md §3.6): the
 * details as their API view, `stopReason` for what the API calls `batchStrategy`, the enqueue
 * dates as `{earliest, oldest}` (the newest and the oldest task). Pure.
 */
import { instantOfRfc3339 } from '../types/dates.js';
import { formatRfc3339 } from '../types/dates.js';
import { detailsFromJson, detailsJson } from '../tasks/details-json.js';
import type { Batch, BatchStats, JsonObject } from '../types/task.js';

export function batchLine(batch: Batch): string {
  const { embedderRequests, ...stats } = batch.stats;
  const line: JsonObject = { uid: batch.uid, details: detailsJson(batch.details, true), stats };
  if (embedderRequests !== undefined) line.embedderStats = embedderRequests;
  line.startedAt = formatRfc3339(batch.startedAt);
  line.finishedAt = batch.finishedAt === null ? null : formatRfc3339(batch.finishedAt);
  line.enqueuedAt = batch.enqueuedAt === null ? null : { earliest: formatRfc3339(batch.enqueuedAt.newest), oldest: formatRfc3339(batch.enqueuedAt.oldest) };
  line.stopReason = batch.batchStrategy;
  return JSON.stringify(line);
}

/**
 * A `batches/queue.jsonl` line as a batch. The indexes a batch touched are taken from its stats
 * (a swap's or rename's target only counted there if it has tasks of its own).
 */
export function readBatchLine(line: JsonObject): Batch {
  const stats = line.stats as BatchStats;
  const enqueuedAt = line.enqueuedAt as { earliest: string; oldest: string } | null | undefined;
  const embedderStats = line.embedderStats as BatchStats['embedderRequests'] | undefined;
  return {
    uid: line.uid as number,
    progress: null,
    details: detailsFromJson((line.details ?? {}) as JsonObject),
    stats: embedderStats === undefined ? stats : { ...stats, embedderRequests: embedderStats },
    startedAt: instantOfRfc3339(line.startedAt as string),
    // a batch is only dumped once finished; an unfinished one (older engines) ends as it started
    finishedAt: typeof line.finishedAt === 'string' ? instantOfRfc3339(line.finishedAt) : instantOfRfc3339(line.startedAt as string),
    enqueuedAt: enqueuedAt == null ? null : { newest: instantOfRfc3339(enqueuedAt.earliest), oldest: instantOfRfc3339(enqueuedAt.oldest) },
    batchStrategy: (line.stopReason as string | undefined) ?? 'unspecified',
    indexes: Object.keys(stats.indexUids ?? {}),
  };
}

/**
 * Batch records → public JSON (Meilisearch's `BatchView`), keys in Meilisearch's order: `uid`,
 * `progress`, `details`, `stats`, `duration`, `startedAt`, `finishedAt`, `batchStrategy`. Pure;
 * routes call it for `GET /batches[/{uid}]` on records from the queue (the running batch included).
 */
import { formatDuration, formatRfc3339 } from '../../types/dates.js';
import {
  TASK_STATUSES,
  TASK_TYPES,
  type Batch,
  type BatchProgress,
  type BatchStats,
  type JsonObject,
} from '../../types/task.js';
import { detailsJson } from '../details-json.js';
import { ownRecord } from '../../types/own-record.js';
import { withFloatMembers } from '../../types/wire-floats.js';

export interface BatchJson {
  uid: number;
  progress: BatchProgress | null;
  details: JsonObject;
  stats: BatchStats;
  duration: string | null;
  startedAt: string;
  finishedAt: string | null;
  batchStrategy: string;
}

/** Counts keyed by an enum, in the enum's order (Meilisearch keeps them in BTreeMaps). */
function inOrder<K extends string>(order: readonly K[], counts: Partial<Record<K, number>>): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const key of order) if (counts[key] !== undefined) out[key] = counts[key];
  return out;
}

function statsJson(stats: BatchStats): BatchStats {
  const indexUids = ownRecord<number>();
  for (const uid of Object.keys(stats.indexUids).sort()) indexUids[uid] = stats.indexUids[uid]!;
  return {
    totalNbTasks: stats.totalNbTasks,
    status: inOrder(TASK_STATUSES, stats.status),
    types: inOrder(TASK_TYPES, stats.types),
    indexUids,
    ...(stats.progressTrace === undefined ? {} : { progressTrace: stats.progressTrace }),
    ...(stats.writeChannelCongestion === undefined ? {} : { writeChannelCongestion: stats.writeChannelCongestion }),
    ...(stats.internalDatabaseSizes === undefined ? {} : { internalDatabaseSizes: stats.internalDatabaseSizes }),
    ...(stats.embedderRequests === undefined ? {} : { embedderRequests: stats.embedderRequests }),
  };
}

export function batchView(batch: Batch): BatchJson {
  const finished = batch.finishedAt !== null;
  return {
    uid: batch.uid,
    // v1.50's f32 percentage, written `0.0` (types/wire-floats.ts)
    progress: batch.progress === null ? null : withFloatMembers({ ...batch.progress }, ['percentage']),
    details: detailsJson(batch.details, finished),
    stats: statsJson(batch.stats),
    duration: batch.finishedAt === null ? null : formatDuration(batch.finishedAt - batch.startedAt),
    startedAt: formatRfc3339(batch.startedAt),
    finishedAt: batch.finishedAt === null ? null : formatRfc3339(batch.finishedAt),
    batchStrategy: batch.batchStrategy,
  };
}

/**
 * `dumpCreation` (dumps-snapshots-upgrade.md §3.8; always alone in its batch): writes
 * `<dump dir>/<dumpUid>.dump` with the keys captured when the dump was requested, the whole
 * queue, the batches, every index, the runtime features and the chat workspaces' settings. The
 * dump task is written as succeeded, dated from the batch's start to the moment it is written,
 * with no batch and no `dumpUid`, as Meilisearch writes it. A cancelation aborts the writing (the scheduler then
 * drops the batch); a failure leaves no archive behind (dumps/writer.ts, which main.ts passes in
 * `archives`).
 */
import { ApiError } from '../../errors/api-error.js';
import { MEILISEARCH_VERSION_TEXT } from '../../version.js';
import type { Task, Timestamp } from '../../types/task.js';
import { nowNs } from '../../types/dates.js';
import type { IndexRecord } from '../../indexes/registry.js';
import type { BatchProcessor, DumpIndex, ProcessContext } from './context.js';
import { failed, succeeded } from './outcome.js';
import { ruleView } from '../../search-rules/rule.js';

/** `YYYYMMDD-HHMMSSmmm` of an instant, UTC. */
function dumpUidOf(ts: Timestamp): string {
  const iso = new Date(Number(ts / 1_000_000n)).toISOString(); // 2025-02-04T10:22:31.331Z
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}${iso.slice(20, 23)}`;
}

function* indexes(ctx: ProcessContext, records: readonly IndexRecord[]): Generator<DumpIndex> {
  for (const [record, env] of ctx.indexEnvs.each(records)) {
    yield { uid: record.uid, primaryKey: record.primaryKey, createdAt: record.createdAt, updatedAt: record.updatedAt, env };
  }
}

export const processDumpCreation: BatchProcessor = async (ctx, [task]) => {
  const kind = task!.kind;
  if (kind.name !== 'dumpCreation') throw new Error(`dumpCreation batch got ${kind.name}`);
  if (ctx.archives === undefined) return { tasks: [failed(task!, new ApiError('internal', 'Dumps are not configured.'))] };
  const { archives } = ctx;
  const dumpUid = dumpUidOf(ctx.now);
  const records = ctx.indexes.list();
  const asWritten = (stored: Task): Task =>
    stored.uid === task!.uid ? { ...stored, status: 'succeeded', batchUid: null, startedAt: ctx.now, finishedAt: nowNs() } : stored;
  await archives.writeDump(
    archives.dumpDir,
    {
      dumpUid,
      dbVersion: MEILISEARCH_VERSION_TEXT,
      keys: kind.keys,
      instanceUid: kind.instanceUid,
      counts: { tasks: ctx.queue.query({ limit: 0 }).total, batches: ctx.queue.queryBatches({ limit: 0 }).total, indexes: records.length },
      tasks: (function* () {
        for (const stored of ctx.queue.storedTasks()) yield asWritten(stored);
      })(),
      payload: (contentFile) => ctx.updateFiles.source(contentFile),
      batches: ctx.queue.storedBatches(),
      indexes: indexes(ctx, records),
      features: archives.features(),
      network: archives.network(),
      webhooks: archives.webhooks(),
      chatWorkspaces: archives.chatWorkspaces(),
      searchRules: ctx.searchRules.all().map(ruleView),
    },
    nowNs,
    ctx.signal,
    ctx.progress.archive('dumpCreation'),
  );
  return { tasks: [succeeded(task!, { kind: 'dumpCreation', dumpUid })] };
};

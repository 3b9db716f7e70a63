/**
 * Document batches (documents.md §4, §5): additions (replace or update), deletions by id or by
 * filter and clears of one index, handed as operations in task order to the index writer thread,
 * which validates and applies them in one index-environment transaction, streaming the update
 * files (engine/indexer/document-batch.ts), and answers each operation's outcome.
 *
 * Failure scopes: a task fails alone, whatever fails it, and the others of the batch apply. A
 * payload problem (missing or invalid id, primary-key inference or conflict, more fields than an
 * index can hold, a document nested too deep) or a filter the index refuses (attribute not
 * filterable, …) fails its operation inside the write; a write that throws (the index refusing a
 * document, such as an invalid `_geo`, or an unexpected error) is run again without the task
 * that makes it throw, which fails with that error (isolated-write.ts).
 * An index the batch creates is registered before the write (readers see it empty and indexing)
 * and kept even if every task fails or the batch is canceled, as in Meilisearch.
 */
import { ApiError, inIndex } from '../../errors/api-error.js';
import type { DocumentOp, OpResult } from '../../engine/indexer/document-batch.js';
import type { IndexRecord } from '../../indexes/registry.js';
import type { Task } from '../../types/task.js';
import type { BatchProcessor, ProcessContext } from './context.js';
import { writeIsolated, type RunWrite } from './isolated-write.js';
import { crashError, failed, succeeded } from './outcome.js';

/** The index operation a task of a document batch stands for. */
function opOf(ctx: ProcessContext, task: Task): DocumentOp {
  const { kind } = task;
  switch (kind.name) {
    case 'documentAdditionOrUpdate':
      return {
        op: 'add',
        source: ctx.updateFiles.source(kind.contentFile),
        method: kind.method,
        primaryKey: kind.primaryKey,
        skipMissing: kind.onMissingDocument === 'skip',
        indexUid: kind.indexUid,
        empty: task.details?.kind === 'documentAdditionOrUpdate' && task.details.receivedDocuments === 0,
      };
    case 'documentDeletion':
      return { op: 'delete', ids: kind.documentIds };
    case 'documentDeletionByFilter':
      return { op: 'deleteByFilter', filter: kind.filter, indexUid: kind.indexUid };
    case 'documentClear':
      return { op: 'clear' };
    default:
      throw new ApiError('internal', `Quarry cannot process a \`${kind.name}\` task in a document batch yet.`);
  }
}

/**
 * A task finished with its operation's outcome, its details completed as Meilisearch does.
 * `withAdditions`: the batch adds documents too; v1.50 then applies deletions by id as part of
 * its document operation, which counts the distinct ids given, whether documents had them or not.
 */
function finish(task: Task, result: OpResult, withAdditions: boolean): Task {
  if ('error' in result) return failed(task, new ApiError(result.error.code, result.error.message));
  const { details } = task;
  switch (details?.kind) {
    case 'documentAdditionOrUpdate':
      return succeeded(task, { ...details, indexedDocuments: result.count });
    case 'documentDeletion':
      if (withAdditions && task.kind.name === 'documentDeletion') return succeeded(task, { ...details, deletedDocuments: new Set(task.kind.documentIds).size });
      return succeeded(task, { ...details, deletedDocuments: result.count });
    case 'documentDeletionByFilter':
    case 'clearAll':
      return succeeded(task, { ...details, deletedDocuments: result.count });
    default:
      return succeeded(task);
  }
}

export const processDocuments: BatchProcessor = async (ctx, tasks, next) => {
  const indexUid = next.indexUid!;
  let record: IndexRecord | undefined = ctx.indexes.get(indexUid);
  if (record === undefined) {
    const mayCreate = tasks.some((task) => task.kind.name === 'documentAdditionOrUpdate' && task.kind.allowIndexCreation);
    if (!mayCreate) {
      const error = new ApiError('index_not_found', `Index \`${indexUid}\` not found.`);
      return { tasks: tasks.map((task) => failed(task, error)) };
    }
    record = ctx.indexes.newRecord(indexUid, null, ctx.now);
    await ctx.indexes.register(record);
  }
  ctx.progress.enter('indexing', 'retrieving config');
  const ops = tasks.map((task) => opOf(ctx, task));
  ctx.progress.enter('indexing', 'indexing');
  const { uuid, primaryKey } = record;
  const run: RunWrite = (kept, rehearsal) =>
    ctx.writeIndex(uuid, { kind: 'documents', ops: kept, primaryKey, rehearsal, sharding: ctx.sharding ?? null }, rehearsal ? undefined : ctx.progress.watchIndexWrite());
  const outcome = await writeIsolated(ops, run, ctx.signal, (err) => {
    if (err instanceof ApiError) return inIndex(indexUid, err);
    ctx.log?.('a task of a document batch failed unexpectedly', err);
    return crashError(err);
  });
  const withAdditions = tasks.some((task) => task.kind.name === 'documentAdditionOrUpdate');
  const finished = tasks.map((task, i) => finish(task, outcome.results[i]!, withAdditions));

  const before = record;
  const final: IndexRecord = { ...record, primaryKey: outcome.primaryKey, updatedAt: ctx.now };
  const touched = finished.some((task) => task.status === 'succeeded');
  return {
    tasks: finished,
    indexWritten: record.uuid,
    commit: () => {
      if (touched || final.primaryKey !== before.primaryKey) ctx.indexes.put(final);
    },
  };
};

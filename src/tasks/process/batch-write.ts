/**
 * The index write of a batch whose tasks' outcomes are known before it is made (settings,
 * document edition, index creation on a sharded network): shown as the batch's `indexing` step,
 * recorded in the index with those outcomes (engine/applied-batch.ts, so a run again after a crash
 * between the index and the instance commits finds it landed), and refused whole: when the index
 * refuses it (settings enabling geo over an invalid `_geo`…), every task of the batch fails with
 * that error and nothing changes, not even an index the batch would have created.
 */
import { ApiError, inIndex } from '../../errors/api-error.js';
import type { IndexWrite } from '../../engine/indexer/commit.js';
import type { Task } from '../../types/task.js';
import type { ProcessContext, ProcessOutcome } from './context.js';
import { failed } from './outcome.js';

/**
 * What the index records of a task's details: not what its task holds already, which would be
 * copied to the writer thread and packed there (200,000 synonyms cost ~0.3 s), and which no
 * processor reads back: a settings update's settings (its whole details), an edition's context.
 */
function appliedDetails(details: Task['details']): Task['details'] {
  if (details?.kind === 'settingsUpdate') return null;
  return details?.kind === 'documentEdition' ? { ...details, context: null } : details;
}

/**
 * Writes `write` to index environment `uuid` of index `indexUid` for the batch of `tasks`, which
 * finish as `outcome` says; answers that outcome with the written index, or every task failed.
 */
export async function writeKnownOutcome(ctx: ProcessContext, indexUid: string, tasks: readonly Task[], uuid: string, write: IndexWrite, outcome: ProcessOutcome): Promise<ProcessOutcome> {
  ctx.progress.enter('indexing', 'indexing');
  const applied = { batchUid: ctx.batchUid, tasks: outcome.tasks.map((task) => ({ uid: task.uid, details: appliedDetails(task.details) })) };
  try {
    await ctx.writeIndex(uuid, { ...write, applied }, ctx.progress.watchIndexWrite());
  } catch (err) {
    if (ctx.signal.aborted || !(err instanceof ApiError)) throw err;
    const error = inIndex(indexUid, err);
    return { tasks: tasks.map((task) => failed(task, error)) };
  }
  return { ...outcome, indexWritten: uuid };
}

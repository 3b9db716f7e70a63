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
 * Writes `write` to index environment `uuid` of index `indexUid` for the batch of `tasks`, which
 * finish as `outcome` says; answers that outcome with the written index, or every task failed.
 */
export async function writeKnownOutcome(ctx: ProcessContext, indexUid: string, tasks: readonly Task[], uuid: string, write: IndexWrite, outcome: ProcessOutcome): Promise<ProcessOutcome> {
  ctx.progress.enter('indexing', 'indexing');
  // a settings update's details are its own settings, which its task holds: not copied into the
  // write (200,000 synonyms cost ~0.3 s to pack there), and no processor reads them back
  const applied = { batchUid: ctx.batchUid, tasks: outcome.tasks.map((task) => ({ uid: task.uid, details: task.details?.kind === 'settingsUpdate' ? null : task.details })) };
  try {
    await ctx.writeIndex(uuid, { ...write, applied }, ctx.progress.watchIndexWrite());
  } catch (err) {
    if (ctx.signal.aborted || !(err instanceof ApiError)) throw err;
    const error = inIndex(indexUid, err);
    return { tasks: tasks.map((task) => failed(task, error)) };
  }
  return { ...outcome, indexWritten: uuid };
}

/**
 * A document batch's index write in which no task takes the others down (issue 25). The write
 * runs whole; when it throws (the index refuses a document, such as an invalid `_geo`, or
 * something unexpected happens), the operation that makes it throw is found by rehearsals: the
 * same write over a prefix of the operations, rolled back (engine/indexer/document-batch.ts).
 * Bisection finds the shortest failing prefix, which ends with that operation; its task fails
 * alone with the error, and the write runs again without it, until one commits (the last with
 * no operation left, if need be). What commits is still one transaction; a canceled write is
 * never run again.
 * Meilisearch fails every task of the batch on such an error (documents.md §4.3); Quarry keeps
 * the others, as both already do for payload errors. A write whose addition's payload fails it
 * names that addition (engine/indexer/document-batch.ts `PayloadRefused`): its task fails with
 * the payload's error, and the write runs again without it, no rehearsal needed.
 */
import type { ApiError } from '../../errors/api-error.js';
import { isPayloadRefused, type DocumentBatchOutcome, type DocumentOp, type OpResult } from '../../engine/indexer/document-batch.js';

/** Runs the write of `ops` (or its rehearsal), as the index writer thread does. */
export type RunWrite = (ops: readonly DocumentOp[], rehearsal: boolean) => Promise<DocumentBatchOutcome>;

export async function writeIsolated(ops: readonly DocumentOp[], run: RunWrite, signal: AbortSignal, errorOf: (err: unknown) => ApiError): Promise<DocumentBatchOutcome> {
  const results: OpResult[] = [];
  let left = ops.map((_, i) => i);
  for (;;) {
    const kept = left.map((i) => ops[i]!);
    try {
      const outcome = await run(kept, false);
      left.forEach((i, at) => (results[i] = outcome.results[at]!));
      return { results, primaryKey: outcome.primaryKey };
    } catch (err) {
      if (signal.aborted) throw err;
      if (isPayloadRefused(err)) {
        results[left[err.additionRefused]!] = { error: err.error };
        left = left.filter((_, i) => i !== err.additionRefused);
        continue;
      }
      const { at, cause } = await firstFailing(kept, err, run, signal);
      const { code, message } = errorOf(cause);
      results[left[at]!] = { error: { code, message } };
      left = left.filter((_, i) => i !== at);
    }
  }
}

/** The position in `ops`, whose write threw `cause`, of the operation that makes it throw, and its error. */
async function firstFailing(ops: readonly DocumentOp[], cause: unknown, run: RunWrite, signal: AbortSignal): Promise<{ at: number; cause: unknown }> {
  // the longest prefix known to apply, and the shortest known to throw
  let applies = 0;
  let throws = ops.length;
  while (throws - applies > 1) {
    const middle = (applies + throws) >>> 1;
    try {
      await run(ops.slice(0, middle), true);
      applies = middle;
    } catch (err) {
      if (signal.aborted) throw err;
      throws = middle;
      cause = err;
    }
  }
  return { at: throws - 1, cause };
}

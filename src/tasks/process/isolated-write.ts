/**
 * A document batch's index write in which no task takes the others down (issue 25). The write
 * runs whole; when it throws (the index refuses a document, such as an invalid `_geo`, or
 * something unexpected happens), the operation that makes it throw is found by rehearsals: the
 * same write over a prefix of the operations, rolled back (engine/indexer/document-batch.ts).
 * The shortest failing prefix, which ends with that operation, is found by galloping from the
 * prefix known to apply (1, 2, 4, … more operations), then bisection; its task fails alone with
 * the error, and the search goes on from there, since the operations before it still apply,
 * until a probe covers every operation left: that one is the write, and it commits (the last with
 * no operation left, if need be). A rehearsal replays its whole prefix, so the search starts
 * where the last failure was found: bad tasks come together in a batch (300 of 1,000 took 255 s
 * when each was searched for from the start, every search after a whole write). What commits is
 * still one transaction; a canceled write is never run again.
 * Meilisearch fails every task of the batch on such an error (documents.md §4.3); Quarry keeps
 * the others, as both already do for payload errors. But not when the embedder failed
 * (`EmbedderFailure`): no document is to blame, and each rehearsal would ask it again with all
 * its retries, so every task left fails with it, as in v1.50. An addition whose payload or
 * documents the index refuses (an invalid id or `_geo`, say) fails in the write itself, withdrawn
 * from the changes it held (engine/indexer/document-batch.ts); when a chunk was written since it
 * began, the write names it instead (`PayloadRefused`): its task fails with that error, and the
 * write runs again without it, no rehearsal needed. Rehearsals are left to what the write cannot
 * attribute.
 */
import type { ApiError } from '../../errors/api-error.js';
import { EmbedderFailure } from '../../embedders/embed-error.js';
import { isPayloadRefused, type DocumentBatchOutcome, type DocumentOp, type OpResult } from '../../engine/indexer/document-batch.js';

/** Runs the write of `ops` (or its rehearsal), as the index writer thread does. */
export type RunWrite = (ops: readonly DocumentOp[], rehearsal: boolean) => Promise<DocumentBatchOutcome>;

export async function writeIsolated(ops: readonly DocumentOp[], run: RunWrite, signal: AbortSignal, errorOf: (err: unknown) => ApiError): Promise<DocumentBatchOutcome> {
  const results: OpResult[] = [];
  const left = ops.map((_, i) => i);
  // the longest prefix of `left` known to apply; the next probe's length past it (the first is the
  // whole write); the shortest prefix known to throw, and its error, once a probe threw
  let applies = 0;
  let step = Number.POSITIVE_INFINITY;
  let throws: number | null = null;
  let cause: unknown;
  const refuse = (at: number, error: OpResult) => {
    results[left[at]!] = error;
    left.splice(at, 1);
    applies = Math.min(applies, at);
  };
  for (;;) {
    const kept = left.map((i) => ops[i]!);
    const probe: number = throws === null ? Math.min(applies + step, kept.length) : (applies + throws) >>> 1;
    const whole = probe === kept.length;
    try {
      const outcome = await run(whole ? kept : kept.slice(0, probe), !whole);
      if (whole) {
        left.forEach((i, at) => (results[i] = outcome.results[at]!));
        return { results, primaryKey: outcome.primaryKey };
      }
      applies = probe;
      if (throws === null) step *= 2;
    } catch (err) {
      if (signal.aborted) throw err;
      if (err instanceof EmbedderFailure) {
        const { code, message } = errorOf(err);
        for (const i of left) results[i] = { error: { code, message } };
        // no operation left: the next probe is the (empty) write
        left.length = 0;
        [applies, throws] = [0, null];
        continue;
      }
      if (isPayloadRefused(err)) {
        // named by the write: no search needed, and what was known of the others may have changed
        refuse(err.additionRefused, { error: err.error });
        throws = null;
        continue;
      }
      throws = probe;
      cause = err;
    }
    if (throws !== null && throws - applies <= 1) {
      const { code, message } = errorOf(cause);
      refuse(throws - 1, { error: { code, message } });
      throws = null;
      step = 1;
    }
  }
}

/**
 * The indexing memory budget (`--max-indexing-memory`, cli-config.md §2): as configured, else two
 * thirds of the memory this process may use (the machine's, or its cgroup's limit when lower), as
 * v1.50. What follows from it: the default largest total payload of one batch
 * (`--experimental-limit-batched-tasks-total-size`: half of it, at most 10 GiB) and, in the index
 * writer, how many payload bytes one chunk of a documents write may hold
 * (engine/indexer/document-batch.ts).
 */
import os from 'node:os';

const MAX_DEFAULT_BATCH_BYTES = 10 * 2 ** 30;

/** The budget in bytes. */
export function indexingMemoryBudget(configured: number | null): number {
  if (configured !== null) return configured;
  // 0 when the process has no such limit; a limit above the machine's memory is none either
  const limit = process.constrainedMemory?.() ?? 0;
  const total = limit > 0 ? Math.min(limit, os.totalmem()) : os.totalmem();
  return Math.floor((total * 2) / 3);
}

/** The default largest total payload of one batch under a budget of `memory` bytes. */
export function defaultBatchBytes(memory: number): number {
  return Math.min(Math.floor(memory / 2), MAX_DEFAULT_BATCH_BYTES);
}

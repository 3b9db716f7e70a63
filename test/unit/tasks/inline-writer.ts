/**
 * A ProcessContext's `writeIndex` for processor tests: the indexer run on this thread
 * (engine/indexer/commit.ts), as the index writer thread runs it, without a worker pool.
 */
import type { IndexEnvs } from '../../../src/engine/index-env.js';
import { applyIndexWrite, type WriteOutcome } from '../../../src/engine/indexer/commit.js';
import type { IndexWriter } from '../../../src/tasks/process/context.js';

export function inlineIndexWriter(envs: IndexEnvs): IndexWriter {
  return async (uuid, write) => applyIndexWrite(envs.get(uuid), write) as WriteOutcome<typeof write>;
}

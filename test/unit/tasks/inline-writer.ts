/**
 * A ProcessContext's `writeIndex` for processor tests: the indexer run on this thread
 * (engine/indexer/commit.ts), as the index writer thread runs it, without a worker pool.
 */
import type { IndexEnvs } from '../../../src/engine/index-env.js';
import { applyIndexWrite, threadSettingsWrite, type WriteOutcome } from '../../../src/engine/indexer/commit.js';
import type { IndexWriter } from '../../../src/tasks/process/context.js';

export function inlineIndexWriter(envs: IndexEnvs): IndexWriter {
  // a settings write as the writer thread is sent it: without the settings it leaves as stored
  return async (uuid, write) => applyIndexWrite(envs.get(uuid), write.kind === 'settings' ? threadSettingsWrite(write) : write) as WriteOutcome<typeof write>;
}

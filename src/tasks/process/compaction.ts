/**
 * `indexCompaction` (indexes.md §3, always alone in its batch): rewrites the index's LMDB
 * environment without its free pages. The compacted copy is made from a read snapshot while the
 * batch runs (only the scheduler writes index environments, so nothing changes meanwhile); the
 * copy replaces the live file only after the commit, so a crash before it leaves the old,
 * complete file in place and the task enqueued.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { dataFileBytes } from '../../engine/index-env.js';
import { ApiError } from '../../errors/api-error.js';
import { measureIndex } from '../../indexes/stats.js';
import type { BatchProcessor } from './context.js';
import { failed, succeeded } from './outcome.js';

export const processIndexCompaction: BatchProcessor = async (ctx, [task]) => {
  const kind = task!.kind;
  if (kind.name !== 'indexCompaction') throw new Error(`indexCompaction batch got ${kind.name}`);
  // a missing index fails before any step, as in v1.50
  const record = ctx.indexes.get(kind.indexUid);
  if (record === undefined) {
    return { tasks: [failed(task!, new ApiError('index_not_found', `Index \`${kind.indexUid}\` not found.`))] };
  }
  ctx.progress.enter('indexCompaction', 'retrieve the index');
  const folder = ctx.indexEnvs.folderOf(record.uuid);
  ctx.progress.enter('indexCompaction', 'create temporary file');
  // measured with the environment open: an index never written has no file until it is opened
  // (v1.50 makes it when the index is created)
  const preCompactionSize = await ctx.indexEnvs.use(record.uuid, async () => dataFileBytes(folder));
  // A sibling folder, so the final rename stays on the same file system.
  const scratch = `${folder}.compacting`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch);
  const copy = path.join(scratch, 'data.mdb');
  ctx.progress.enter('indexCompaction', 'copy and compact the index');
  try {
    // The environment lives in a folder, so LMDB writes the copy as `<folder>/data.mdb`.
    await ctx.indexEnvs.use(record.uuid, (env) => env.root.backup(scratch, true));
  } catch (err) {
    rmSync(scratch, { recursive: true, force: true });
    throw err;
  }
  const postCompactionSize = dataFileBytes(scratch);
  return {
    tasks: [succeeded(task!, { kind: 'indexCompaction', preCompactionSize, postCompactionSize })],
    afterCommit: async () => {
      await ctx.indexEnvs.replaceData(record.uuid, copy);
      rmSync(scratch, { recursive: true, force: true });
      ctx.indexStats.put(record.uuid, measureIndex(ctx.indexEnvs.get(record.uuid), folder));
    },
  };
};

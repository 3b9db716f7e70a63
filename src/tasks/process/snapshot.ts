/**
 * `snapshotCreation` (dumps-snapshots-upgrade.md §4; every enqueued one in one batch, all
 * succeeding together): writes the snapshot of the data directory, to the snapshot directory or,
 * with the `--s3-*` options, to an S3 bucket (snapshots/s3-upload.ts). The copy of the task queue
 * still holds this batch's tasks as enqueued (storage never holds `processing`): they are
 * removed from it, so a restored instance neither lists nor runs them again.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { ApiError } from '../../errors/api-error.js';
import { uploadSnapshot } from '../../snapshots/s3-upload.js';
import { writeSnapshot } from '../../snapshots/writer.js';
import { openInstanceStore } from '../../store/env.js';
import { TaskQueue } from '../queue.js';
import type { BatchProcessor } from './context.js';
import { failed, succeeded } from './outcome.js';

export const processSnapshotCreation: BatchProcessor = async (ctx, tasks) => {
  if (ctx.archives === undefined) {
    const error = new ApiError('internal', 'Snapshots are not configured.');
    return { tasks: tasks.map((task) => failed(task, error)) };
  }
  const { archives } = ctx;
  const s3 = archives.s3Snapshots;
  const records = ctx.indexes.list();
  await writeSnapshot(
    archives.snapshotDir,
    {
      dbPath: archives.store.dbPath,
      compact: archives.compactSnapshots,
      indexCount: records.length,
      instance: archives.store.root,
      indexes: (function* () {
        for (const [record, env] of ctx.indexEnvs.each(records)) yield { uid: record.uid, uuid: record.uuid, root: env.root };
      })(),
      updateFilesDir: ctx.updateFiles.dir,
      adjust: async (copiedDbPath) => {
        const copy = openInstanceStore(copiedDbPath, archives.pkgVersion);
        try {
          new TaskQueue(copy).discard(tasks.map((task) => task.uid));
        } finally {
          await copy.close();
        }
        // the lock file of the copy's short opening is no data: a restore makes its own
        rmSync(path.join(copiedDbPath, 'instance', 'lock.mdb'), { force: true });
      },
    },
    ctx.signal,
    ctx.progress.archive('snapshotCreation'),
    s3 === undefined
      ? undefined
      : { level: s3.target.compressionLevel, send: (tarball) => uploadSnapshot(s3.target, archives.store.dbPath, tarball, s3.request, ctx.signal) },
  );
  return { tasks: tasks.map((task) => succeeded(task)) };
};

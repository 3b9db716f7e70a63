/**
 * Writes a snapshot (dumps-snapshots-upgrade.md §4.2): a gzip tar of Quarry's own data directory,
 * `<snapshot dir>/<db folder name>.snapshot`, made from consistent copies of the LMDB
 * environments (LMDB's copy, compacting unless `--experimental-no-snapshot-compaction`, reads one
 * snapshot of an environment while writers go on), the update files and the instance uid. Each
 * snapshot replaces the previous one only once complete (store/archive.ts), and is then made
 * read-only. With S3 snapshots the tarball is streamed to the bucket instead, as it is packed
 * (`SnapshotUpload`); the copies are still laid out in the snapshot directory first.
 *
 * Caller: the snapshot batch processor, on the scheduler: index environments do not change while
 * it runs; routes keep registering tasks in the instance environment, and those after the copy
 * are simply not in the snapshot.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { RootDatabase } from 'lmdb';
import type { Readable } from 'node:stream';
import { packDirectory, tarballOf } from '../store/archive.js';
import { instanceUidFile } from '../store/instance-uid.js';
import { NO_ARCHIVE_PROGRESS, type ArchiveProgress } from '../types/archive-progress.js';

export interface SnapshotContent {
  dbPath: string;
  /** LMDB's compacting copy (free pages left out), unless `--experimental-no-snapshot-compaction` */
  compact: boolean;
  instance: RootDatabase;
  /** every index environment, by its folder uuid, walked once: each may close once the next is asked for */
  indexes: Iterable<{ uid: string; uuid: string; root: RootDatabase }>;
  /** how many `indexes` holds (the progress's total) */
  indexCount: number;
  updateFilesDir: string;
  /** called on the copied data directory before it is packed (drops the snapshot's own tasks) */
  adjust: (copiedDbPath: string) => Promise<void>;
}

/** The steps of a snapshot, shown in its batch's progress (tasks/progress.ts). */
export type SnapshotStep =
  | 'start the snapshot creation'
  | 'snapshot the index scheduler'
  | 'snapshot the update files'
  | 'snapshot the indexes'
  | 'snapshot the api keys'
  | 'create the tarball';

/** The snapshot file of a db path: named after its folder, as Meilisearch names it. */
export function snapshotFileOf(snapshotDir: string, dbPath: string): string {
  return path.join(snapshotDir, `${path.basename(path.resolve(dbPath))}.snapshot`);
}

/** Where a snapshot of `target` is laid out before it is packed. */
const layoutOf = (target: string) => `${target}-layout`;

/**
 * Removes what a snapshot of `dbPath` interrupted by a crash left in `snapshotDir` (its layout
 * folder, its `.tmp` archive); the last complete snapshot and anything else there stay.
 */
export function sweepSnapshotLeftovers(snapshotDir: string, dbPath: string): void {
  // not a folder (yet): nothing of ours there; a snapshot into it fails its own task
  if (statSync(snapshotDir, { throwIfNoEntry: false })?.isDirectory() !== true) return;
  const target = snapshotFileOf(snapshotDir, dbPath);
  for (const leftover of [layoutOf(target), `${target}.tmp`]) rmSync(leftover, { recursive: true, force: true });
}

/** Where a snapshot's tarball goes instead of the snapshot directory (S3: s3-upload.ts), packed at gzip `level`. */
export interface SnapshotUpload {
  readonly level: number;
  send(tarball: Readable): Promise<void>;
}

/** Writes the snapshot and returns its file, or hands its tarball to `upload` (then null). */
export function writeSnapshot(snapshotDir: string, content: SnapshotContent, signal: AbortSignal, progress?: ArchiveProgress<SnapshotStep>): Promise<string>;
export function writeSnapshot(snapshotDir: string, content: SnapshotContent, signal: AbortSignal, progress: ArchiveProgress<SnapshotStep>, upload: SnapshotUpload | undefined): Promise<string | null>;
export async function writeSnapshot(
  snapshotDir: string,
  content: SnapshotContent,
  signal: AbortSignal,
  progress: ArchiveProgress<SnapshotStep> = NO_ARCHIVE_PROGRESS,
  upload?: SnapshotUpload,
): Promise<string | null> {
  progress.step('start the snapshot creation');
  mkdirSync(snapshotDir, { recursive: true });
  const target = snapshotFileOf(snapshotDir, content.dbPath);
  const scratch = layoutOf(target);
  rmSync(scratch, { recursive: true, force: true });
  try {
    progress.step('snapshot the index scheduler');
    // The environments live in folders, so LMDB writes each copy as `<folder>/data.mdb`.
    mkdirSync(path.join(scratch, 'instance'), { recursive: true });
    await content.instance.backup(path.join(scratch, 'instance'), content.compact);
    const uidFile = instanceUidFile(content.dbPath);
    if (existsSync(uidFile)) copyFileSync(uidFile, instanceUidFile(scratch));
    progress.step('snapshot the update files');
    mkdirSync(path.join(scratch, 'update_files'));
    const updateFiles = readdirSync(content.updateFilesDir).filter((name) => !name.endsWith('.tmp'));
    const copied = progress.count('update file', updateFiles.length);
    for (const name of updateFiles) {
      copyFileSync(path.join(content.updateFilesDir, name), path.join(scratch, 'update_files', name));
      copied();
    }
    progress.step('snapshot the indexes');
    let position = 0;
    for (const { uid, uuid, root } of content.indexes) {
      signal.throwIfAborted();
      progress.index(uid, position++, content.indexCount);
      mkdirSync(path.join(scratch, 'indexes', uuid), { recursive: true });
      await root.backup(path.join(scratch, 'indexes', uuid), content.compact);
    }
    // the keys live in the instance environment, copied above: the step only holds its place
    progress.step('snapshot the api keys');
    await content.adjust(scratch);
    progress.step('create the tarball');
    if (upload !== undefined) {
      await upload.send(tarballOf(scratch, signal, upload.level));
      return null;
    }
    await packDirectory(scratch, target, signal);
    chmodSync(target, 0o444);
    return target;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

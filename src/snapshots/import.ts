/**
 * `--import-snapshot`: unpacks a snapshot (snapshots/writer.ts) into the empty db path, checks
 * its LMDB files (store/db-check.ts: a damaged one would crash the process when opened), and the
 * db path then opens as any database does. Failing half-way, the db path is removed, so the next
 * start does not take a partial database for an existing one.
 */
import { rmSync, statSync } from 'node:fs';
import type { ImportProgress } from '../logs/import-progress.js';
import { extractArchive } from '../store/archive.js';
import { checkDataFiles } from '../store/db-check.js';

export async function importSnapshot(file: string, dbPath: string, progress?: ImportProgress): Promise<void> {
  try {
    progress?.phase('unpacking the snapshot', statSync(file).size, 'bytes');
    let read = 0;
    await extractArchive(file, dbPath, (bytes) => progress?.update((read += bytes)));
    checkDataFiles(dbPath);
    progress?.stop(`snapshot imported: ${(read / 1024 / 1024).toFixed(1)} MiB read`);
  } catch (err) {
    rmSync(dbPath, { recursive: true, force: true });
    throw err;
  }
}

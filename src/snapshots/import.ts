/**
 * `--import-snapshot`: unpacks a snapshot (snapshots/writer.ts) into the empty db path, checks
 * that it holds a Quarry instance store, and no Meilisearch database or damaged LMDB file
 * (store/db-check.ts: a damaged one would crash the process when opened), and the db path then
 * opens as any database does. Failing half-way, the db path is removed, so the next
 * start does not take a partial database for an existing one.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ImportProgress } from '../logs/import-progress.js';
import { extractArchive } from '../store/archive.js';
import { checkDatabase } from '../store/db-check.js';

/** Why an archive without an instance store is no snapshot: a dump, or something else. */
function notASnapshot(file: string, unpacked: string): string {
  const hint = existsSync(path.join(unpacked, 'metadata.json')) ? 'it looks like a dump: import it with `--import-dump`' : 'it holds no `instance/data.mdb`';
  return `\`${file}\` is not a Quarry snapshot: ${hint}`;
}

export async function importSnapshot(file: string, dbPath: string, progress?: ImportProgress): Promise<void> {
  try {
    progress?.phase('unpacking the snapshot', statSync(file).size, 'bytes');
    let read = 0;
    await extractArchive(file, dbPath, (bytes) => progress?.update((read += bytes)));
    checkDatabase(dbPath);
    if (!existsSync(path.join(dbPath, 'instance', 'data.mdb'))) throw new Error(notASnapshot(file, dbPath));
    progress?.stop(`snapshot imported: ${(read / 1024 / 1024).toFixed(1)} MiB read`);
  } catch (err) {
    rmSync(dbPath, { recursive: true, force: true });
    throw err;
  }
}

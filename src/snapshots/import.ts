/**
 * `--import-snapshot`: unpacks a snapshot (snapshots/writer.ts) into the empty db path, which
 * then opens as any database does. Failing half-way, the db path is removed, so the next start
 * does not take a partial database for an existing one.
 */
import { rmSync } from 'node:fs';
import { extractArchive } from '../store/archive.js';

export async function importSnapshot(file: string, dbPath: string): Promise<void> {
  try {
    await extractArchive(file, dbPath);
  } catch (err) {
    rmSync(dbPath, { recursive: true, force: true });
    throw err;
  }
}

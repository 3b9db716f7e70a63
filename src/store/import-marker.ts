/**
 * An import (`--import-dump`, `--import-snapshot`) writes for seconds to hours, and a process
 * stopped meanwhile (kill -9, out of memory, power loss) leaves a half-filled db path that would
 * open as a sound database missing its indexes or tasks. `<db path>/import-in-progress`, holding
 * the archive's path, is written (and synced) before the import's first write and removed after
 * its last: a start that finds it knows the database is incomplete (store/import-decision.ts
 * imports again when asked to, instance/open-instance.ts refuses it otherwise).
 */
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { LOCK_FILE } from './db-lock.js';

const MARKER = 'import-in-progress';

export function markImportStarted(dbPath: string, file: string): void {
  const fd = openSync(path.join(dbPath, MARKER), 'w');
  try {
    writeSync(fd, path.resolve(file));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function markImportEnded(dbPath: string): void {
  rmSync(path.join(dbPath, MARKER), { force: true });
}

/** The archive whose import into `dbPath` did not end, or null when none was interrupted. */
export function interruptedImport(dbPath: string): string | null {
  const marker = path.join(dbPath, MARKER);
  return existsSync(marker) ? readFileSync(marker, 'utf8') : null;
}

/** Removes what an interrupted import wrote into `dbPath`, marker included, but the lock its caller holds. */
export function removeInterruptedImport(dbPath: string): void {
  for (const name of readdirSync(dbPath)) {
    if (name !== LOCK_FILE) rmSync(path.join(dbPath, name), { recursive: true, force: true });
  }
}

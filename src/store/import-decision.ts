/**
 * Whether `--import-dump` / `--import-snapshot` imports, is skipped, or refuses to start
 * (dumps-snapshots-upgrade.md §3.9, §4.3). Rows are checked in order, the first match wins:
 *   1. empty db path and the file exists        → import
 *      (a db path holding an interrupted import counts as empty: its half import is replaced)
 *   2. db not empty, no `--ignore-*-if-db-exists` → refuse (the database already exists)
 *   3. file missing, no `--ignore-missing-*`      → refuse (the file does not exist)
 *   4. otherwise                                  → start without importing
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { interruptedImport } from './import-marker.js';

export class ImportRefused extends Error {}

export interface ImportRequest {
  kind: 'dump' | 'snapshot';
  file: string;
  ignoreMissing: boolean;
  ignoreIfDbExists: boolean;
}

/** A db path that does not exist, holds nothing, or cannot be listed counts as empty. */
export function isEmptyDb(dbPath: string): boolean {
  try {
    return readdirSync(dbPath).length === 0;
  } catch {
    return true;
  }
}

/** true: import; false: start on the database as it is. Throws ImportRefused with Meilisearch's wording. */
export function shouldImport(dbPath: string, request: ImportRequest): boolean {
  const empty = isEmptyDb(dbPath) || interruptedImport(dbPath) !== null;
  const exists = existsSync(request.file);
  if (empty && exists) return true;
  if (!empty && !request.ignoreIfDbExists) {
    throw new ImportRefused(`database already exists at "${path.resolve(dbPath)}", try to delete it or rename it`);
  }
  if (!exists && !request.ignoreMissing) {
    // the snapshot message has no quotes around the path, unlike the dump one
    throw new ImportRefused(request.kind === 'dump' ? `dump doesn't exist at "${request.file}"` : `snapshot doesn't exist at ${request.file}`);
  }
  return false;
}

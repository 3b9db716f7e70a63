/**
 * The instance uid file, `<db path>/instance-uid` (dumps-snapshots-upgrade.md §1): Quarry makes
 * none itself (it sends no analytics) but keeps the one a dump brings, so the next dump carries
 * it on.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The instance uid file of a db path (snapshots copy it as it is). */
export function instanceUidFile(dbPath: string): string {
  return path.join(dbPath, 'instance-uid');
}

export function readInstanceUid(dbPath: string): string | null {
  const file = instanceUidFile(dbPath);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || null : null;
}

export function writeInstanceUid(dbPath: string, uid: string): void {
  writeFileSync(instanceUidFile(dbPath), uid);
}

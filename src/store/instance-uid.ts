/**
 * The instance uid file, `<db path>/instance-uid` (dumps-snapshots-upgrade.md §1): Quarry makes
 * none itself (it sends no analytics) but keeps the one a dump brings, so the next dump carries
 * it on.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const FILE = 'instance-uid';

export function readInstanceUid(dbPath: string): string | null {
  const file = path.join(dbPath, FILE);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || null : null;
}

export function writeInstanceUid(dbPath: string, uid: string): void {
  writeFileSync(path.join(dbPath, FILE), uid);
}

/**
 * What the db path holds, checked before any environment of it is opened, at every start and on
 * an unpacked snapshot:
 *   - Meilisearch's own layout (`VERSION` with `tasks/`, `auth/` or `indexes/`, and no Quarry
 *     `instance/`): Quarry's default db path is `./data.ms`, as Meilisearch's, and would otherwise
 *     start as an empty instance next to files it cannot read;
 *   - each LMDB data file, the instance's and each index's (lmdb-header.ts says what is checked
 *     and why: two small reads a file), so a damaged one is refused with a message instead of a
 *     crash by signal.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { lmdbFileProblem } from './lmdb-header.js';

export class UnusableDatabaseError extends Error {
  override name = 'UnusableDatabaseError';
}

/** Meilisearch's `VERSION` (at most its first line, trimmed), when `dbPath` holds a Meilisearch database. */
function meilisearchVersion(dbPath: string): string | null {
  const version = path.join(dbPath, 'VERSION');
  if (!existsSync(version) || existsSync(path.join(dbPath, 'instance'))) return null;
  if (!['tasks', 'auth', 'indexes'].some((folder) => existsSync(path.join(dbPath, folder)))) return null;
  return readFileSync(version, 'utf8').split('\n')[0]!.trim().slice(0, 64);
}

/** The LMDB data files of the db path that exist: the instance's, then each index folder's. */
function dataFiles(dbPath: string): string[] {
  const files = [path.join(dbPath, 'instance', 'data.mdb')];
  const indexes = path.join(dbPath, 'indexes');
  if (existsSync(indexes)) {
    for (const entry of readdirSync(indexes, { withFileTypes: true })) {
      if (entry.isDirectory()) files.push(path.join(indexes, entry.name, 'data.mdb'));
    }
  }
  return files.filter((file) => existsSync(file));
}

/** Throws UnusableDatabaseError when `dbPath` holds a Meilisearch database or an LMDB file LMDB cannot open safely. */
export function checkDatabase(dbPath: string): void {
  const where = `the database at "${path.resolve(dbPath)}"`;
  const meilisearch = meilisearchVersion(dbPath);
  if (meilisearch !== null) {
    throw new UnusableDatabaseError(
      `${where} is a Meilisearch database (VERSION ${meilisearch}), which Quarry cannot read: ` +
        'create a dump of it with Meilisearch (`POST /dumps`), then start Quarry on an empty db path with `--import-dump <the dump>`',
    );
  }
  for (const file of dataFiles(dbPath)) {
    const problem = lmdbFileProblem(file);
    if (problem !== null) throw new UnusableDatabaseError(`${where} is damaged: \`${path.relative(dbPath, file)}\` cannot be opened (${problem})`);
  }
}

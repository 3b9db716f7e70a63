/**
 * The db path's LMDB data files checked before any of them is opened (lmdb-header.ts says what
 * is checked and why): the instance environment and each index environment. Run at every start
 * (two small reads a file) and on an unpacked snapshot, so a damaged file is refused with a
 * message instead of a crash by signal.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { lmdbFileProblem } from './lmdb-header.js';

export class DamagedDatabaseError extends Error {
  override name = 'DamagedDatabaseError';
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

/** Throws DamagedDatabaseError naming the first data file of `dbPath` LMDB cannot open safely. */
export function checkDataFiles(dbPath: string): void {
  for (const file of dataFiles(dbPath)) {
    const problem = lmdbFileProblem(file);
    if (problem !== null) {
      throw new DamagedDatabaseError(`the database at "${path.resolve(dbPath)}" is damaged: \`${path.relative(dbPath, file)}\` cannot be opened (${problem})`);
    }
  }
}

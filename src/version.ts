/**
 * This build: Quarry's package version (package.json: the startup report, the data folder's
 * version record) and its commit, stamped into build/build-info.json by `npm run build` (absent
 * outside a git checkout), which `GET /version` reports; and the Meilisearch version spoken.
 */
import { readFileSync } from 'node:fs';

export interface BuildInfo {
  pkgVersion: string;
  commitSha: string;
  commitDate: string;
}

const root = new URL('../../', import.meta.url);

function readJson(relative: string): Record<string, unknown> | null {
  try {
    return JSON.parse(readFileSync(new URL(relative, root), 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

export function loadBuildInfo(): BuildInfo {
  const pkg = readJson('package.json');
  const stamp = readJson('build/build-info.json');
  return {
    pkgVersion: String(pkg?.version ?? '0.0.0'),
    commitSha: typeof stamp?.commitSha === 'string' ? stamp.commitSha : 'unknown',
    commitDate: typeof stamp?.commitDate === 'string' ? stamp.commitDate : 'unknown',
  };
}

/**
 * The Meilisearch version whose API and dump format Quarry speaks: `GET /version` reports it as
 * `pkgVersion`, dumps name it as the engine that produced them (`dbVersion`), and upgrade tasks
 * read from dumps target it.
 */
export const MEILISEARCH_VERSION: [number, number, number] = [1, 50, 0];

/** MEILISEARCH_VERSION as Meilisearch writes its version: `1.50.0`. */
export const MEILISEARCH_VERSION_TEXT = MEILISEARCH_VERSION.join('.');

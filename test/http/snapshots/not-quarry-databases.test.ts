/**
 * What is no Quarry database is refused instead of being taken for an empty one: a Meilisearch
 * data.ms (Quarry's default db path is `./data.ms`, as Meilisearch's), and snapshots that hold a
 * Meilisearch database, nothing, or a dump. Meilisearch's files are left as they are.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeArchive } from '../../helpers/dump-archive.js';
import { runCli, tempDir } from '../../helpers/server.js';

const start = (dbPath: string, ...args: string[]) => runCli(['--db-path', dbPath, '--http-addr', '127.0.0.1:0', '--no-analytics', ...args]);

/** Meilisearch's data.ms layout (its LMDB files need not be real: they are never opened). */
const MEILISEARCH_FILES = { VERSION: '1.12.0', 'instance-uid': '972b0d34-a73b-4b37-9a06-eac9af32c9b3', 'tasks/data.mdb': 'x', 'auth/data.mdb': 'x', 'indexes/4c1cbe3c-0a1c-4c6a-9a7a-6a1a3e1f0d2e/data.mdb': 'x' };

const MEILISEARCH_REFUSAL = 'is a Meilisearch database (VERSION 1.12.0), which Quarry cannot read: create a dump of it with Meilisearch (`POST /dumps`), then start Quarry on an empty db path with `--import-dump <the dump>`';

describe('a database that is not Quarry’s', () => {
  it('a Meilisearch data.ms as the db path: the start is refused, its files untouched', async () => {
    const dbPath = path.join(tempDir(), 'data.ms');
    for (const [name, content] of Object.entries(MEILISEARCH_FILES)) {
      mkdirSync(path.dirname(path.join(dbPath, name)), { recursive: true });
      writeFileSync(path.join(dbPath, name), content);
    }
    const { code, stderr } = await start(dbPath);
    expect(stderr).toContain(`the database at "${dbPath}" ${MEILISEARCH_REFUSAL}`);
    expect(code).toBe(1);
    expect(readdirSync(dbPath).sort()).toEqual(['VERSION', 'auth', 'indexes', 'instance-uid', 'tasks']);
  });

  it.each([
    ['a Meilisearch snapshot', MEILISEARCH_FILES, MEILISEARCH_REFUSAL],
    ['an empty archive', {}, 'is not a Quarry snapshot: it holds no `instance/data.mdb`'],
    ['a dump', { 'metadata.json': '{"dumpVersion":"V6"}', 'keys.jsonl': '' }, 'is not a Quarry snapshot: it looks like a dump: import it with `--import-dump`'],
  ])('%s given to --import-snapshot: refused, the db path removed', async (_, files, message) => {
    const dir = tempDir();
    const file = path.join(dir, 'x.snapshot');
    await writeArchive(file, files);
    const dbPath = path.join(dir, 'db');
    const { code, stderr } = await start(dbPath, '--import-snapshot', file);
    expect(stderr).toContain('importing the snapshot failed: ');
    expect(stderr).toContain(message);
    expect(code).toBe(1);
    expect(existsSync(dbPath)).toBe(false);
  });
});

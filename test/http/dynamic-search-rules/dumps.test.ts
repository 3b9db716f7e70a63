// Dynamic search rules in dumps: v1.50 dumps them as its internal index `.meili_dsr` (documents
// keyed by `uid`), and an import brings them back as rules, not as an index.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractArchive } from '../../../src/store/archive.js';
import { call, run } from '../../helpers/api.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let dumpFile: string;

const RULE = {
  uid: 'black-friday',
  description: 'Black Friday',
  precedence: 3,
  active: true,
  conditions: { time: { start: '2025-11-28T00:00:00Z' }, query: { words: 'sale' } },
  actions: [{ selector: { indexUid: 'products', id: '123' }, action: { type: 'pin', position: 1 } }],
};

beforeAll(async () => {
  server = await startServer();
  await call(server, 'PATCH', '/experimental-features', { dynamicSearchRules: true });
  const { uid, ...body } = RULE;
  expect((await run(server, 'PATCH', `/dynamic-search-rules/${uid}`, body)).status).toBe('succeeded');
  expect((await run(server, 'POST', '/dumps')).status).toBe('succeeded');
  const dumpDir = path.join(server.dbPath, '..', 'dumps');
  dumpFile = path.join(dumpDir, readdirSync(dumpDir)[0]!);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('a dump', () => {
  it('holds the rules as the documents of the .meili_dsr index', async () => {
    const extracted = tempDir('quarry-dump-dsr-');
    await extractArchive(dumpFile, extracted);
    const folder = path.join(extracted, 'indexes', '.meili_dsr');
    expect(JSON.parse(readFileSync(path.join(folder, 'metadata.json'), 'utf8'))).toMatchObject({ uid: '.meili_dsr', primaryKey: 'uid' });
    expect(readFileSync(path.join(folder, 'documents.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line))).toEqual([RULE]);
  });

  it('brings the rules back on import, and no index', async () => {
    const imported = await startServer({ dbPath: path.join(tempDir(), 'imported.ms'), args: ['--import-dump', dumpFile] });
    try {
      expect((await call(imported, 'GET', '/dynamic-search-rules/black-friday')).body).toEqual(RULE);
      expect((await call(imported, 'GET', '/indexes')).body.results).toEqual([]);
    } finally {
      await imported.dispose();
    }
  }, 60_000);
});
